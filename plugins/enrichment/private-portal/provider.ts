/**
 * The private DMV provider interfaces: the state's title record and the DMV portal.
 */
import type { EnrichmentProvider } from '../common/provider.js';

/**
 * A provider of the state DMV's title record (`state_*` fields): the
 * official record a lender obtains under a DPPA permissible use, with the
 * owners (names and addresses), active liens and lienholders, title chain,
 * brands, odometer and registration. The request carries the client's
 * `dppa_exemption` when one was given, and `req.state` (the issuing state)
 * always. Answer with a transaction id and, ideally, the state's own report
 * as `report_pdf` (titled renders one otherwise).
 *
 * Built-in implementations: `providers/sandbox.ts` and `providers/http.ts`,
 * chosen by `providers.state.provider`.
 *
 * @example
 * ```ts
 * class StateRecords implements StateRecordProvider {
 *   readonly source = 'state';
 *   readonly kind = 'state-records';
 *   async fetch(req: EnrichmentRequest, ctx: CallContext): Promise<EnrichmentOutcome> {
 *     const rec = await records.request(req.state!, req.vin, { dppa: req.dppa_exemption, signal: ctx.signal });
 *     return rec ? { outcome: 'found', txn_id: rec.id, record: rec.accountData, report_pdf: rec.pdf } : { outcome: 'not_found' };
 *   }
 * }
 * ```
 */
export interface StateRecordProvider extends EnrichmentProvider {
  readonly source: 'state';
}

/**
 * A provider of the private DMV portal (`portal_*` fields): the page a
 * lender's portal account shows for the VIN, as structured data plus a
 * screenshot (`screenshot_png`; titled draws one from the record when
 * absent). Same request as the state record (issuing state, DPPA exemption).
 *
 * Built-in implementations: `providers/sandbox.ts` and `providers/http.ts`,
 * chosen by `providers.portal.provider`.
 *
 * @example
 * ```ts
 * class PortalRobot implements PortalProvider {
 *   readonly source = 'portal';
 *   readonly kind = 'portal-robot';
 *   async fetch(req: EnrichmentRequest, ctx: CallContext): Promise<EnrichmentOutcome> {
 *     const page = await robot.lookup(req.state!, req.vin, { signal: ctx.signal });
 *     if (page.maintenance) return { outcome: 'unavailable', message: 'portal closed' };
 *     return { outcome: 'found', txn_id: page.session, record: page.data, screenshot_png: page.png };
 *   }
 * }
 * ```
 */
export interface PortalProvider extends EnrichmentProvider {
  readonly source: 'portal';
}
