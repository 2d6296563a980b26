/**
 * The public DMV provider interface.
 */
import type { EnrichmentProvider } from '../common/provider.js';

/**
 * A provider of public DMV data: the title and registration lookups a
 * state's DMV website offers anyone (title status, brands, odometer, whether
 * a lien is recorded, registration status and expiry). It never carries
 * personal information (the DPPA keeps owner names off public sites), so it
 * gets no `dppa_exemption`.
 *
 * `req.state` is always set: the title's issuing state, from the client or
 * from the NMVTIS pull of the same job; without one the pull is `skipped`.
 * A provider that serves only some states implements `covers(state)`.
 *
 * Built-in implementations: `providers/sandbox.ts` (docs/sandbox.md) and
 * `providers/http.ts` (docs/providers.md), chosen by
 * `providers.public.provider`.
 *
 * @example
 * ```ts
 * class TexasTitleCheck implements PublicDmvProvider {
 *   readonly source = 'public';
 *   readonly kind = 'tx-title-check';
 *   covers(state: string) { return state === 'TX'; }
 *   async fetch(req: EnrichmentRequest, ctx: CallContext): Promise<EnrichmentOutcome> {
 *     const page = await txdmv.titleCheck(req.vin, { signal: ctx.signal });
 *     if (!page) return { outcome: 'not_found' };
 *     return { outcome: 'found', txn_id: page.ref, record: { vehicle: { vin: req.vin, title: { issuing_state: 'TX', has_liens: page.lien } } } };
 *   }
 * }
 * ```
 */
export interface PublicDmvProvider extends EnrichmentProvider {
  readonly source: 'public';
}
