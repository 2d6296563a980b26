/**
 * The built-in plugins, by the name the config's `stages` list uses: an
 * explicit catalog (no directory scan), composed into the engine by the
 * package entry point (index.ts), never imported by core. Each is loaded
 * when a config names it, so an engine pays (in start-up time and memory)
 * only for the plugins it runs. `providers` lists the `config.providers`
 * keys a plugin reads, so a misspelt provider key stops the engine at start.
 */
import type { PluginCatalog } from '../core/plugin-api.js';

export const BUILTIN_PLUGINS: PluginCatalog = {
  'account-facts': { load: async () => (await import('./account-facts/index.js')).AccountFactsPlugin },
  fees: { load: async () => (await import('./fees/index.js')).FeesStage },
  forms: { load: async () => (await import('./forms/index.js')).FormsStage },
  insurance: { load: async () => (await import('./enrichment/index.js')).InsuranceStage, providers: ['insurance'] },
  legacy: { load: async () => (await import('./legacy/index.js')).LegacyPlugin },
  intake: { load: async () => (await import('./intake/index.js')).IntakeStage },
  nmvtis: { load: async () => (await import('./enrichment/index.js')).NmvtisStage, providers: ['nmvtis'] },
  ocr: { load: async () => (await import('./ocr/index.js')).OcrStage },
  'private-portal': {
    load: async () => (await import('./enrichment/index.js')).PrivatePortalStage,
    providers: ['state', 'portal'],
  },
  signing: { load: async () => (await import('./signing/index.js')).SigningPlugin },
  'public-dmv': { load: async () => (await import('./enrichment/index.js')).PublicDmvStage, providers: ['public'] },
  'vin-decode': { load: async () => (await import('./enrichment/index.js')).VinDecodeStage, providers: ['vpic'] },
  'title-collection': { load: async () => (await import('./title-collection/index.js')).TitleCollectionPlugin },
  submission: { load: async () => (await import('./submission/index.js')).SubmissionPlugin },
  webhook: { load: async () => (await import('./webhook/index.js')).WebhookPlugin },
};
