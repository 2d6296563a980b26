/**
 * Every plugin hook is called through one wrapper, installed once when the
 * plugin is registered: whatever a hook throws is wrapped in a PluginError
 * that names the plugin and the hook (the log line carries both), as
 * Rollup's PluginDriver does. Business errors a hook means for the client
 * (TitledError) and a stage's own verdict (PermanentStageFailure) pass
 * through unchanged, with the plugin and hook recorded on them.
 */
import { EngineConfigError, PermanentStageFailure, PluginError, TitledError } from '../errors.js';
import type { EnginePlugin } from './stage.js';

const SYNC_HOOKS = ['appliesTo', 'present', 'requested', 'abandoned', 'routes'] as const;
// run and runNow: the stage executor names the stage (StageError)
const ASYNC_HOOKS = ['start', 'stop', 'prune'] as const;
const STAGE_MEMBERS = ['phase', 'appliesTo', 'run'] as const;

function wrapError(plugin: string, hook: string, e: unknown): unknown {
  if (e instanceof TitledError || e instanceof PermanentStageFailure) {
    Object.assign(e, { plugin, hook });
    return e;
  }
  return e instanceof PluginError ? e : new PluginError(plugin, hook, e);
}

/**
 * Refuses a plugin that is half a stage (a stage needs `phase`, `appliesTo`
 * and `run`; a misspelt `run` would otherwise make it a background plugin)
 * and wraps its hooks. Returns the same object.
 */
export function guardPlugin<P extends EnginePlugin>(plugin: P): P {
  const p = plugin as unknown as Record<string, unknown>;
  const name = String(plugin.name);
  const stageish = STAGE_MEMBERS.filter((m) => p[m] !== undefined);
  if (stageish.length && stageish.length < STAGE_MEMBERS.length) {
    const missing = STAGE_MEMBERS.filter((m) => p[m] === undefined);
    throw new EngineConfigError(
      `plugin '${name}' has ${stageish.join(', ')} but no ${missing.join(', ')}: a stage needs phase, appliesTo and run`,
    );
  }
  for (const m of STAGE_MEMBERS.slice(1)) {
    if (p[m] !== undefined && typeof p[m] !== 'function')
      throw new EngineConfigError(`plugin '${name}': ${m} must be a function`);
  }
  for (const hook of SYNC_HOOKS) {
    const fn = p[hook];
    if (typeof fn !== 'function') continue;
    p[hook] = function guarded(this: unknown, ...args: unknown[]) {
      try {
        return (fn as (...a: unknown[]) => unknown).apply(plugin, args);
      } catch (e) {
        throw wrapError(name, hook, e);
      }
    };
  }
  for (const hook of ASYNC_HOOKS) {
    const fn = p[hook];
    if (typeof fn !== 'function') continue;
    p[hook] = async function guarded(this: unknown, ...args: unknown[]) {
      try {
        return await (fn as (...a: unknown[]) => unknown).apply(plugin, args);
      } catch (e) {
        throw wrapError(name, hook, e);
      }
    };
  }
  return plugin;
}
