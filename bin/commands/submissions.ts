import { userInfo } from 'node:os';
import type { Engine } from '../../core/index.js';
import { TitledError } from '../../core/index.js';
import type { RecordInput, SubmissionPlugin } from '../../plugins/submission/index.js';
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

function plugin(engine: Engine): SubmissionPlugin {
  const p = engine.plugins.find((x) => x.name === 'submission');
  if (!p)
    throw new TitledError(
      'NOT_IMPLEMENTED',
      'the submission plugin is not enabled (add "submission" to the config\'s stages)',
    );
  return p as SubmissionPlugin;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const operator = () => `cli:${userInfo().username}`;

/** Prints a submission as one JSON line. */
const show = (s: Record<string, unknown>) => print(JSON.stringify(s));

type Action = (p: SubmissionPlugin, id: string, values: Values, rest: string[]) => Promise<Record<string, unknown>>;

function action(
  name: string,
  summary: string,
  usage: string,
  extra: Record<string, { type: 'string' | 'boolean' }>,
  help: [string, string][],
  run: Action,
  positionals: [number, number] = [1, 1],
) {
  return {
    name,
    summary,
    usage,
    positionals,
    options: { ...ENGINE_OPTIONS, ...extra },
    optionHelp: [...help, ...ENGINE_OPTION_HELP],
    async run({ positionals: pos, values }: { positionals: string[]; values: Values }) {
      await withEngine(values, async (engine) => show(await run(plugin(engine), pos[0]!, values, pos.slice(1))));
    },
  };
}

export const submissions: CommandGroup = {
  name: 'submissions',
  summary:
    'operate filings with the state: list, pick the method, mark ready, record answers, ask for follow-ups, cancel',
  commands: [
    {
      name: 'list',
      summary: 'list submissions, newest first',
      usage: 'submissions list [--org NAME] [--status S] [--entry ID] [--attention] [--limit N] [--json]',
      options: {
        ...ENGINE_OPTIONS,
        org: { type: 'string' },
        status: { type: 'string' },
        entry: { type: 'string' },
        attention: { type: 'boolean' },
        limit: { type: 'string' },
        json: { type: 'boolean' },
      },
      optionHelp: [
        ['--org NAME', 'only this organization'],
        ['--status S', 'only this status (e.g. AWAITING_READINESS)'],
        ['--entry ID', 'only this entry'],
        ['--attention', 'only those whose MAIL packet came back (return_to_sender, failure): an operator decides'],
        ['--limit N', 'at most N (default 100)'],
        ['--json', 'one JSON object per line'],
        ...ENGINE_OPTION_HELP,
      ],
      async run({ values }) {
        const limit = str(values.limit) ?? '100';
        if (!/^\d+$/.test(limit)) throw new UsageError('--limit must be a positive number');
        await withEngine(values, async (engine) => {
          const orgName = str(values.org);
          const org = orgName ? await engine.orgs.byName(orgName) : undefined;
          if (orgName && !org) throw new TitledError('NOT_FOUND', `no organization '${orgName}'`);
          const list = await plugin(engine).service.list({
            orgId: org?.id,
            status: str(values.status),
            entryId: str(values.entry),
            limit: Number(limit),
            attention: values.attention === true ? true : undefined,
          });
          if (values.json) return print(...list.map((s) => JSON.stringify(s)));
          if (!list.length) return print('no submissions');
          print(
            ...table(
              ['SUBMISSION', 'ENTRY', 'STATUS', 'METHOD', 'INTAKE', 'APPLICATION', 'CREATED', 'ATTENTION'],
              list.map((s) => [
                String(s.submissionId),
                String(s.entryId),
                String(s.status),
                String(s.method ?? '-'),
                String(s.intakeMode ?? '-'),
                String(s.applicationNumber ?? '-'),
                isoTime(Date.parse(String(s.createdAt))),
                s.needsAttention ? `packet ${String((s.shipment as { status?: string }).status)}` : '-',
              ]),
            ),
          );
        });
      },
    },
    action(
      'method',
      'pick the filing method of a managed submission',
      'submissions method ID MAIL|ONLINE_PORTAL',
      {},
      [],
      (p, id, _v, rest) => p.service.setMethod(id, rest[0]!, operator()),
      [2, 2],
    ),
    action(
      'ready',
      'mark a managed submission ready: it goes (MAIL makes the packet; ONLINE_PORTAL queues the worker)',
      'submissions ready ID [--method MAIL|ONLINE_PORTAL]',
      { method: { type: 'string' } },
      [['--method M', 'pick the method too']],
      (p, id, v) => p.service.ready(id, operator(), str(v.method)),
    ),
    action(
      'record',
      "record the state's answer (or that the packet shipped: SUBMITTED)",
      'submissions record ID SUBMITTED|UNDER_REVIEW|ACTION_REQUIRED|ACCEPTED|REJECTED|LIEN_PERFECTED ' +
        '[--application-number N] [--feedback TEXT] [--error TEXT] [--note TEXT] [--perfected]',
      {
        'application-number': { type: 'string' },
        feedback: { type: 'string' },
        error: { type: 'string' },
        note: { type: 'string' },
        perfected: { type: 'boolean' },
      },
      [
        ['--application-number N', "the state's number"],
        ['--feedback TEXT', "the state's message (required for ACTION_REQUIRED)"],
        ['--error TEXT', 'why it failed (REJECTED)'],
        ['--note TEXT', 'kept in the history'],
        ['--perfected', 'ACCEPTED: the lien is perfected too'],
      ],
      (p, id, v, rest) =>
        p.service.record(id, operator(), {
          status: rest[0] as RecordInput['status'],
          applicationNumber: str(v['application-number']),
          feedbackMessage: str(v.feedback),
          error: str(v.error),
          note: str(v.note),
          perfected: v.perfected === true,
        }),
      [2, 2],
    ),
    action(
      'request-followup',
      'ask the client for more documents (ACTION_REQUIRED with the message)',
      'submissions request-followup ID --message TEXT',
      { message: { type: 'string' } },
      [['--message TEXT', 'what the state needs (required)']],
      (p, id, v) => {
        const m = str(v.message);
        if (!m) throw new UsageError('--message TEXT is required');
        return p.service.requestFollowUp(id, operator(), m);
      },
    ),
    action(
      'simulate',
      "play a sandbox carrier event on a MAIL packet's shipment (delivered moves PENDING to SUBMITTED)",
      'submissions simulate ID pre_transit|in_transit|out_for_delivery|delivered|return_to_sender|failure',
      {},
      [],
      (p, id, _v, rest) => p.simulate(id, rest[0]!),
      [2, 2],
    ),
    {
      name: 'poll-shipments',
      summary: "ask the carrier for new tracking events of MAIL packets' shipments now (one round)",
      usage: 'submissions poll-shipments',
      options: { ...ENGINE_OPTIONS },
      optionHelp: [...ENGINE_OPTION_HELP],
      async run({ values }: { values: Values }) {
        await withEngine(values, async (engine) => show(await plugin(engine).pollShipments()));
      },
    },
    action(
      'cancel',
      'cancel a submission before a final status',
      'submissions cancel ID [--reason TEXT]',
      { reason: { type: 'string' } },
      [['--reason TEXT', 'kept in the history']],
      (p, id, v) => p.service.cancelAsOperator(id, operator(), str(v.reason)),
    ),
  ],
};
