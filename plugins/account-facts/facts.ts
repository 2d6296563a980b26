/**
 * account_facts (spec: AccountFacts, preview): four answers a lender asks of
 * a reconciled entry, each with a one-sentence summary and references (JSON
 * pointers into the entry, the values used, and whether each came from the
 * submitted borrowers or the reconciled title). Names are compared with the
 * tolerant matching of plugins/enrichment-common/names.ts.
 */
import { type TitleEntry, namesMatch, personName } from '../../core/plugin-api.js';

interface FactReference {
  field_path: string;
  value: unknown;
  from: { kind: 'submitted_borrower' | 'reconciled_title'; ref_id?: string };
}
interface Fact {
  value: boolean;
  summary: string;
  references: FactReference[];
}
interface AccountFacts {
  computed_at: string;
  source: 'reconcile';
  borrower_on_title: Fact;
  borrower_signature_only_needed_for_title: Fact;
  has_problematic_brands: Fact;
  are_there_active_liens: Fact;
}

/** Title brands that impair the collateral (by name and by NMVTIS code: flood, fire, hail, junk, rebuilt, reconstructed, salvage, totaled). */
const PROBLEM_BRANDS = new Set(['SALVAGE', 'JUNK', 'TOTALED', 'FLOODED', 'REBUILT', 'LEMON']);
const PROBLEM_NMVTIS_CODES = new Set(['01', '02', '03', '08', '09', '10', '11', '31']);

interface Named {
  name: string;
  ref: FactReference;
}
const TITLE = '/account_data/vehicle/title';
const list = (names: string[]) =>
  names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

function borrowersOf(entry: TitleEntry): Named[] {
  return (entry.account_data.loan?.borrower ?? [])
    .map((b, i): Named | null => {
      const name = personName(b);
      if (!name) return null;
      const field = b.name ? 'name' : 'name_last';
      return {
        name,
        ref: {
          field_path: `/account_data/loan/borrower/${i}/${field}`,
          value: b.name ?? b.name_last,
          from: { kind: 'submitted_borrower', ...(b.id ? { ref_id: b.id } : {}) },
        },
      };
    })
    .filter((x): x is Named => !!x);
}

function ownersOf(entry: TitleEntry): Named[] {
  const t = entry.account_data.vehicle?.title;
  const owners = (t?.owners ?? [])
    .map((o, i): Named | null => {
      const name = personName(o);
      return name
        ? {
            name,
            ref: {
              field_path: `${TITLE}/owners/${i}/${o.name ? 'name' : 'name_last'}`,
              value: o.name ?? o.name_last,
              from: { kind: 'reconciled_title' },
            },
          }
        : null;
    })
    .filter((x): x is Named => !!x);
  if (owners.length || !t?.owner_names_one_line) return owners;
  // only the one-line form: split on the conjunction
  return t.owner_names_one_line
    .split(/\s+(?:AND|OR|&)\s+|\s*\/\s*/i)
    .filter(Boolean)
    .map((name) => ({
      name,
      ref: {
        field_path: `${TITLE}/owner_names_one_line`,
        value: t.owner_names_one_line,
        from: { kind: 'reconciled_title' as const },
      },
    }));
}

function conjunctionOf(entry: TitleEntry): { joiner: 'AND' | 'OR' | null; ref?: FactReference } {
  const t = entry.account_data.vehicle?.title;
  if (!t) return { joiner: null };
  const ref = (field: string, value: unknown): FactReference => ({
    field_path: `${TITLE}/${field}`,
    value,
    from: { kind: 'reconciled_title' },
  });
  if (t.is_or === true) return { joiner: 'OR', ref: ref('is_or', true) };
  if (t.is_and === true) return { joiner: 'AND', ref: ref('is_and', true) };
  const c = t.conjunction?.toUpperCase();
  if (c === 'OR' || c === 'AND') return { joiner: c, ref: ref('conjunction', t.conjunction) };
  return { joiner: null };
}

