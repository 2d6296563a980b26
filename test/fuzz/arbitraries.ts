/**
 * fast-check arbitraries for the HTTP fuzzer: values built from the zod
 * schemas of core/model/schemas.ts (so "valid" follows the schemas as they
 * change), and the malformed variants a client or a probe sends.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import { computeCheckDigit } from '../../core/index.js';

type Any = z.ZodType;
interface Def {
  type: string;
  innerType?: Any;
  element?: Any;
  out?: Any;
  shape?: Record<string, Any>;
  entries?: Record<string, string>;
  valueType?: Any;
}
const defOf = (s: Any) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Strings for members whose schema holds a pattern the generic string arbitrary would almost never meet. */
const BY_KEY: Record<string, fc.Arbitrary<unknown>> = {
  zip: fc.constantFrom('78701', '94105-1234', '100011234'),
  vin: fc.constant(undefined), // set per body by validVin, so a body never collides with another entry's VIN by chance
};

const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'Jane Q. Borrower',
      "O'Brien",
      '東京',
      '\u0000',
      '\ud800',
      '<script>',
      '../../etc/passwd',
      '%00',
    ),
  },
);

/** A value the schema accepts (nullish members are often left out). */
export function fromSchema(schema: Any, key = '', depth = 0): fc.Arbitrary<unknown> {
  const d = defOf(schema);
  switch (d.type) {
    case 'optional':
    case 'nullable':
      return fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constant(null) },
        { weight: 4, arbitrary: fromSchema(d.innerType!, key, depth) },
      );
    case 'object': {
      if (depth > 4) return fc.constant({});
      const shape = d.shape!;
      const members = Object.fromEntries(
        Object.entries(shape).map(([k, v]) => [k, BY_KEY[k] ?? fromSchema(v, k, depth + 1)]),
      );
      return fc
        .record(members, { requiredKeys: [] })
        .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
    }
    case 'array':
      return depth > 4 ? fc.constant([]) : fc.array(fromSchema(d.element!, key, depth + 1), { maxLength: 2 });
    case 'string': {
      const s = schema as unknown as { minLength: number | null; maxLength: number | null };
      return text.filter((x) => x.length >= (s.minLength ?? 0) && x.length <= (s.maxLength ?? Infinity));
    }
    case 'number': {
      const n = schema as unknown as { minValue: number | null; maxValue: number | null; isInt: boolean };
      const min = Math.max(n.minValue ?? -1e9, -1e12);
      const max = Math.min(n.maxValue ?? 1e9, 1e12);
      return n.isInt
        ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
        : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(d.entries!));
    case 'pipe':
      return fromSchema(d.out!, key, depth);
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    default: // unknown, any
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const VIN_ALPHABET = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
/** A VIN with a correct check digit. */
export const validVin = fc.array(fc.constantFrom(...VIN_ALPHABET), { minLength: 17, maxLength: 17 }).map((chars) => {
  chars[8] = '0';
  chars[8] = computeCheckDigit(chars.join(''))!;
  return chars.join('');
});

/** JSON values a probe puts where a schema expects something else. */
export const hostile = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    1e308,
    -1e308,
    5e-324,
    -0,
    2 ** 53 + 1,
    -1,
    0,
    1e16,
    'NaN',
    'Infinity',
    '',
    '\u0000',
    'x'.repeat(5000),
    [],
    {},
    [[[[]]]],
    true,
    null,
  ),
  fc.string({ unit: 'binary', maxLength: 64 }),
);

/** Replaces the value at a random path of `v` (objects and arrays) with `replacement`. */
export function replaceAt(v: unknown, path: number[], replacement: unknown): unknown {
  if (!path.length || v === null || typeof v !== 'object') return replacement;
  const [i, ...rest] = path as [number, ...number[]];
  if (Array.isArray(v)) {
    if (!v.length) return [replacement];
    const k = i % v.length;
    return v.map((x, j) => (j === k ? replaceAt(x, rest, replacement) : x));
  }
  const keys = Object.keys(v);
  if (!keys.length) return { x: replacement };
  const k = keys[i % keys.length]!;
  return { ...(v as Record<string, unknown>), [k]: replaceAt((v as Record<string, unknown>)[k], rest, replacement) };
}

/** Ways JSON text goes wrong on the wire. */
export const breakText = (s: string) =>
  fc.oneof(
    fc.nat({ max: Math.max(s.length - 1, 0) }).map((n) => s.slice(0, n)),
    fc
      .tuple(
        fc.nat({ max: s.length }),
        fc.constantFrom('{', '}', '[', ',', '"', ':', '\\', '\u0000', 'NaN', '\ufeff', '1e999'),
      )
      .map(([n, c]) => s.slice(0, n) + c + s.slice(n)),
    fc.integer({ min: 1, max: 3000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
    fc.integer({ min: 50, max: 3000 }).map((n) => `{"account_data":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`),
    fc.constant(`{"account_data":{"vehicle":{"x":[${Array(10_001).fill(0).join(',')}]}}}`),
    fc.constant(JSON.stringify({ account_data: { vehicle: { make: 'x'.repeat(100_001) } } })),
    fc.string({ unit: 'binary', maxLength: 200 }),
  );
