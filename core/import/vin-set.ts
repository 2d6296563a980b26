/**
 * The VINs an import has seen, packed in one typed array: a `Set<string>` of
 * 100,000 VINs is 100,000 strings and a hash table of pointers on V8's heap
 * (about 6 MB that every full GC walks); here a VIN is three 32-bit words in
 * an open-addressing table (12 bytes a slot, about 3 MB at 100,000 VINs,
 * outside the heap).
 *
 * A VIN is 17 characters of a 33-character alphabet (core/vin.ts), so each
 * character is a digit 1..33 in base 34 and six of them fit a 32-bit word
 * (34^6 < 2^32): characters 0-5, 6-11 and 12-16 make the three words. No
 * digit is 0, so no word of a VIN is 0, and a slot whose first word is 0 is
 * empty.
 */
const ALPHABET = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ';
const DIGIT = new Uint8Array(128);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i + 1;
const BASE = 34;

/** Characters [from, to) of `vin` as one word; throws on a character outside the VIN alphabet. */
function word(vin: string, from: number, to: number): number {
  let w = 0;
  for (let i = from; i < to; i++) {
    const d = DIGIT[vin.charCodeAt(i)] ?? 0;
    if (d === 0) throw new RangeError(`not a normalized VIN: ${JSON.stringify(vin)}`);
    w = w * BASE + d;
  }
  return w;
}

/** A set of normalized VINs (checkVin's `vin` of a valid VIN: 17 characters, upper case, no I, O or Q). */
export class VinSet {
  private slots: Uint32Array;
  private mask: number;
  private count = 0;

  constructor(capacity = 1024) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.slots = new Uint32Array(n * 3);
    this.mask = n - 1;
  }

  get size(): number {
    return this.count;
  }

  has(vin: string): boolean {
    const [a, b, c] = VinSet.pack(vin);
    return this.slots[this.find(a, b, c) * 3] !== 0;
  }

  /** Adds `vin`; false when the set had it already. */
  add(vin: string): boolean {
    const [a, b, c] = VinSet.pack(vin);
    const at = this.find(a, b, c) * 3;
    if (this.slots[at] !== 0) return false;
    this.slots[at] = a;
    this.slots[at + 1] = b;
    this.slots[at + 2] = c;
    // at most half full: linear probing stays short
    if (++this.count * 2 > this.mask + 1) this.grow();
    return true;
  }

  private static pack(vin: string): [number, number, number] {
    if (vin.length !== 17) throw new RangeError(`not a normalized VIN: ${JSON.stringify(vin)}`);
    return [word(vin, 0, 6), word(vin, 6, 12), word(vin, 12, 17)];
  }

  /** The slot holding (a, b, c), or the empty slot where it would go. */
  private find(a: number, b: number, c: number): number {
    let h = Math.imul(a ^ Math.imul(b, 0x9e3779b1) ^ Math.imul(c, 0x85ebca6b), 0xc2b2ae35);
    h ^= h >>> 15;
    const s = this.slots;
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const at = i * 3;
      if (s[at] === 0 || (s[at] === a && s[at + 1] === b && s[at + 2] === c)) return i;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    this.mask = this.mask * 2 + 1;
    for (let at = 0; at < old.length; at += 3) {
      if (old[at] === 0) continue;
      const to = this.find(old[at]!, old[at + 1]!, old[at + 2]!) * 3;
      this.slots.set(old.subarray(at, at + 3), to);
    }
  }
}
