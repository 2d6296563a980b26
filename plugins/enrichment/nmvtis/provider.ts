/**
 * The NMVTIS provider interface.
 */
import type { EnrichmentProvider } from '../common/provider.js';

/**
 * A provider of NMVTIS vehicle history (the National Motor Vehicle Title
 * Information System, reached through an approved data provider).
 *
 * Given a VIN (and the state titled knows of, optionally), it answers the
 * vehicle's title chain as NMVTIS has it: the current title (issuing state,
 * number, issuance date, brands with their NMVTIS codes, odometer reading
 * and its brand) and the earlier titles in `vehicle.title.previous_title`,
 * plus the owner names the provider is allowed to return. The request
 * carries the client's `dppa_exemption` when one was given.
 *
 * NMVTIS data providers are down for maintenance daily 06:00-07:00 UTC and
 * Sundays 06:00-10:00 UTC: answer `unavailable` then, never `error`. The
 * nmvtis stage runs before the public and private pulls and supplies them
 * the issuing state when the client gave none.
 *
 * Built-in implementations: `providers/sandbox.ts` (deterministic by VIN,
 * docs/sandbox.md) and `providers/http.ts` (a gateway, docs/providers.md).
 * Select one with config `providers.nmvtis.provider`.
 *
 * @example
 * ```ts
 * class VendorNmvtis implements NmvtisProvider {
 *   readonly source = 'nmvtis';
 *   readonly kind = 'vendor-x';
 *   async fetch(req: EnrichmentRequest, ctx: CallContext): Promise<EnrichmentOutcome> {
 *     const r = await vendor.history(req.vin, { exemption: req.dppa_exemption, signal: ctx.signal });
 *     if (r.status === 'NO_RECORD') return { outcome: 'not_found', txn_id: r.txn };
 *     return {
 *       outcome: 'found', txn_id: r.txn, report_pdf: r.pdf,
 *       record: { vehicle: { vin: req.vin, title: { issuing_state: r.state, number: r.titleNo, issuance_date: r.issued, previous_title: r.history } } },
 *     };
 *   }
 * }
 * ```
 */
export interface NmvtisProvider extends EnrichmentProvider {
  readonly source: 'nmvtis';
}
