/**
 * What core carries along an async path, in one AsyncLocalStorage: the
 * request being served (its `reqId`, on every log line written for it) and
 * the SQLite transaction the path runs in (core/db/database.ts). On Node 20
 * every enabled AsyncLocalStorage costs every promise created a hook call,
 * so core keeps one instance for both (two cost about 10 us per GET).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface Carried {
  reqId?: string;
  /** The SQLite transaction (core/db/database.ts decides what it holds). */
  tx?: unknown;
}

const carried = new AsyncLocalStorage<Carried>();

/** Runs `fn` as part of request `reqId` (log lines written meanwhile carry it). */
export function runInRequest<T>(reqId: string, fn: () => T): T {
  return carried.run({ ...carried.getStore(), reqId }, fn);
}

/** The request being served on this async path, if any. */
export function currentRequestId(): string | undefined {
  return carried.getStore()?.reqId;
}

/** Runs `fn` outside the current request: work it starts is not that request's (no reqId on its log lines). */
export function outsideRequest<T>(fn: () => T): T {
  const s = carried.getStore();
  return s?.reqId === undefined ? fn() : carried.run({ tx: s.tx }, fn);
}

/** Runs `fn` inside transaction mark `tx`. */
export function runInTransaction<T>(tx: unknown, fn: () => T): T {
  return carried.run({ ...carried.getStore(), tx }, fn);
}

/** The transaction mark of this async path, if any. */
export function currentTransaction(): unknown {
  return carried.getStore()?.tx;
}
