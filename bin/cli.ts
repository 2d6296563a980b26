/**
 * The titled CLI: `titled <command> [options]` or `titled <group> <command> [options]`.
 * Commands live in bin/commands/ and are listed in bin/commands/index.ts.
 * Exit codes: 0 success, 1 failure (one line on stderr), 2 bad usage.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../core/paths.js';
import { UsageError, isGroup, type Command, type CommandEntry, type CommandGroup } from './command.js';
import { COMMANDS } from './commands/index.js';

const ENV_HELP: [string, string][] = [
  ['PORT', 'HTTP port (serve)'],
  ['TITLED_DATA_DIR', 'data folder (default ./data)'],
  ['DATABASE_URL', 'postgres://... selects PostgreSQL (default: SQLite in the data folder)'],
  ['TITLED_CONFIG', 'JSON config file merged over config/default.json'],
  ['TITLED_ALLOW_HOSTS', 'comma-separated hosts/CIDRs exempted from the outbound URL guard'],
  ['TITLED_HOST', 'address to bind (default 127.0.0.1)'],
  ['TITLED_PUBLIC_URL', 'base URL of presigned links (default http://localhost:<port>)'],
  ['TITLED_SECRET', 'HMAC secret for presigned URLs and sessions (default: generated into the data folder)'],
  ['TITLED_LOG_LEVEL', 'fatal, error, warn, info (default), debug, trace, silent'],
];

const pad = (rows: [string, string][], indent = '  '): string[] => {
  const w = Math.max(...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `${indent}${a.padEnd(w)}  ${b}`);
};

function version(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function mainHelp(): string {
  const rows: [string, string][] = [];
  for (const e of COMMANDS) {
    if (isGroup(e)) for (const c of e.commands) rows.push([`${e.name} ${c.name}`, c.summary]);
    else rows.push([e.name, e.summary]);
  }
  return [
    'titled: vehicle title processing engine',
    '',
    'Usage: titled <command> [options]',
    '',
    'Commands:',
    ...pad(rows),
    '',
    "Run `titled <command> --help` for a command's options.",
    '',
    'Environment (command-line flags win over it):',
    ...pad(ENV_HELP),
  ].join('\n');
}

function groupHelp(g: CommandGroup): string {
  return [
    `titled ${g.name}: ${g.summary}`,
    '',
    'Commands:',
    ...pad(g.commands.map((c): [string, string] => [c.name, c.summary])),
    '',
    `Run \`titled ${g.name} <command> --help\` for a command's options.`,
  ].join('\n');
}

function commandHelp(c: Command): string {
  const out = [`Usage: titled ${c.usage}`, '', c.summary];
  if (c.details) out.push('', c.details);
  const opts = [...(c.optionHelp ?? []), ['-h, --help', 'show this help'] as [string, string]];
  out.push('', 'Options:', ...pad(opts));
  return out.join('\n');
}

/** Finds the command for argv; returns it with the remaining arguments, or help text to show. */
function resolveCommand(
  argv: string[],
): { command: Command; path: string; rest: string[] } | { help: string; code: number } {
  const [first, ...rest] = argv;
  if (first === undefined) return { help: mainHelp(), code: 2 };
  if (first === '-h' || first === '--help' || first === 'help') return { help: mainHelp(), code: 0 };
  if (first === '-v' || first === '--version') return { help: version(), code: 0 };
  const entry: CommandEntry | undefined = COMMANDS.find((e) => e.name === first);
  if (!entry) throw new UsageError(`unknown command '${first}' (run titled --help for the list)`);
  if (!isGroup(entry)) return { command: entry, path: entry.name, rest };
  const [sub, ...subRest] = rest;
  if (sub === undefined) return { help: groupHelp(entry), code: 2 };
  if (sub === '-h' || sub === '--help' || sub === 'help') return { help: groupHelp(entry), code: 0 };
  const command = entry.commands.find((c) => c.name === sub);
  if (!command)
    throw new UsageError(
      `unknown command '${entry.name} ${sub}' (commands: ${entry.commands.map((c) => c.name).join(', ')})`,
    );
  return { command, path: `${entry.name} ${command.name}`, rest: subRest };
}

async function main(argv: string[]): Promise<number> {
  let path = '';
  try {
    const found = resolveCommand(argv);
    if ('help' in found) {
      (found.code === 0 ? process.stdout : process.stderr).write(found.help + '\n');
      return found.code;
    }
    const { command, rest } = found;
    path = found.path;
    let parsed;
    try {
      parsed = parseArgs({
        args: rest,
        options: { ...command.options, help: { type: 'boolean', short: 'h' } },
        allowPositionals: true,
        strict: true,
      });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    if (parsed.values.help) {
      process.stdout.write(commandHelp(command) + '\n');
      return 0;
    }
    const [min, max] = command.positionals ?? [0, 0];
    const n = parsed.positionals.length;
    if (n < min) throw new UsageError(`missing argument (usage: titled ${command.usage})`);
    if (n > max)
      throw new UsageError(`unexpected argument '${parsed.positionals[max]}' (usage: titled ${command.usage})`);
    return (await command.run({ values: parsed.values, positionals: parsed.positionals })) ?? 0;
  } catch (e) {
    const where = path ? `titled ${path}` : 'titled';
    if (e instanceof UsageError) {
      process.stderr.write(`${where}: ${e.message}\n`);
      if (path) process.stderr.write(`run \`${where} --help\` for usage\n`);
      return 2;
    }
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`${where}: error: ${message.split('\n')[0]}\n`);
    if (process.env.TITLED_DEBUG && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
    return 1;
  }
}

/** Sets the exit code and lets stdout drain; exits outright if something still holds the event loop after a grace period. */
function finish(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 3000).unref();
}

// `titled ... | head -1`: the reader went away; stop quietly rather than with an EPIPE stack trace
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

main(process.argv.slice(2)).then(finish, (e: unknown) => {
  process.stderr.write(`titled: error: ${e instanceof Error ? e.message : String(e)}\n`);
  finish(1);
});
