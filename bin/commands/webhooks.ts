import type { Engine } from '../../core/index.js';
import { TitledError } from '../../core/index.js';
import type { WebhookAuth, WebhookPlugin } from '../../plugins/webhook/index.js';
import {
  ENGINE_OPTION_HELP,
  ENGINE_OPTIONS,
  UsageError,
  isoTime,
  print,
  table,
  withEngine,
  type CommandGroup,
  type Values,
} from '../command.js';

const STATUSES = ['pending', 'delivering', 'delivered', 'failed', 'canceled'] as const;

function webhookPlugin(engine: Engine): WebhookPlugin {
  const p = engine.plugins.find((x) => x.name === 'webhook');
  if (!p)
    throw new TitledError(
      'NOT_IMPLEMENTED',
      'the webhook plugin is not enabled (add "webhook" to the config\'s stages)',
    );
  return p as WebhookPlugin;
}

function requireOrg(values: Values): string {
  const org = values.org;
  if (typeof org !== 'string' || !org) throw new UsageError('--org NAME is required');
  return org;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The auth a `webhooks set` command line asks for; refuses credentials that do not belong to the scheme. */
function authFrom(values: Values): WebhookAuth {
  const scheme = values.auth;
  const username = str(values.username);
  const password = str(values.password);
  const token = str(values.token);
  const partnerKey = str(values['partner-key']);
  const stray = (allowed: string[]) => {
    const given = { username, password, token, 'partner-key': partnerKey };
    const bad = Object.entries(given)
      .filter(([k, v]) => v !== undefined && !allowed.includes(k))
      .map(([k]) => `--${k}`);
    if (bad.length) throw new UsageError(`${bad.join(', ')} cannot be used with --auth ${String(scheme)}`);
  };
  switch (scheme) {
    case 'basic':
      stray(['username', 'password']);
      if (!username || !password) throw new UsageError('--auth basic needs --username and --password');
      return { scheme, username, password };
    case 'bearer':
      stray(['token', 'partner-key']);
      if (!token && !partnerKey) throw new UsageError('--auth bearer needs --token and/or --partner-key');
      return { scheme, ...(token ? { token } : {}), ...(partnerKey ? { partnerKey } : {}) };
    case 'none':
      stray([]);
      return { scheme };
    default:
      throw new UsageError('--auth must be basic, bearer or none');
  }
}

const authText = (a: { scheme: string; credentials: string[] }) =>
  a.credentials.length ? `${a.scheme} (${a.credentials.join(', ')})` : a.scheme;

export const webhooks: CommandGroup = {
  name: 'webhooks',
  summary: 'manage webhook profiles and deliveries',
  commands: [
    {
      name: 'set',
      summary: "create or update an organization's webhook profile (prints the signing secret alone on the last line)",
      usage:
        'webhooks set --org NAME --url URL --events A,B --auth basic|bearer|none [--username U --password P] [--token T] [--partner-key K] [--rotate-secret]',
      details:
        'One profile per (organization, URL): setting a URL again updates its events and auth and keeps its signing secret\n' +
        '(unless --rotate-secret). Events: title.job_status.complete, title.job_status.error, title.data.found,\n' +
        'title.data.not_found (reserved, never fires), title.account_status.<status> or title.account_status.*,\n' +
        'title.physical_title_status.<in_transit|received|unavailable|skipped>. The URL must not resolve to a loopback,\n' +
        'private, link-local or metadata address unless TITLED_ALLOW_HOSTS allows it. Scripts: SECRET=$(titled webhooks set ... | tail -1)',
      options: {
        ...ENGINE_OPTIONS,
        org: { type: 'string' },
        url: { type: 'string' },
        events: { type: 'string' },
        auth: { type: 'string' },
        username: { type: 'string' },
        password: { type: 'string' },
        token: { type: 'string' },
        'partner-key': { type: 'string' },
        'rotate-secret': { type: 'boolean' },
      },
      optionHelp: [
        ['--org NAME', 'the organization (required)'],
        ['--url URL', 'the endpoint, http or https (required)'],
        ['--events A,B', 'comma-separated event names (required)'],
        ['--auth SCHEME', 'basic, bearer or none (required)'],
        ['--username U, --password P', 'Basic credentials (--auth basic)'],
        ['--token T', 'sent as "Authorization: Bearer T" (--auth bearer)'],
        ['--partner-key K', 'sent as "x-partner-key: K" (--auth bearer)'],
        ['--rotate-secret', 'issue a new signing secret for an existing profile'],
        ...ENGINE_OPTION_HELP,
      ],
      async run({ values }) {
        const org = requireOrg(values);
        const url = str(values.url);
        if (!url) throw new UsageError('--url URL is required');
        const events = str(values.events);
        if (!events) throw new UsageError('--events A,B is required');
        const auth = authFrom(values);
        await withEngine(values, async (engine) => {
          const { profile, created } = await webhookPlugin(engine).setProfile(org, {
            url,
            events: events.split(','),
            auth,
            rotateSecret: values['rotate-secret'] === true,
          });
          print(
            `${created ? 'created' : 'updated'} webhook profile ${profile.id} for ${org}: ${profile.url}`,
            `events: ${profile.events.join(', ')}`,
            `auth: ${profile.auth.scheme}`,
            'signing secret (verify webhook-signature with it; keep it secret):',
            profile.signingSecret,
          );
        });
      },
    },
    {
      name: 'list',
      summary: "list an organization's webhook profiles (never shows credentials or secrets)",
      usage: 'webhooks list --org NAME [--json]',
      options: { ...ENGINE_OPTIONS, org: { type: 'string' }, json: { type: 'boolean' } },
      optionHelp: [
        ['--org NAME', 'the organization (required)'],
        ['--json', 'print one JSON object per line'],
        ...ENGINE_OPTION_HELP,
      ],
      async run({ values }) {
        const org = requireOrg(values);
        await withEngine(values, async (engine) => {
          const list = await webhookPlugin(engine).listProfiles(org);
          if (values.json) print(...list.map((p) => JSON.stringify(p)));
          else if (list.length === 0)
            print(`organization ${org} has no webhook profiles (create one: titled webhooks set --org ${org} ...)`);
          else
            print(
              ...table(
                ['ID', 'URL', 'AUTH', 'CREATED', 'EVENTS'],
                list.map((p) => [p.id, p.url, authText(p.auth), isoTime(p.createdAt), p.events.join(',')]),
              ),
            );
        });
      },
    },
    {
      name: 'remove',
      summary: "remove an organization's webhook profile (its unsent deliveries are canceled)",
      usage: 'webhooks remove --org NAME [--id ID | --url URL | --all]',
      details:
        "Without --id or --url the organization's only profile is removed; with several, name one or pass --all.",
      options: {
        ...ENGINE_OPTIONS,
        org: { type: 'string' },
        id: { type: 'string' },
        url: { type: 'string' },
        all: { type: 'boolean' },
      },
      optionHelp: [
        ['--org NAME', 'the organization (required)'],
        ['--id ID', 'the profile to remove'],
        ['--url URL', 'the profile with this URL'],
        ['--all', 'remove every profile of the organization'],
        ...ENGINE_OPTION_HELP,
      ],
      async run({ values }) {
        const org = requireOrg(values);
        const id = str(values.id);
        const url = str(values.url);
        if ((id || url) && values.all) throw new UsageError('--all cannot be combined with --id or --url');
        await withEngine(values, async (engine) => {
          const wh = webhookPlugin(engine);
          if (!id && !url && !values.all) {
            const list = await wh.listProfiles(org);
            if (list.length > 1)
              throw new UsageError(
                `organization ${org} has ${list.length} profiles; name one with --id (${list.map((p) => p.id).join(', ')}) or pass --all`,
              );
          }
          const gone = await wh.removeProfiles(org, { id, url });
          if (gone.length === 0) throw new TitledError('NOT_FOUND', `no matching webhook profile for ${org}`);
          print(...gone.map((p) => `removed webhook profile ${p.id} (${p.url})`));
        });
      },
    },
    {
      name: 'deliveries',
      summary: "list an organization's webhook deliveries, newest first, with their attempts",
      usage: 'webhooks deliveries --org NAME [--entry ID] [--status S] [--limit N] [--attempts] [--json]',
      options: {
        ...ENGINE_OPTIONS,
        org: { type: 'string' },
        entry: { type: 'string' },
        status: { type: 'string' },
        limit: { type: 'string' },
        attempts: { type: 'boolean' },
        json: { type: 'boolean' },
      },
      optionHelp: [
        ['--org NAME', 'the organization (required)'],
        ['--entry ID', 'only deliveries of this entry'],
        ['--status S', `only this status: ${STATUSES.join(', ')}`],
        ['--limit N', 'at most N deliveries (default 50)'],
        ['--attempts', 'show every attempt: status code, latency, error, next attempt time'],
        ['--json', 'print one JSON object per line (with attempts)'],
        ...ENGINE_OPTION_HELP,
      ],
      async run({ values }) {
        const org = requireOrg(values);
        const status = str(values.status);
        if (status && !(STATUSES as readonly string[]).includes(status))
          throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
        const limit = str(values.limit) ?? '50';
        if (!/^\d+$/.test(limit) || Number(limit) < 1) throw new UsageError('--limit must be a positive number');
        await withEngine(values, async (engine) => {
          const list = await webhookPlugin(engine).deliveries(org, {
            entryId: str(values.entry),
            status: status as (typeof STATUSES)[number] | undefined,
            limit: Number(limit),
            withAttempts: !!(values.attempts || values.json),
          });
          if (values.json) return print(...list.map((d) => JSON.stringify(d)));
          if (list.length === 0) return print(`no webhook deliveries for ${org}`);
          const rows = list.map((d) => [
            d.id,
            d.entryId,
            d.status,
            String(d.attempts),
            d.lastStatusCode === null ? '-' : String(d.lastStatusCode),
            d.status === 'pending' ? isoTime(d.nextAttemptAt) : '-',
            isoTime(d.createdAt),
            d.events.join(',') + (d.replayOf ? ` (replay of ${d.replayOf})` : ''),
          ]);
          const header = ['DELIVERY', 'ENTRY', 'STATUS', 'ATTEMPTS', 'LAST CODE', 'NEXT ATTEMPT', 'CREATED', 'EVENTS'];
          if (!values.attempts) return print(...table(header, rows));
          const lines = table(header, rows);
          print(lines[0]!);
          list.forEach((d, i) => {
            print(lines[i + 1]!);
            for (const a of d.attemptLog ?? []) {
              print(
                `    #${a.attempt} ${isoTime(a.startedAt)} ${a.outcome} ${a.statusCode ?? '-'} ${a.latencyMs} ms${a.error ? ` error: ${a.error.split('\n')[0]}` : ''}${a.nextAttemptAt ? ` next: ${isoTime(a.nextAttemptAt)}` : ''}`,
              );
            }
          });
        });
      },
    },
    {
      name: 'replay',
      summary: 'send a finished delivery again (a new delivery with the entry as it is now)',
      usage: 'webhooks replay DELIVERY_ID [--queue]',
      details:
        'Makes the first attempt from this process and prints its outcome; retries, if any, are left to the daemon.\n' +
        'With --queue, only records the replay for a running daemon to send.',
      options: { ...ENGINE_OPTIONS, queue: { type: 'boolean' } },
      optionHelp: [['--queue', 'do not send now; a running daemon sends it'], ...ENGINE_OPTION_HELP],
      positionals: [1, 1],
      async run({ positionals, values }) {
        const id = positionals[0]!;
        return withEngine(values, async (engine) => {
          const wh = webhookPlugin(engine);
          const replay = await wh.replay(id);
          print(`replay of ${id} recorded as delivery ${replay.id} (events: ${replay.events.join(', ')})`);
          if (values.queue) return 0;
          const r = await wh.sendNow(replay.id);
          if (!r) {
            print('a running daemon took it; see: titled webhooks deliveries --org <org> --attempts');
            return 0;
          }
          const what = r.statusCode === null ? (r.error ?? 'no answer') : `HTTP ${r.statusCode}`;
          if (r.outcome === 'delivered') print(`delivered (${what}, ${r.latencyMs} ms)`);
          else if (r.outcome === 'retry')
            print(`attempt 1 failed (${what}); the daemon retries it at ${isoTime(r.nextAttemptAt)}`);
          else print(`${r.outcome} (${what})`);
          return r.outcome === 'delivered' || r.outcome === 'retry' ? 0 : 1;
        });
      },
    },
  ],
};