export function computeAccountFacts(entry: TitleEntry): AccountFacts {
  const borrowers = borrowersOf(entry);
  const owners = ownersOf(entry);
  const matched = owners.filter((o) => borrowers.some((b) => namesMatch(b.name, o.name)));
  const others = owners.filter((o) => !matched.includes(o));
  const refs = [...borrowers.map((b) => b.ref), ...owners.map((o) => o.ref)];

  let onTitle: Fact;
  if (!borrowers.length)
    onTitle = {
      value: false,
      summary: 'No borrower was submitted, so no borrower can be matched to the title.',
      references: refs,
    };
  else if (!owners.length)
    onTitle = {
      value: false,
      summary: 'The reconciled title lists no owners, so the borrower cannot be confirmed on it.',
      references: refs,
    };
  else if (matched.length) {
    const pairs = matched.map(
      (o) => `${borrowers.find((b) => namesMatch(b.name, o.name))!.name} (on the title as ${o.name})`,
    );
    onTitle = { value: true, summary: `Borrower ${list(pairs)} is an owner on the title.`, references: refs };
  } else
    onTitle = {
      value: false,
      summary: `No submitted borrower matches an owner on the title (owners: ${list(owners.map((o) => o.name))}).`,
      references: refs,
    };

  const conj = conjunctionOf(entry);
  const sigRefs = conj.ref ? [...refs, conj.ref] : refs;
  let signature: Fact;
  if (!owners.length)
    signature = {
      value: false,
      summary: 'The reconciled title lists no owners, so whose signatures the title needs is unknown.',
      references: sigRefs,
    };
  else if (!matched.length)
    signature = {
      value: false,
      summary: `The title owners (${list(owners.map((o) => o.name))}) are not the borrower, so their signatures are needed.`,
      references: sigRefs,
    };
  else if (!others.length)
    signature = {
      value: true,
      summary:
        owners.length === 1
          ? 'The borrower is the only owner on the title, so only the borrower signs.'
          : 'Every owner on the title is a borrower, so only borrower signatures are needed.',
      references: sigRefs,
    };
  else if (conj.joiner === 'OR')
    signature = {
      value: true,
      summary: `The owners are joined by OR, so the borrower can sign without ${list(others.map((o) => o.name))}.`,
      references: sigRefs,
    };
  else
    signature = {
      value: false,
      summary: `${list(others.map((o) => o.name))} is also an owner${conj.joiner === 'AND' ? ' (joined by AND)' : ' and the title does not say the owners are joined by OR'}, so that owner must sign too.`,
      references: sigRefs,
    };

  const t = entry.account_data.vehicle?.title;
  const brandRefs: FactReference[] = [];
  const brandNames = new Set<string>();
  if (t?.brand) {
    brandRefs.push({ field_path: `${TITLE}/brand`, value: t.brand, from: { kind: 'reconciled_title' } });
    if (PROBLEM_BRANDS.has(t.brand)) brandNames.add(t.brand);
  }
  (t?.brands ?? []).forEach((b, i) => {
    brandRefs.push({ field_path: `${TITLE}/brands/${i}`, value: b, from: { kind: 'reconciled_title' } });
    if (
      (b.brand && PROBLEM_BRANDS.has(b.brand.toUpperCase())) ||
      (b.nmvtis_code && PROBLEM_NMVTIS_CODES.has(b.nmvtis_code))
    )
      brandNames.add((b.brand ?? `code ${b.nmvtis_code}`).toUpperCase());
  });
  const odometerNotActual = t?.odometer_code_translation === 'NOT_ACTUAL';
  if (t?.odometer_code_translation)
    brandRefs.push({
      field_path: `${TITLE}/odometer_code_translation`,
      value: t.odometer_code_translation,
      from: { kind: 'reconciled_title' },
    });
  const problems = [...brandNames];
  const brands: Fact =
    problems.length || odometerNotActual
      ? {
          value: true,
          summary: `The title carries ${[problems.length ? `the ${list(problems)} brand${problems.length > 1 ? 's' : ''}` : '', odometerNotActual ? 'an odometer branded not actual' : ''].filter(Boolean).join(' and ')}.`,
          references: brandRefs,
        }
      : {
          value: false,
          summary: t
            ? 'The reconciled title carries no problematic brand.'
            : 'There is no title data, so no brand is known.',
          references: brandRefs,
        };

  const lienRefs: FactReference[] = [];
  if (t?.has_liens !== undefined && t?.has_liens !== null)
    lienRefs.push({ field_path: `${TITLE}/has_liens`, value: t.has_liens, from: { kind: 'reconciled_title' } });
  const active = (t?.active_liens ?? [])
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => !l.lien_release_signed && !l.lien_release_date);
  for (const { l, i } of active)
    lienRefs.push({
      field_path: `${TITLE}/active_liens/${i}/lienholder/name`,
      value: l.lienholder?.name ?? null,
      from: { kind: 'reconciled_title' },
    });
  const holders = active.map(({ l }) => l.lienholder?.name).filter((n): n is string => !!n);
  const liens: Fact = active.length
    ? {
        value: true,
        summary: `The title shows ${active.length} active lien${active.length > 1 ? 's' : ''}${holders.length ? ` (${list(holders)})` : ''}.`,
        references: lienRefs,
      }
    : t?.has_liens === true
      ? {
          value: true,
          summary: 'The title reports an active lien, though no lienholder is listed.',
          references: lienRefs,
        }
      : {
          value: false,
          summary:
            t?.has_liens === false
              ? 'The title shows no active liens.'
              : 'No lien is recorded in the reconciled title.',
          references: lienRefs,
        };

  return {
    computed_at: new Date(entry.last_modified).toISOString(),
    source: 'reconcile',
    borrower_on_title: onTitle,
    borrower_signature_only_needed_for_title: signature,
    has_problematic_brands: brands,
    are_there_active_liens: liens,
  };
}
