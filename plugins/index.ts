/**
 * The built-in stage plugins, by the name the config's `stages` list uses.
 * An explicit registry (no directory scan): adding a stage adds a line here.
 */
import type { EnginePluginClass } from '../core/pipeline/stage.js';
import { IntakeStage } from './intake/index.js';

export const BUILTIN_STAGES: Record<string, EnginePluginClass> = {
  intake: IntakeStage,
};
