/** Validation helpers shared by the service, the merger and plugins. */
import type { z } from 'zod';
import { TitledError } from '../errors.js';

/** zod issues as one readable line: `account_data.vehicle.year: expected number, received string`. */
export function describeZodError(e: z.ZodError, prefix = ''): string {
  return e.issues
    .slice(0, 10)
    .map((i) => `${[prefix, ...i.path.map(String)].filter(Boolean).join('.') || '(body)'}: ${i.message}`)
    .join('; ');
}

/** Parses `value` with `schema`, or throws INVALID_INPUT naming the members that failed. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, prefix = ''): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new TitledError('INVALID_INPUT', describeZodError(r.error, prefix));
  return r.data;
}
