import { inject, injectable } from 'tsyringe';
import { type TitledConfig, TOKENS } from '../../../core/plugin-api.js';
import type { ProviderOptions } from '../common/options.js';
import { RecordPullStage } from '../common/pull-stage.js';
import type { NmvtisProvider } from './provider.js';
import { NmvtisHttpProvider } from './providers/http.js';
import { NmvtisSandboxProvider } from './providers/sandbox.js';

export function nmvtisProvider(options: ProviderOptions, config: Readonly<TitledConfig>): NmvtisProvider | null {
  switch (options.provider) {
    case 'sandbox':
      return new NmvtisSandboxProvider(options);
    case 'http':
      return new NmvtisHttpProvider(options, { allowHosts: config.allowHosts });
    case 'none':
      return null;
  }
}

/**
 * nmvtis: pulls NMVTIS vehicle history when a job carries `sync_nmvtis`
 * (also turned on by spec rule 2). Runs before the public and private pulls,
 * so the issuing state it finds is the one they ask for.
 */
@injectable()
export class NmvtisStage extends RecordPullStage {
  readonly name = 'nmvtis';
  readonly flag = 'sync_nmvtis' as const;
  readonly needsState = false;

  constructor(@inject(TOKENS.Config) config: TitledConfig) {
    super(config, ['nmvtis'], (_s, o, c) => nmvtisProvider(o, c));
  }
}
