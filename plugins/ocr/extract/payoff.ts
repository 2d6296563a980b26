/**
 * Payoff letter or statement: lienholder (letterhead, or "payable to"),
 * account number, payoff amount, per diem and good-through date, from a
 * table of labelled amounts or from the letter's running text.
 */
import type { AccountData } from '../../../core/plugin-api.js';
import type { Layout } from '../layout/layout.js';
import { collapse, findMoney, isStreetLine, parseCityLine, parseDate, parseMoney } from '../layout/text.js';
import { addressOf, identifier, parseParty, type Fields } from './common.js';
import { runSpecs, type SpecResult } from './run.js';
import type { VinRead } from './vin.js';

const SPECS = [
  {
    key: 'account_number',
    labels: [
      'ACCOUNT NUMBER',
      'ACCOUNT NO',
      'ACCOUNT #',
      'ACCT NO',
      'ACCT #',
      'ACCT NUMBER',
      'LOAN NUMBER',
      'LOAN NO',
      'LOAN #',
      'LOAN ACCOUNT NUMBER',
      'CONTRACT NUMBER',
      'CONTRACT NO',
      'LOAN ID',
      'ACCOUNT',
      'LOAN ACCT NO',
      'LOAN ACCT',
      'LOAN ACCOUNT',
      'LOAN ACCOUNT NO',
      'ACCT',
    ],
    parse: identifier,
    typed: true,
  },
  {
    key: 'payoff_amount',
    labels: [
      'TOTAL PAYOFF AMOUNT',
      'TOTAL PAYOFF',
      'PAYOFF AMOUNT',
      'NET PAYOFF',
      'PAYOFF TOTAL',
      'TOTAL AMOUNT DUE',
      'PAYOFF BALANCE',
      'TOTAL DUE',
      'AMOUNT TO PAY IN FULL',
      'AMOUNT REQUIRED TO PAY IN FULL',
      'AMOUNT NEEDED TO PAY IN FULL',
      'AMOUNT TO PAY OFF',
      'PAYOFF FIGURE',
      'TOTAL TO PAY OFF',
      'PAYOFF',
    ],
    parse: parseMoney,
    typed: true,
  },
  {
    key: 'per_diem',
    labels: [
      'PER DIEM',
      'PER DIEM INTEREST',
      'DAILY INTEREST',
      'PER DIEM AMOUNT',
      'DAILY PER DIEM',
      'INTEREST PER DAY',
      'DAILY RATE',
    ],
    parse: parseMoney,
    typed: true,
  },
  {
    key: 'good_through',
    labels: [
      'GOOD THROUGH',
      'PAYOFF GOOD THROUGH',
      'GOOD THRU',
      'VALID THROUGH',
      'GOOD UNTIL',
      'QUOTE GOOD THROUGH',
      'PAYOFF VALID THROUGH',
      'PAYOFF EXPIRES',
      'VALID UNTIL',
      'QUOTE EXPIRES',
      'QUOTE VALID UNTIL',
      'QUOTE VALID THROUGH',
      'VALID THRU',
      'GOOD TILL',
      'QUOTE GOOD UNTIL',
    ],
    parse: parseDate,
    typed: true,
  },
  {
    key: 'lienholder',
    labels: ['LIENHOLDER', 'LENDER', 'PAYABLE TO', 'REMIT TO', 'CREDITOR', 'LIEN HOLDER'],
    parse: (s: string) => (s.length >= 4 && !/\d{3}/.test(s) ? collapse(s.toUpperCase()) : null),
  },
];
const STOPPERS = [
  'PRINCIPAL BALANCE',
  'ACCRUED INTEREST',
  'FEES',
  'LATE FEES',
  'STATEMENT DATE',
  'BORROWER',
  'COLLATERAL',
  'VIN',
  'VEHICLE',
  'RE',
  'DATE',
];

const LENDERISH =
  /\b(BANK|CREDIT|FINANCIAL|FINANCE|CAPITAL|LENDING|FEDERAL|CORP|CORPORATION|SERVICES|ACCEPTANCE|MOTOR|TRUST|SAVINGS|FCU|AUTO|FUNDING|LOANS?|INC|LLC|N\.?A\.?|USA)\b/;
const NOT_NAME = /PAYOFF|STATEMENT|QUOTE|LETTER|INVOICE|^RE\b|^DATE\b|^PAGE\b|DEPARTMENT OF/;

