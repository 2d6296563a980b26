/**
 * The insurance provider interface.
 */
import type { EnrichmentProvider } from '../common/provider.js';

/**
 * A provider of insurance verification: given the VIN, the owners' names
 * and the policy the lender knows of (`req.policy`, from the first
 * borrower's or the vehicle's `insurance`), it answers the coverage in force
 * (`coverage`: status ACTIVE, LAPSED or CANCELLED, insurer, NAIC code,
 * policy number, term and, when coverage ended, `lapse_date`) and its raw
 * answer (`raw`, stored as `insurance_search_raw_data`).
 *
 * Lapsed or cancelled coverage puts an `INSURANCE` hold on
 * `account_data.vehicle.reg_title_holds`; active coverage clears it.
 *
 * Built-in implementations: `providers/sandbox.ts` (docs/sandbox.md) and
 * `providers/http.ts` (docs/providers.md), chosen by
 * `providers.insurance.provider`.
 *
 * @example
 * ```ts
 * class InsurerNetwork implements InsuranceProvider {
 *   readonly source = 'insurance';
 *   readonly kind = 'insurer-network';
 *   async fetch(req: EnrichmentRequest, ctx: CallContext): Promise<EnrichmentOutcome> {
 *     const hit = await network.verify({ vin: req.vin, policy: req.policy?.policy_number }, { signal: ctx.signal });
 *     if (!hit) return { outcome: 'not_found' };
 *     return { outcome: 'found', txn_id: hit.id, record: {}, coverage: { status: hit.active ? 'ACTIVE' : 'LAPSED', provider_name: hit.carrier, lapse_date: hit.endedOn }, raw: hit };
 *   }
 * }
 * ```
 */
export interface InsuranceProvider extends EnrichmentProvider {
  readonly source: 'insurance';
}
