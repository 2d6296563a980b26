/** Key rotation (`titled keys rotate-master`, `titled keys rotate-data`; docs/security.md). */
import type { Database } from '../db/database.js';
import type { PiiCodec } from './pii.js';

/** Something that keeps sealed JSON of an organization and can seal it again with the active data key. */
export interface Resealable {
  reseal(orgId: string): Promise<number>;
}

export interface KeyRotation {
  /** Makes a new master key current and wraps every data key with it; then forgets the old master keys. */
  rotateMaster(): Promise<{ masterKeyId: string; dataKeys: number }>;
  /** Makes a new data key active for the organization and seals its stored PII again with it. */
  rotateData(orgId: string): Promise<{ version: number; resealed: number }>;
}

export function keyRotation(pii: PiiCodec, holders: Resealable[]): KeyRotation {
  return {
    async rotateMaster() {
      const provider = pii.keys.provider;
      const masterKeyId = await provider.rotate();
      // every data key is wrapped with the new master before the old one is forgotten (a crash between: both work)
      const dataKeys = await pii.keys.rewrapAll();
      await provider.retireOthers();
      return { masterKeyId, dataKeys };
    },
    async rotateData(orgId) {
      const { version } = await pii.keys.rotate(orgId);
      let resealed = 0;
      for (const h of holders) resealed += await h.reseal(orgId);
      return { version, resealed };
    },
  };
}

/**
 * Seals again, row by row, a JSON column of an organization's rows (`id` the
 * key; `guard` a column that must not have changed meanwhile, else the row
 * is skipped: its writer sealed it anew).
 */
export async function resealColumn(
  db: Database,
  pii: PiiCodec,
  orgId: string,
  t: { table: string; columns: string[]; guard?: string; id?: string },
): Promise<number> {
  const id = `"${t.id ?? 'id'}"`;
  const k = await pii.keys.active(orgId);
  let after = '';
  let n = 0;
  const cols = t.columns.map((c) => `"${c}"`);
  for (;;) {
    const rows = await db.query<Record<string, string | null>>(
      `SELECT ${id} AS id, ${[...cols, ...(t.guard ? [`"${t.guard}"`] : [])].join(', ')} FROM ${t.table} ` +
        `WHERE "orgId" = ? AND ${id} > ? ORDER BY ${id} LIMIT 200`,
      [orgId, after],
    );
    if (!rows.length) return n;
    for (const r of rows) {
      const values: (string | null)[] = [];
      for (const c of t.columns) {
        const v = r[c];
        values.push(
          v === null || v === undefined ? null : pii.stringifyWith(orgId, k, JSON.parse(await pii.open(orgId, v))),
        );
      }
      const set = cols.map((c) => `${c} = ?`).join(', ');
      const guard = t.guard ? ` AND "${t.guard}" = ?` : '';
      const { affected } = await db.exec(`UPDATE ${t.table} SET ${set} WHERE "orgId" = ? AND ${id} = ?${guard}`, [
        ...values,
        orgId,
        r.id,
        ...(t.guard ? [r[t.guard]] : []),
      ]);
      n += affected;
    }
    after = String(rows[rows.length - 1]!.id);
  }
}
