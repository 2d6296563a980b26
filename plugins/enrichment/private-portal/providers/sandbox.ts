import { SandboxEnrichmentProvider } from '../../common/sandbox/provider.js';
import type { PortalProvider, StateRecordProvider } from '../provider.js';

/** The state record sandbox (docs/sandbox.md). */
export class StateRecordSandboxProvider extends SandboxEnrichmentProvider implements StateRecordProvider {
  declare readonly source: 'state';

  constructor(options?: unknown) {
    super('state', options);
  }
}

/** The DMV portal sandbox (docs/sandbox.md): names as the portal shows them (`LAST, FIRST M`). */
export class PortalSandboxProvider extends SandboxEnrichmentProvider implements PortalProvider {
  declare readonly source: 'portal';

  constructor(options?: unknown) {
    super('portal', options);
  }
}
