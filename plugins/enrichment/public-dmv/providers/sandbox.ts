import { SandboxEnrichmentProvider } from '../../common/sandbox/provider.js';
import type { PublicDmvProvider } from '../provider.js';

/** The public DMV sandbox (docs/sandbox.md). */
export class PublicDmvSandboxProvider extends SandboxEnrichmentProvider implements PublicDmvProvider {
  declare readonly source: 'public';

  constructor(options?: unknown) {
    super('public', options);
  }
}
