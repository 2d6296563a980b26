/**
 * Plugin options (`config.plugins.<name>`) and provider options
 * (`config.providers.<key>`), checked at start-up: a plugin declares its
 * options schema (a static `options` of its class, made with
 * `definePluginOptions`) and the provider keys it reads (a static
 * `providers`). The engine refuses to start on a misspelt plugin or provider
 * name, an option a plugin does not take, or a value its schema refuses, and
 * names the config path in the message.
 */
import { z } from 'zod';
import { EngineConfigError } from '../errors.js';

/** A plugin's options: a strict zod object (unknown keys are errors). */
export type PluginOptionsSchema<T = unknown> = z.ZodType<T>;

/**
 * Makes a plugin's options schema strict (a misspelt option is an error) and
 * gives it a parse that names the config path in its error.
 *
 * @example
 * ```ts
 * export const MyOptions = definePluginOptions('my-stage', { retries: z.number().int().min(0).default(2) });
 * export class MyStage implements StagePlugin {
 *   static readonly options = MyOptions.schema;
 *   constructor(@inject(TOKENS.Config) config: TitledConfig) { this.o = MyOptions.parse(config.plugins['my-stage']); }
 * }
 * ```
 */
export function definePluginOptions<S extends z.ZodRawShape>(name: string, shape: S) {
  const schema = z.object(shape).strict();
  return {
    schema,
    parse(raw: unknown): z.infer<typeof schema> {
      return parseOptions(`plugins.${name}`, schema, raw) as z.infer<typeof schema>;
    },
  };
}

/** Parses `raw` (absent = `{}`) with `schema`; an EngineConfigError naming `path` and each bad member when it does not fit. */
function parseOptions<T>(path: string, schema: z.ZodType<T>, raw: unknown): T {
  // once per plugin, at start-up: without zod's compiled fast path, as the config is (core/config.ts)
  const r = schema.safeParse(raw ?? {}, { jitless: true });
  if (r.success) return r.data;
  const detail = r.error.issues
    .map((i) => {
      const keys =
        i.code === 'unrecognized_keys' ? ` (${(i as { keys: string[] }).keys.map((k) => `'${k}'`).join(', ')})` : '';
      return `${[path, ...i.path.map(String)].join('.')}: ${i.message}${keys}`;
    })
    .join('; ');
  throw new EngineConfigError(`invalid configuration: ${detail}`);
}

/** What the engine knows of a plugin before building it: its name, options schema and provider keys. */
export interface PluginManifest {
  name: string;
  options?: PluginOptionsSchema;
  providers?: readonly string[];
}

/**
 * Checks `config.plugins` and `config.providers` against the known plugins:
 * every key names a known plugin (or a provider key a known plugin reads),
 * and each enabled plugin's options fit its schema. Throws EngineConfigError.
 */
export function checkPluginConfig(
  config: { plugins: Record<string, unknown>; providers: Record<string, unknown>; stages: readonly string[] },
  known: readonly PluginManifest[],
): void {
  const byName = new Map(known.map((k) => [k.name, k]));
  for (const name of Object.keys(config.plugins)) {
    const m = byName.get(name);
    if (!m)
      throw new EngineConfigError(
        `invalid configuration: plugins.${name}: no plugin is called '${name}' (known: ${[...byName.keys()].sort().join(', ')})`,
      );
    if (!config.stages.includes(name)) continue;
    if (!m.options)
      throw new EngineConfigError(`invalid configuration: plugins.${name}: the '${name}' plugin takes no options`);
    parseOptions(`plugins.${name}`, m.options, config.plugins[name]);
  }
  const claimed = new Set(known.flatMap((k) => k.providers ?? []));
  for (const key of Object.keys(config.providers)) {
    if (!claimed.has(key)) {
      throw new EngineConfigError(
        `invalid configuration: providers.${key}: no plugin reads provider '${key}' (known: ${[...claimed].sort().join(', ')})`,
      );
    }
  }
}
