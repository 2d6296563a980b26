/**
 * GET /title as the title service answers it: the query it takes, the filter
 * it becomes, and the signed `nextToken` that carries the page cursor.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Principal } from '../auth/authenticator.js';
import { TitledError } from '../errors.js';
import type { TitleEntry } from '../model/entry.js';
import { parseInput } from '../model/validate.js';
import { ACCOUNT_STATUSES, JOB_STATUSES } from '../status.js';
import type { EntryFilter, EntryStore, PageCursor } from '../store/entry-store.js';
import { checkVin } from '../vin.js';

export interface ListResult {
  items: unknown[];
  count: number;
  nextToken: string | null;
  hasMore: boolean;
  stateMap?: Record<string, number>;
}

const ListQuerySchema = z.object({
  vin: z.string().optional(),
  groupId: z.string().optional(),
  state: z
    .string()
    .length(2)
    .transform((s) => s.toUpperCase())
    .optional(),
  job_status: z.enum(JOB_STATUSES).optional(),
  account_status: z.enum(ACCOUNT_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  nextToken: z.string().max(500).optional(),
  stateMap: z.enum(['true', 'false']).optional(),
});

/** `nextToken`: the cursor and an HMAC over it and the organization, so a client cannot forge or reuse one elsewhere. */
function encodeCursor(key: Uint8Array, orgId: string, c: PageCursor): string {
  const body = Buffer.from(JSON.stringify(c)).toString('base64url');
  return `${body}.${cursorMac(key, orgId, body)}`;
}

function decodeCursor(key: Uint8Array, orgId: string, token: string): PageCursor {
  const bad = () => new TitledError('INVALID_INPUT', 'nextToken is not a token this service issued');
  const parts = token.split('.');
  if (parts.length !== 2) throw bad();
  const [body, mac] = parts as [string, string];
  const want = Buffer.from(cursorMac(key, orgId, body));
  const got = Buffer.from(mac);
  if (want.length !== got.length || !timingSafeEqual(want, got)) throw bad();
  try {
    const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as PageCursor;
    if (typeof c.createdAt !== 'number' || typeof c.id !== 'string') throw new Error('shape');
    return c;
  } catch {
    throw bad();
  }
}

function cursorMac(key: Uint8Array, orgId: string, body: string): string {
  return createHmac('sha256', key).update(`${orgId}\n${body}`).digest('base64url');
}

/**
 * GET /title: a page of the principal's entries (each through `present`), or with `stateMap=true` the count
 * per state. `cursorKey` is the HMAC key of `nextToken`.
 */
export async function listTitles(
  store: EntryStore,
  cursorKey: Uint8Array,
  p: Principal,
  query: Record<string, unknown>,
  present: (e: TitleEntry) => TitleEntry,
): Promise<ListResult> {
  const q = parseInput(ListQuerySchema, query);
  const filter: EntryFilter = {
    vin: q.vin ? checkVin(q.vin).vin : undefined,
    groupId: q.groupId,
    state: q.state,
    job_status: q.job_status,
    account_status: q.account_status,
    visibleGroups: p.groups,
  };
  if (q.stateMap === 'true') {
    const map = await store.stateMap(p.org.id, filter);
    const items = Object.entries(map).map(([state, count]) => ({ state, count }));
    return { items, count: items.reduce((n, i) => n + i.count, 0), nextToken: null, hasMore: false, stateMap: map };
  }
  const after = q.nextToken ? decodeCursor(cursorKey, p.org.id, q.nextToken) : undefined;
  const page = await store.list(p.org.id, filter, q.limit, after);
  return {
    items: page.entries.map((e) => present(e)),
    count: page.entries.length,
    nextToken: page.next ? encodeCursor(cursorKey, p.org.id, page.next) : null,
    hasMore: !!page.next,
  };
}