/** The letterhead: the tallest lender-like line in the top quarter of the first page. */
function letterhead(l: Layout): string {
  let best: { text: string; score: number } | null = null;
  for (const p of l.phrases) {
    if (p.y0 > l.height * 0.25) continue;
    const t = collapse(p.text.toUpperCase());
    if (
      t.length < 4 ||
      NOT_NAME.test(t) ||
      parseCityLine(t) ||
      isStreetLine(t) ||
      parseDate(t) ||
      /\d{3}/.test(t) ||
      /[|]/.test(p.text)
    )
      continue;
    const score = (p.y1 - p.y0) * (LENDERISH.test(t) ? 1.6 : 1) * (/[a-z]/.test(p.text) ? 0.7 : 1);
    if (!best || score > best.score) best = { text: t, score };
  }
  return best?.text ?? '';
}

interface PayoffResult {
  fields: Fields;
  account_data: AccountData;
  vin: VinRead | null;
  vinRegions: SpecResult['vinRegions'];
}

export function extractPayoff(pages: readonly Layout[]): PayoffResult {
  const r = runSpecs(pages, SPECS, [], STOPPERS);
  const v = r.values;
  const text = collapse(pages.map((l) => l.rows.map((row) => row.map((p) => p.text).join(' ')).join(' ')).join(' '));
  /** The first value `parse` finds in the text after a match of `re` (every match is tried, in order). */
  const after = <T>(re: RegExp, parse: (s: string) => T | null | undefined): T | null => {
    for (const m of text.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g'))) {
      const v = parse(text.slice(m.index + m[0].length, m.index + m[0].length + 90));
      if (v !== null && v !== undefined) return v;
    }
    return null;
  };
  const money = (s: string) => findMoney(s.split(/(?<=\d)\.\s/)[0]!)[0];
  const f: Fields = {};
  f.payoff_amount =
    v.payoff_amount ??
    after(/\bpay(?:off)?\b[^.$]{0,80}?\bin full\b/i, money) ??
    after(/\bpayoff (amount|quote|balance|figure)\b/i, money) ??
    '';
  f.per_diem =
    v.per_diem ??
    after(/\bper\s*diem\b/i, money) ??
    /(\$\s?[\d,]+\.\d{2})\s*(?:\/\s*day\b|per\s*(?:diem|day)\b|daily\b)/i.exec(text)?.[1]?.replace(/[$,\s]/g, '') ??
    '';
  f.good_through = v.good_through ?? after(/\b(good|valid)\s*(through|thru|until)\b/i, parseDate) ?? '';
  f.account_number = v.account_number ?? after(/\b(account|acct|loan)\s*(number|no\.?|#)\s*:?/i, identifier) ?? '';
  const payable = /payable to ([A-Z][A-Z0-9&.,' -]{3,60}?)(?:\s+and\b|\s+at\b|,|\.\s)/i.exec(text)?.[1];
  f.lienholder_name = letterhead(pages[0]!) || v.lienholder || (payable ? collapse(payable.toUpperCase()) : '');
  f.vin = r.vin?.vin ?? '';
  // the lienholder's address: the street and city lines under the letterhead, or on one line with it
  const top = pages[0]!.phrases.filter((p) => p.y0 < pages[0]!.height * 0.25).map((p) => p.text);
  const addr = parseParty([
    'X X',
    ...top.flatMap((t) => t.split(/\s*\|\s*/)).filter((t) => isStreetLine(t) || parseCityLine(t)),
  ]);
  const loan: NonNullable<AccountData['loan']> = {};
  if (f.payoff_amount) loan.payoff_amount = Number(f.payoff_amount);
  if (f.per_diem) loan.per_diem = Number(f.per_diem);
  if (f.good_through) loan.payoff_good_through = f.good_through;
  if (f.lienholder_name || f.account_number) {
    loan.prior_lien = {
      ...(f.account_number ? { lien_id: f.account_number } : {}),
      ...(f.lienholder_name
        ? {
            lienholder: {
              type: 'LIENHOLDER',
              name: f.lienholder_name,
              ...(addressOf(addr) ? { addr: addressOf(addr) } : {}),
            },
          }
        : {}),
    };
  }
  const out: AccountData = {};
  if (Object.keys(loan).length) out.loan = loan;
  if (f.vin) out.vehicle = { vin: f.vin };
  return { fields: f, account_data: out, vin: r.vin, vinRegions: r.vinRegions };
}
