import { HttpEnrichmentProvider, type HttpProviderDeps } from '../../common/http-provider.js';
import type { PortalProvider, StateRecordProvider } from '../provider.js';

/** The state record through a gateway (docs/providers.md). */
export class StateRecordHttpProvider extends HttpEnrichmentProvider implements StateRecordProvider {
  declare readonly source: 'state';

  constructor(options: unknown, deps: HttpProviderDeps) {
    super('state', options, deps);
  }
}

/** The DMV portal through a gateway (docs/providers.md). */
export class PortalHttpProvider extends HttpEnrichmentProvider implements PortalProvider {
  declare readonly source: 'portal';

  constructor(options: unknown, deps: HttpProviderDeps) {
    super('portal', options, deps);
  }
}
