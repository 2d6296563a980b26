/**
 * titled as a library: the engine with the built-in plugins. `createEngine`
 * here is core's createEngine with the built-in plugin catalog
 * (plugins/index.ts) composed in; everything else is core's public API
 * (core/index.ts), and plugin authors import core/plugin-api.ts.
 */
import {
  createEngine as createCoreEngine,
  type Engine,
  type EngineOptions,
  type TitledConfigInput,
} from './core/index.js';
import { BUILTIN_PLUGINS } from './plugins/index.js';

export * from './core/index.js';
export { BUILTIN_PLUGINS };

/** Builds an engine with the built-in plugins (and `options.plugins`, which may add or replace some). */
export function createEngine(
  config: TitledConfigInput | Record<string, unknown> = {},
  options: EngineOptions = {},
): Promise<Engine> {
  return createCoreEngine(config, { ...options, plugins: { ...BUILTIN_PLUGINS, ...options.plugins } });
}
