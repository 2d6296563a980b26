/**
 * The merge of account data is not validated again at the checkpoint
 * (core/model/account-book.ts `commit`): every record is validated as it comes
 * in, and a merge of records that fit AccountDataSchema fits it too. These
 * tests hold that up: the schema keeps the shape that makes it true (every
 * member optional, no check of one member against another), and merges of
 * random records that fit are checked against the schema.
 */
import { expect } from 'chai';
import type { z } from 'zod';
import { mergeAccountData, PRECEDENCE, type AccountSource } from '../../core/model/account.js';
import { AccountDataSchema, type AccountData } from '../../core/model/schemas.js';
import { prng } from '../support/fixtures.js';

type Def = {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
  entries?: Record<string, string>;
  checks?: unknown[];
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Every object schema inside `s`, with its path. */
function objectsOf(s: z.ZodType, path = 'account_data', out: [string, z.ZodType][] = []): [string, z.ZodType][] {
  const d = defOf(s);
  if (d.type === 'object') {
    out.push([path, s]);
    for (const [k, m] of Object.entries(d.shape!)) objectsOf(m, `${path}.${k}`, out);
  } else if (d.innerType) objectsOf(d.innerType, path, out);
  else if (d.type === 'array') objectsOf(d.element!, `${path}[]`, out);
  else if (d.type === 'pipe') {
    objectsOf(d.in!, path, out);
    objectsOf(d.out!, path, out);
  } else if (d.type === 'record') objectsOf(d.valueType!, `${path}{}`, out);
  return out;
}

// scalars a leaf may take (each leaf takes those its schema accepts); few, so sources agree and disagree
const POOL: unknown[] = ['A', 'B', 'tx', 'CA', '78701', '12345-6789', '2020-01-02', '2023-05-06', 'Jane Doe', 'J. Roe'];
POOL.push(0, 3, 1999, 2021, 25_000, true, false);
const UNKNOWN_VALUES: unknown[] = ['x', 7, [{ number: 'P1', issuance_date: '2019-01-01' }], { number: 'P2' }];

/** A random value that fits `s`, members of objects present with probability `p`. */
function sample(s: z.ZodType, r: () => number, depth = 0): unknown {
  const d = defOf(s);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  switch (d.type) {
    case 'optional':
      return sample(d.innerType!, r, depth);
    case 'nullable':
      return r() < 0.08 ? null : sample(d.innerType!, r, depth);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, m] of Object.entries(d.shape!)) {
        if (r() < (depth === 0 ? 0.8 : 0.35) && depth < 5) {
          const v = sample(m, r, depth + 1);
          if (v !== undefined) out[k] = v;
        }
      }
      if (r() < 0.05) out.extra_member = pick(UNKNOWN_VALUES);
      return out;
    }
    case 'array':
      return Array.from({ length: Math.floor(r() * 3) }, () => sample(d.element!, r, depth + 1));
    case 'enum':
      return pick(Object.values(d.entries!));
    case 'unknown':
      return pick(UNKNOWN_VALUES);
    case 'record':
      return r() < 0.5 ? {} : { note: 'x' };
    default: {
      const fits = POOL.filter((v) => s.safeParse(v).success);
      return fits.length ? pick(fits) : undefined;
    }
  }
}

/** A record as `contribute` keeps it: parsed by the schema (state codes upper-cased). */
function record(r: () => number, vins: string[]): AccountData {
  const raw = sample(AccountDataSchema, r) as Record<string, { vin?: string } | undefined>;
  if (raw.vehicle && typeof raw.vehicle === 'object' && r() < 0.7) raw.vehicle.vin = vins[Math.floor(r() * 2)];
  const parsed = AccountDataSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`the sampler made a record that does not fit: ${parsed.error.message}`);
  return parsed.data;
}

function sources(r: () => number): AccountSource[] {
  const vins = ['1HGCV1F34LA000001', '1HGCV1F34LA000002'];
  const out: AccountSource[] = [];
  if (r() < 0.8) out.push({ id: 'client', kind: 'client', record: record(r, vins) });
  const docTypes = PRECEDENCE.filter((p) => p.kind === 'document').map((p) => p.type!);
  for (let i = Math.floor(r() * 4); i > 0; i--) {
    const type = docTypes[Math.floor(r() * docTypes.length)]!;
    out.push({
      id: `document:d${i}`,
      kind: 'document',
      type,
      ref_id: `k${i}`,
      at: `2024-0${i}-01`,
      record: record(r, vins),
    });
  }
  for (const type of ['nmvtis', 'state', 'portal', 'public']) {
    if (r() < 0.5) continue;
    const vin = r() < 0.8 ? vins[0] : vins[1];
    out.push({ id: `pull:${type}`, kind: 'pull', type, ref_id: `${type}:1`, vin, record: record(r, vins) });
  }
  if (r() < 0.5) out.push({ id: 'vin_decode', kind: 'vin_decode', vin: vins[0], record: record(r, vins) });
  if (r() < 0.5) out.push({ id: 'insurance', kind: 'insurance', vin: vins[0], record: record(r, vins) });
  if (r() < 0.3) out.push({ id: 'plugin:extra', kind: 'plugin', record: record(r, vins) });
  return out;
}

describe('account data: a merge of records that fit the schema fits it', () => {
  it('every member of every object of AccountDataSchema is optional, and no object checks one member against another', () => {
    const objects = objectsOf(AccountDataSchema);
    expect(objects.length).to.be.greaterThan(15);
    for (const [path, s] of objects) {
      const d = defOf(s);
      expect(d.checks ?? [], `${path} has a check over its members`).to.have.length(0);
      for (const [k, m] of Object.entries(d.shape!)) {
        expect(m.safeParse(undefined).success, `${path}.${k} is required`).to.equal(true);
      }
    }
  });

  it('the shape check fails on a schema with a required member or a refinement', async () => {
    const { z } = await import('zod');
    const required = z.looseObject({ a: z.looseObject({ b: z.string() }).nullish() });
    const refined = z.looseObject({ a: z.string().nullish() }).refine((o) => !!o.a);
    const bad = (s: z.ZodType) =>
      objectsOf(s).some(
        ([, o]) =>
          (defOf(o).checks ?? []).length > 0 ||
          Object.values(defOf(o).shape!).some((m) => !m.safeParse(undefined).success),
      );
    expect(bad(required)).to.equal(true);
    expect(bad(refined)).to.equal(true);
    expect(bad(AccountDataSchema)).to.equal(false);
  });

  it('merges of random records that fit (client, documents, pulls, VIN decode, insurance, plugins) fit', () => {
    let nonEmpty = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const r = prng(seed);
      const list = sources(r);
      const out = mergeAccountData(list);
      const check = AccountDataSchema.safeParse(out.account_data);
      expect(check.success, `seed ${seed}: ${check.success ? '' : check.error.message}`).to.equal(true);
      if (Object.keys(out.provenance).length) nonEmpty++;
    }
    // the merges took values from sources other than the client's (not only the client's record copied)
    expect(nonEmpty).to.be.greaterThan(200);
  });
});
