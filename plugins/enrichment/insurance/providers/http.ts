import { HttpEnrichmentProvider, type HttpProviderDeps } from '../../common/http-provider.js';
import type { InsuranceProvider } from '../provider.js';

/** Insurance verification through a gateway (docs/providers.md; answers carry `coverage`). */
export class InsuranceHttpProvider extends HttpEnrichmentProvider implements InsuranceProvider {
  declare readonly source: 'insurance';

  constructor(options: unknown, deps: HttpProviderDeps) {
    super('insurance', options, deps);
  }
}
