import { inject, injectable } from 'tsyringe';
import { type TitledConfig, TOKENS } from '../../../core/plugin-api.js';
import type { ProviderOptions } from '../common/options.js';
import { RecordPullStage } from '../common/pull-stage.js';
import type { PublicDmvProvider } from './provider.js';
import { PublicDmvHttpProvider } from './providers/http.js';
import { PublicDmvSandboxProvider } from './providers/sandbox.js';

export function publicDmvProvider(options: ProviderOptions, config: Readonly<TitledConfig>): PublicDmvProvider | null {
  switch (options.provider) {
    case 'sandbox':
      return new PublicDmvSandboxProvider(options);
    case 'http':
      return new PublicDmvHttpProvider(options, { allowHosts: config.allowHosts });
    case 'none':
      return null;
  }
}

/** public-dmv: pulls public DMV data (`public_*` fields) when a job carries `sync_public`, for the title's issuing state. */
@injectable()
export class PublicDmvStage extends RecordPullStage {
  readonly name = 'public-dmv';
  readonly flag = 'sync_public' as const;
  readonly needsState = true;

  constructor(@inject(TOKENS.Config) config: TitledConfig) {
    super(config, ['public'], (_s, o, c) => publicDmvProvider(o, c));
  }
}
