import { HttpEnrichmentProvider, type HttpProviderDeps } from '../../common/http-provider.js';
import type { PublicDmvProvider } from '../provider.js';

/** Public DMV data through a gateway (docs/providers.md). */
export class PublicDmvHttpProvider extends HttpEnrichmentProvider implements PublicDmvProvider {
  declare readonly source: 'public';

  constructor(options: unknown, deps: HttpProviderDeps) {
    super('public', options, deps);
  }
}
