/**
 * The built-in plugins, by the name the config's `stages` list uses.
 * An explicit registry (no directory scan): adding a plugin adds a line here.
 * Each is loaded when a config names it, so an engine pays (in start-up time
 * and memory) only for the plugins it runs.
 */
import type { EnginePluginClass } from '../core/pipeline/stage.js';

export const BUILTIN_STAGES: Record<string, () => Promise<EnginePluginClass>> = {
  'account-facts': async () => (await import('./account-facts/index.js')).AccountFactsPlugin,
  fees: async () => (await import('./fees/index.js')).FeesStage,
  forms: async () => (await import('./forms/index.js')).FormsStage,
  insurance: async () => (await import('./insurance/index.js')).InsuranceStage,
  intake: async () => (await import('./intake/index.js')).IntakeStage,
  nmvtis: async () => (await import('./nmvtis/index.js')).NmvtisStage,
  ocr: async () => (await import('./ocr/index.js')).OcrStage,
  'private-portal': async () => (await import('./private-portal/index.js')).PrivatePortalStage,
  'public-dmv': async () => (await import('./public-dmv/index.js')).PublicDmvStage,
  'vin-decode': async () => (await import('./vin-decode/index.js')).VinDecodeStage,
  webhook: async () => (await import('./webhook/index.js')).WebhookPlugin,
};
