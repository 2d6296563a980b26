/**
 * The `sandbox` provider of every source (docs/sandbox.md): deterministic by
 * VIN. A VIN whose last character is 0 is `not_found`, 8 `error`, 9
 * `unavailable`; any other VIN is `found` with the sandbox history of the VIN
 * (records.ts). A source plugin subclasses it to add what is particular to
 * the source (NMVTIS: maintenance windows).
 */
import { SandboxOptionsSchema, type SandboxOptions } from '../options.js';
import type {
  CallContext,
  EnrichmentOutcome,
  EnrichmentProvider,
  EnrichmentRequest,
  EnrichmentSource,
} from '../provider.js';
import { sandboxCoverage, sandboxFate, sandboxRecord, sandboxTxnId } from './records.js';

export class SandboxEnrichmentProvider implements EnrichmentProvider {
  readonly kind = 'sandbox';
  readonly options: SandboxOptions;

  constructor(
    readonly source: EnrichmentSource,
    options: unknown = { provider: 'sandbox' },
  ) {
    this.options = SandboxOptionsSchema.parse(options);
  }

  /** Why the source is down at `now`, or null (no downtime by default). */
  protected downtime(_now: Date): string | null {
    return null;
  }

  async fetch(req: EnrichmentRequest, ctx: CallContext): Promise<EnrichmentOutcome> {
    const down = this.downtime(ctx.now);
    if (down) return { outcome: 'unavailable', message: down };
    const txn_id = sandboxTxnId(this.source, req.vin, ctx.now);
    switch (sandboxFate(req.vin)) {
      case 'not_found':
        return {
          outcome: 'not_found',
          txn_id,
          message: 'sandbox: no record for this VIN (last character 0)',
          raw: { provider: 'sandbox', vin: req.vin, hits: 0 },
        };
      case 'error':
        return { outcome: 'error', message: 'sandbox: simulated service failure (VIN ends in 8)' };
      case 'unavailable':
        return { outcome: 'unavailable', message: 'sandbox: simulated source outage (VIN ends in 9)' };
      case 'found':
        break;
    }
    if (this.source === 'insurance') {
      const coverage = sandboxCoverage(req, ctx.now);
      return {
        outcome: 'found',
        txn_id,
        coverage,
        record: {
          vehicle: {
            vin: req.vin,
            insurance: {
              provider_name: coverage.provider_name,
              provider_naic: coverage.provider_naic,
              policy_number: coverage.policy_number,
            },
          },
        },
        raw: { provider: 'sandbox', txn_id, vin: req.vin, searched_policy: req.policy ?? null, hits: 1, coverage },
      };
    }
    return { outcome: 'found', txn_id, record: sandboxRecord(this.source, req, ctx.now) };
  }
}
