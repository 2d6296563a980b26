import { inject, injectable } from 'tsyringe';
import { type TitledConfig, TOKENS } from '../../../core/plugin-api.js';
import type { ProviderOptions } from '../common/options.js';
import type { EnrichmentProvider, RecordSource } from '../common/provider.js';
import { RecordPullStage } from '../common/pull-stage.js';
import { PortalHttpProvider, StateRecordHttpProvider } from './providers/http.js';
import { PortalSandboxProvider, StateRecordSandboxProvider } from './providers/sandbox.js';

export function privateProvider(
  source: RecordSource,
  options: ProviderOptions,
  config: Readonly<TitledConfig>,
): EnrichmentProvider | null {
  const state = source === 'state';
  switch (options.provider) {
    case 'sandbox':
      return state ? new StateRecordSandboxProvider(options) : new PortalSandboxProvider(options);
    case 'http':
      return state
        ? new StateRecordHttpProvider(options, { allowHosts: config.allowHosts })
        : new PortalHttpProvider(options, { allowHosts: config.allowHosts });
    case 'none':
      return null;
  }
}

/**
 * private-portal: when a job carries `sync_private`, pulls the private DMV
 * data of the title's issuing state: the state's title record (`state_*`)
 * and the DMV portal page (`portal_*`), at once. `private_enrichment_pending`
 * is true from the request until this stage has run.
 */
@injectable()
export class PrivatePortalStage extends RecordPullStage {
  readonly name = 'private-portal';
  readonly flag = 'sync_private' as const;
  readonly needsState = true;

  constructor(@inject(TOKENS.Config) config: TitledConfig) {
    super(config, ['state', 'portal'], privateProvider);
  }
}
