/**
 * The spec's webhook events: their names, what a profile may subscribe to,
 * and how the outbox's status events become webhook events.
 */
import { ACCOUNT_STATUSES, PHYSICAL_TITLE_STATUSES, type OutboxEvent } from '../../core/plugin-api.js';

export const ACCOUNT_STATUS_WILDCARD = 'title.account_status.*';
const DATA_FOUND = 'title.data.found';
/** Reserved by the spec; a profile may subscribe to it, and it never fires. */
const DATA_NOT_FOUND = 'title.data.not_found';

/** Every event name the service delivers (the spec's Events table, wildcard expanded). */
export const WEBHOOK_EVENTS: readonly string[] = [
  'title.job_status.complete',
  'title.job_status.error',
  DATA_FOUND,
  DATA_NOT_FOUND,
  ...ACCOUNT_STATUSES.map((s) => `title.account_status.${s}`),
  ...PHYSICAL_TITLE_STATUSES.map((s) => `title.physical_title_status.${s}`),
];

/** What a profile may list in its events: every event name, and `title.account_status.*`. */
const SUBSCRIBABLE: ReadonlySet<string> = new Set([...WEBHOOK_EVENTS, ACCOUNT_STATUS_WILDCARD]);

/** Checks and normalizes a subscription list (trimmed, de-duplicated, order kept); throws naming the unknown ones. */
export function parseSubscriptions(events: readonly string[]): string[] {
  const list = [...new Set(events.map((e) => e.trim()).filter(Boolean))];
  if (list.length === 0) throw new Error('at least one event is required');
  const unknown = list.filter((e) => !SUBSCRIBABLE.has(e));
  if (unknown.length)
    throw new Error(`unknown event(s): ${unknown.join(', ')} (known: ${[...SUBSCRIBABLE].join(', ')})`);
  return list;
}

export function subscribes(subscriptions: readonly string[], event: string): boolean {
  if (subscriptions.includes(event)) return true;
  return event.startsWith('title.account_status.') && subscriptions.includes(ACCOUNT_STATUS_WILDCARD);
}

/** `title.<field>.<status>` -> field, status (null when the name is not of that form). */
export function splitStatusEvent(name: string): { field: string; status: string } | null {
  const m = /^title\.([a-z_]+)\.([a-z_]+)$/.exec(name);
  return m ? { field: m[1]!, status: m[2]! } : null;
}

export interface MapContext {
  /** The organization has physical title events switched on (settings.physical_title_events). */
  physicalTitleEvents: boolean;
}

/**
 * The webhook event an outbox event stands for, or null:
 * - `title.job_status.complete|error` as is (other job_status moves are not webhook events);
 * - `title.account_status.<s>` as is;
 * - `title.physical_title_status.<s>` as is, only for organizations that switched them on;
 * - `title.data.found` as is: the enrichment stages write it when a pull's last outcome
 *   about the data (found / not_found; error, unavailable and skipped do not count) was
 *   `not_found` and it is now `found` (plugins/enrichment-common/pull-stage.ts).
 *   Found-status moves themselves are not webhook events; `title.data.not_found` never fires.
 */
export async function toWebhookEvent(e: OutboxEvent, ctx: MapContext): Promise<string | null> {
  if (e.name === DATA_FOUND) return DATA_FOUND;
  const parts = splitStatusEvent(e.name);
  if (!parts) return null;
  const { field, status } = parts;
  if (field === 'job_status') return status === 'complete' || status === 'error' ? e.name : null;
  if (field === 'account_status') return (ACCOUNT_STATUSES as readonly string[]).includes(status) ? e.name : null;
  if (field === 'physical_title_status')
    return ctx.physicalTitleEvents && (PHYSICAL_TITLE_STATUSES as readonly string[]).includes(status) ? e.name : null;
  return null;
}
