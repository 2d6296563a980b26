/**
 * The enrichment provider contract: one interface for every outside source
 * of vehicle records (NMVTIS, state DMV, DMV portal, public DMV websites)
 * and for insurance. A source plugin (plugins/nmvtis/, ...) declares its own
 * interface on top of this one and ships a `sandbox` and an `http`
 * implementation in its `providers/` folder.
 */
import type { AccountData, PersonName } from '../../../core/plugin-api.js';

/** Sources of title records; each has a found status (`<source>_found_status`) on the entry. */
const RECORD_SOURCES = ['nmvtis', 'state', 'portal', 'public'] as const;
export type RecordSource = (typeof RECORD_SOURCES)[number];
/** Every source a provider can serve. */
export type EnrichmentSource = RecordSource | 'insurance';

/** A person as sent to a provider: names only (no SSN, date of birth or licence number ever leaves titled). */
export type { PersonName };

/** What titled asks a provider for. */
export interface EnrichmentRequest {
  source: EnrichmentSource;
  /** The normalized 17-character VIN. */
  vin: string;
  /**
   * Two-letter state whose records are asked for: the title's issuing state
   * (for `state`, `portal`, `public`, required), or the state titled knows
   * of (NMVTIS is national: optional there).
   */
  state?: string;
  /** Owners and borrowers titled knows of (names only), first borrower first. */
  owners: PersonName[];
  /** The DPPA exemption the client gave; sent to `nmvtis`, `state` and `portal` only. */
  dppa_exemption?: string;
  /** The organization's identifier (an entry's `website`). */
  organization: string;
  entry_id: string;
  /** Insurance only: the policy the lender knows of. */
  policy?: { provider_name?: string; provider_naic?: string; policy_number?: string };
}

/** Insurance coverage a search found (insurance source only). */
export interface InsuranceCoverage {
  status: 'ACTIVE' | 'LAPSED' | 'CANCELLED';
  provider_name?: string;
  provider_naic?: string;
  policy_number?: string;
  effective_date?: string;
  expiration_date?: string;
  /** When coverage ended, for LAPSED and CANCELLED. */
  lapse_date?: string;
}

/** The record was found. */
interface FoundOutcome {
  outcome: 'found';
  /** The source's transaction (search) id. */
  txn_id: string;
  /** What the source knows, in AccountData shape (vehicle, vehicle.title, owners, liens, ...). */
  record: AccountData;
  /** The source's own report (PDF bytes); titled renders one from `record` when absent. */
  report_pdf?: Uint8Array;
  /** A screenshot of the portal page (PNG bytes; `portal` source); titled renders one when absent. */
  screenshot_png?: Uint8Array;
  /** Insurance only. */
  coverage?: InsuranceCoverage;
  /** The provider's raw answer, kept for audit (insurance: `insurance_search_raw_data`). */
  raw?: Record<string, unknown>;
}

/** What a pull can end in. `error` is a service failure after the provider's own retries; `unavailable` is the source being down (maintenance). */
export type EnrichmentOutcome =
  | FoundOutcome
  | { outcome: 'not_found'; txn_id?: string; message?: string; raw?: Record<string, unknown> }
  | { outcome: 'error'; message: string; txn_id?: string }
  | { outcome: 'unavailable'; message: string; retry_after?: string };

/** Per-call context: the time (injected, so sandbox answers never depend on the wall clock in tests) and cancellation. */
export interface CallContext {
  now: Date;
  signal?: AbortSignal;
}

/**
 * A provider of one enrichment source.
 *
 * Implementations never throw for an outcome of the source: a record that
 * does not exist is `not_found`, a failing service is `error` (after the
 * provider's own retries with backoff), a source that is down is
 * `unavailable`. They throw only when `ctx.signal` aborts (the stage is
 * stopping), so the job is retried as a whole.
 *
 * Options come from config `providers.<source>` and are validated by the
 * provider's constructor (zod): `{ "provider": "sandbox" }` (the default) or
 * `{ "provider": "http", "url": "https://gateway.example/nmvtis", ... }`
 * (docs/providers.md), or `{ "provider": "none" }` to switch a source off
 * (its pulls are `skipped`).
 *
 * @example
 * ```ts
 * export class MyNmvtisProvider implements NmvtisProvider {
 *   readonly source = 'nmvtis';
 *   readonly kind = 'my-gateway';
 *   async fetch(req: EnrichmentRequest, ctx: CallContext): Promise<EnrichmentOutcome> {
 *     const hit = await myGateway.lookup(req.vin, { signal: ctx.signal });
 *     if (!hit) return { outcome: 'not_found' };
 *     return { outcome: 'found', txn_id: hit.id, record: { vehicle: { vin: req.vin, title: hit.title } } };
 *   }
 * }
 * ```
 */
export interface EnrichmentProvider {
  readonly source: EnrichmentSource;
  /** `sandbox`, `http`, or a custom provider's name (recorded with each pull). */
  readonly kind: string;
  /** Whether this provider serves `state` (two-letter); false makes the pull `skipped`. Absent = every state. */
  covers?(state: string): boolean;
  fetch(req: EnrichmentRequest, ctx: CallContext): Promise<EnrichmentOutcome>;
  /** Releases sockets and queues (engine stop). */
  close?(): void;
}

/** The clock enrichment uses; tests register one in the engine's container under `CLOCK`. */
export interface Clock {
  now(): Date;
}
export const CLOCK = Symbol.for('titled.enrichment.Clock');
export const systemClock: Clock = { now: () => new Date() };

/** The entry members of a record source (spec: Enrichment fields). */
export const SOURCE_FIELDS: Record<
  RecordSource,
  { status: string; pull: string; txn?: string; report?: string; screenshot?: string; lastFetch: string }
> = {
  nmvtis: {
    status: 'nmvtis_found_status',
    pull: 'nmvtis_pull',
    txn: 'nmvtis_txn_id',
    report: 'nmvtis_report_pdf',
    lastFetch: 'nmvtis_last_fetch',
  },
  state: {
    status: 'state_found_status',
    pull: 'state_pull',
    txn: 'state_txn_id',
    report: 'state_report_pdf',
    lastFetch: 'state_last_fetch',
  },
  portal: {
    status: 'portal_found_status',
    pull: 'portal_pull',
    screenshot: 'portal_screenshot',
    lastFetch: 'portal_last_fetch',
  },
  public: {
    status: 'public_found_status',
    pull: 'public_pull',
    txn: 'public_txn_id',
    report: 'public_report_pdf',
    lastFetch: 'public_last_fetch',
  },
};

/** Human names of the sources (reports, summaries). */
export const SOURCE_TITLES: Record<EnrichmentSource, string> = {
  nmvtis: 'NMVTIS vehicle history',
  state: 'State DMV title record',
  portal: 'DMV portal record',
  public: 'Public DMV title check',
  insurance: 'Insurance verification',
};
