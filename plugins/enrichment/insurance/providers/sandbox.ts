import { SandboxEnrichmentProvider } from '../../common/sandbox/provider.js';
import type { InsuranceProvider } from '../provider.js';

/** The insurance sandbox (docs/sandbox.md): coverage lapsed for VINs whose 15th character is 9. */
export class InsuranceSandboxProvider extends SandboxEnrichmentProvider implements InsuranceProvider {
  declare readonly source: 'insurance';

  constructor(options?: unknown) {
    super('insurance', options);
  }
}
