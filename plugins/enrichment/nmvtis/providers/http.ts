import { HttpEnrichmentProvider, type HttpProviderDeps } from '../../common/http-provider.js';
import type { CallContext, EnrichmentOutcome, EnrichmentRequest } from '../../common/provider.js';
import type { NmvtisProvider } from '../provider.js';
import { inNmvtisMaintenance, MAINTENANCE_MESSAGE } from './sandbox.js';

/** NMVTIS through a gateway; a failure inside a maintenance window is reported as `unavailable`, not `error`. */
export class NmvtisHttpProvider extends HttpEnrichmentProvider implements NmvtisProvider {
  declare readonly source: 'nmvtis';

  constructor(options: unknown, deps: HttpProviderDeps) {
    super('nmvtis', options, deps);
  }

  override async fetch(req: EnrichmentRequest, ctx: CallContext): Promise<EnrichmentOutcome> {
    const out = await super.fetch(req, ctx);
    if (out.outcome === 'error' && inNmvtisMaintenance(ctx.now))
      return { outcome: 'unavailable', message: `${MAINTENANCE_MESSAGE}; the gateway said: ${out.message}` };
    return out;
  }
}
