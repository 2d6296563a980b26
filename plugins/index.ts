/**
 * The built-in stage plugins, by the name the config's `stages` list uses.
 * An explicit registry (no directory scan): adding a stage adds a line here.
 */
import type { EnginePluginClass } from '../core/pipeline/stage.js';
import { AccountFactsPlugin } from './account-facts/index.js';
import { FeesStage } from './fees/index.js';
import { FormsStage } from './forms/index.js';
import { InsuranceStage } from './insurance/index.js';
import { IntakeStage } from './intake/index.js';
import { NmvtisStage } from './nmvtis/index.js';
import { OcrStage } from './ocr/index.js';
import { PrivatePortalStage } from './private-portal/index.js';
import { PublicDmvStage } from './public-dmv/index.js';
import { VinDecodeStage } from './vin-decode/index.js';
import { WebhookPlugin } from './webhook/index.js';

export const BUILTIN_STAGES: Record<string, EnginePluginClass> = {
  'account-facts': AccountFactsPlugin,
  fees: FeesStage,
  forms: FormsStage,
  insurance: InsuranceStage,
  intake: IntakeStage,
  nmvtis: NmvtisStage,
  ocr: OcrStage,
  'private-portal': PrivatePortalStage,
  'public-dmv': PublicDmvStage,
  'vin-decode': VinDecodeStage,
  webhook: WebhookPlugin,
};
