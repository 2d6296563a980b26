/** Reads mapped values out of FormValues by dotted path (the tester uses the same functions to check fills). */
import type { FieldMapping, FlagPath, FormValues, TextPath } from '../../states/types.js';
import { sanitize } from './pdf/fonts.js';

function at(values: FormValues, path: string): unknown {
  let v: unknown = values;
  for (const k of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** Whether a path names a member of FormValues (the tester flags mappings that do not). */
export function pathExists(values: FormValues, path: string): boolean {
  return at(values, path) !== undefined;
}

export function resolveFlag(values: FormValues, when: FlagPath | readonly FlagPath[]): boolean {
  return (typeof when === 'string' ? [when] : when).every((p) => at(values, p) === true);
}

/** The text at a path (as is: the six-box odometer keeps its leading spaces), or several paths' texts joined, empty ones skipped. */
export function resolveText(values: FormValues, value: TextPath | readonly TextPath[], join = ' '): string {
  if (typeof value === 'string') return String(at(values, value) ?? '');
  return value
    .map((p) => String(at(values, p) ?? '').trim())
    .filter(Boolean)
    .join(join);
}

/** The text a text or chars mapping puts in the form (empty when its `if` flag is false), WinAnsi-safe. */
type TextMapping = Extract<FieldMapping, { field: string } | { chars: readonly string[] }>;

export function mappedText(values: FormValues, m: TextMapping): string {
  if (m.if && !resolveFlag(values, m.if)) return '';
  const text = sanitize('field' in m ? resolveText(values, m.value, m.join) : resolveText(values, m.value));
  return m.upper ? text.toUpperCase() : text;
}
