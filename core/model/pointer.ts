/** JSON Pointer (RFC 6901) reads and writes on plain JSON objects. */
import { isDeepStrictEqual } from 'node:util';

const PARTS = new Map<string, string[]>();
/** The reference tokens of a pointer (cached: reconciliation reads the same few dozen pointers over and over). */
function parts(pointer: string): string[] {
  let ps = PARTS.get(pointer);
  if (!ps) {
    ps = pointer
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (PARTS.size < 10_000) PARTS.set(pointer, ps);
  }
  return ps;
}
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export function getAt(obj: unknown, pointer: string): unknown {
  const ps = parts(pointer);
  let cur: unknown = obj;
  for (let i = 0; i < ps.length; i++) {
    if (!isObj(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[ps[i]!];
  }
  return cur;
}

/** Sets the value, creating objects on the way. */
export function setAt(obj: Record<string, unknown>, pointer: string, value: unknown): void {
  const ps = parts(pointer);
  let cur: Record<string, unknown> = obj;
  for (const p of ps.slice(0, -1)) {
    if (!isObj(cur[p])) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[ps[ps.length - 1]!] = value;
}

export function deleteAt(obj: unknown, pointer: string): void {
  const ps = parts(pointer);
  let parent: unknown = obj;
  for (let i = 0; i < ps.length - 1; i++) {
    if (!isObj(parent)) return;
    parent = (parent as Record<string, unknown>)[ps[i]!];
  }
  if (isObj(parent)) delete (parent as Record<string, unknown>)[ps[ps.length - 1]!];
}

/** Whether a value is present (not undefined, null or an empty string). */
export const present = (v: unknown) => v !== undefined && v !== null && v !== '';

export const deepEqual = (a: unknown, b: unknown) => isDeepStrictEqual(a, b);

/**
 * A short fingerprint of a JSON value (provenance keeps this, not a copy of
 * the value): a 53-bit hash (cyrb53) of its JSON text and the text's length.
 * Not cryptographic: it only tells "still what enrichment wrote" from "changed".
 */
export function fingerprint(v: unknown): string {
  const text = JSON.stringify(v) ?? 'undefined';
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}.${text.length.toString(36)}`;
}
