/**
 * What a CLI command is, and the helpers commands share. A command group
 * (`orgs`, `keys`, later `webhooks`, `fees`, ...) is one file under
 * bin/commands/ that exports a `CommandGroup`; bin/commands/index.ts lists
 * them in one table.
 */
import type { ParseArgsConfig } from 'node:util';
import type { Engine, TitledConfigInput } from '../core/index.js';

type OptionSpec = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

interface CommandInput {
  /** Parsed option values (`--data-dir` is `values['data-dir']`). */
  values: Values;
  /** Positional arguments after the command name. */
  positionals: string[];
}

/** One command: `titled <name>` at the top level or `titled <group> <name>` inside a group. */
export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The synopsis, e.g. `keys create --org NAME [--group G ...] [--label L]` (without the leading `titled `). */
  usage: string;
  /** More help text, shown by `--help` under the synopsis. */
  details?: string;
  /** Options for util.parseArgs (`--help` is added for every command). */
  options?: OptionSpec;
  /** Help lines for the options, in display order: [flag text, description]. */
  optionHelp?: [string, string][];
  /** How many positionals the command takes: [min, max]. Default [0, 0]. */
  positionals?: [number, number];
  /** Runs the command; resolves to the exit code (default 0). Throws UsageError (exit 2) or anything else (exit 1). */
  run(input: CommandInput): Promise<number | void>;
}

/** A named set of subcommands: `titled <group> <command>`. */
export interface CommandGroup {
  name: string;
  summary: string;
  commands: Command[];
}

export type CommandEntry = Command | CommandGroup;
export const isGroup = (e: CommandEntry): e is CommandGroup => 'commands' in e;

/** Bad command line: message on stderr, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Options every command that opens the engine accepts. */
export const ENGINE_OPTIONS: OptionSpec = {
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  config: { type: 'string' },
};
export const ENGINE_OPTION_HELP: [string, string][] = [
  ['--data-dir DIR', 'data folder: SQLite database, files, secret (env TITLED_DATA_DIR; default ./data)'],
  ['--database-url URL', 'postgres://... to use PostgreSQL instead of SQLite (env DATABASE_URL)'],
  ['--config FILE', 'JSON config file merged over config/default.json (env TITLED_CONFIG)'],
];

/** Config overrides from the shared engine options (flags win over the environment). */
export function engineOverrides(values: Values): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof values.config === 'string') process.env.TITLED_CONFIG = values.config;
  if (typeof values['data-dir'] === 'string') out.dataDir = values['data-dir'];
  if (typeof values['database-url'] === 'string') out.databaseUrl = values['database-url'];
  return out;
}

/**
 * Opens the engine for a management command: no workers, no HTTP server, logs
 * to stderr (warnings and worse unless TITLED_LOG_LEVEL says otherwise) so
 * stdout carries only the command's output. Runs migrations unless told not to.
 * Always closed by `withEngine`.
 */
export async function withEngine<T>(
  values: Values,
  fn: (engine: Engine) => Promise<T>,
  o: { migrate?: boolean } = {},
): Promise<T> {
  // Loaded here, not at the top: `--help` and usage errors answer without loading the engine.
  const [{ createEngine }, { pino }, { resolveConfig }, { runningDaemon }] = await Promise.all([
    import('../index.js'),
    import('pino'),
    import('../core/config.js'),
    import('../core/engine.js'),
  ]);
  const level = process.env.TITLED_LOG_LEVEL ?? 'warn';
  const overrides = engineOverrides(values);
  // the daemon on this data folder, if one runs: its presigned-link base URL and its outbound allow list apply here too
  const base = resolveConfig(overrides);
  const daemon = runningDaemon(base.dataDir);
  const config: TitledConfigInput | Record<string, unknown> = {
    ...overrides,
    ...(daemon ? { allowHosts: [...new Set([...base.allowHosts, ...daemon.allowHosts])] } : {}),
    workers: { enabled: false },
    log: { level },
  };
  const engine = await createEngine(config, {
    logDestination: pino.destination({ fd: 2, sync: true }),
    migrate: o.migrate,
  });
  if (daemon && !engine.config.publicUrl)
    (engine.objects as unknown as { setPublicUrl(u: string): void }).setPublicUrl(daemon.publicUrl);
  try {
    return await fn(engine);
  } finally {
    await engine.stop();
  }
}

/** Writes lines to stdout. */
export function print(...lines: string[]): void {
  for (const l of lines) process.stdout.write(l + '\n');
}

/** A plain text table: columns padded to their widest cell. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

export const isoTime = (ms: number | null | undefined): string => (ms ? new Date(ms).toISOString() : '-');
