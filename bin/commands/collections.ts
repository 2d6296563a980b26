import type { Engine } from '../../core/index.js';
import { TitledError } from '../../core/index.js';
import type { TitleCollectionPlugin, TrackingStatus } from '../../plugins/title-collection/index.js';
import {
  ENGINE_OPTION_HELP,
  ENGINE_OPTIONS,
  UsageError,
  print,
  withEngine,
  type CommandGroup,
  type Values,
} from '../command.js';

const SIMULATED = ['pre_transit', 'in_transit', 'out_for_delivery', 'delivered', 'return_to_sender', 'failure'];

function plugin(engine: Engine): TitleCollectionPlugin {
  const p = engine.plugins.find((x) => x.name === 'title-collection');
  if (!p)
    throw new TitledError(
      'NOT_IMPLEMENTED',
      'the title-collection plugin is not enabled (add "title-collection" to the config\'s stages)',
    );
  return p as TitleCollectionPlugin;
}

function required(values: Values, name: string, flag: string): string {
  const v = values[name];
  if (typeof v !== 'string' || !v) throw new UsageError(`${flag} is required`);
  return v;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const COMMON = { ...ENGINE_OPTIONS, org: { type: 'string' as const }, entry: { type: 'string' as const } };
const COMMON_HELP: [string, string][] = [
  ['--org NAME', 'the organization (required)'],
  ['--entry ID', 'the entry id (required)'],
];

async function act<T>(
  values: Values,
  fn: (tc: TitleCollectionPlugin, p: Awaited<ReturnType<Engine['principalFor']>>, id: string) => Promise<T>,
): Promise<T> {
  const org = required(values, 'org', '--org NAME');
  const id = required(values, 'entry', '--entry ID');
  return withEngine(values, async (engine) =>
    fn(plugin(engine), await engine.principalFor(org, { userId: 'cli' }), id),
  );
}

export const collections: CommandGroup = {
  name: 'collections',
  summary: 'physical title collections: log a received title, mark one lost, play sandbox carrier events',
  commands: [
    {
      name: 'receive',
      summary: "the receiving facility logged the paper title (matched against the entry's VIN and title number)",
      usage: 'collections receive --org NAME --entry ID [--title-number N] [--vin VIN]',
      details:
        'Give at least one of --title-number and --vin, read from the paper title;\n' +
        'a mismatch is refused with the reason (exit 1).\n' +
        'physical_title_status becomes received.',
      options: { ...COMMON, 'title-number': { type: 'string' }, vin: { type: 'string' } },
      optionHelp: [
        ...COMMON_HELP,
        ['--title-number N', 'the number on the received title'],
        ['--vin VIN', 'the VIN on the received title'],
        ...ENGINE_OPTION_HELP,
      ],
      async run({ values }) {
        const got = { title_number: str(values['title-number']), vin: str(values.vin) };
        if (!got.title_number && !got.vin)
          throw new UsageError('give --title-number N or --vin VIN (read from the received title)');
        const view = await act(values, (tc, p, id) => tc.receive(p, id, got));
        print(
          `entry ${String(values.entry)}: title received (collection ${view.collection_id}); ` +
            'physical_title_status is received',
        );
      },
    },
    {
      name: 'lost',
      summary: 'the original title is lost: physical_title_status unavailable, duplicate-title forms generated',
      usage: 'collections lost --org NAME --entry ID',
      options: COMMON,
      optionHelp: [...COMMON_HELP, ...ENGINE_OPTION_HELP],
      async run({ values }) {
        const r = await act(values, (tc, p, id) => tc.lost(p, id));
        print(
          `entry ${String(r.entryId)}: physical_title_status is ${String(r.physical_title_status)}; ` +
            `forms ${String(r.forms)}` +
            (r.form_duplicate_title ? '; form_duplicate_title generated' : ''),
        );
      },
    },
    {
      name: 'simulate',
      summary: "sandbox carrier: play a tracking event on an entry's collection",
      usage: `collections simulate --org NAME --entry ID --event ${SIMULATED.join('|')}`,
      details:
        'in_transit and out_for_delivery are acceptance scans (physical_title_status in_transit);\n' +
        'delivered and the others are recorded only.',
      options: { ...COMMON, event: { type: 'string' } },
      optionHelp: [...COMMON_HELP, ['--event E', 'the carrier event'], ...ENGINE_OPTION_HELP],
      async run({ values }) {
        const event = required(values, 'event', '--event E');
        if (!SIMULATED.includes(event)) throw new UsageError(`--event must be one of ${SIMULATED.join(', ')}`);
        const r = await act(values, (tc, p, id) => tc.simulate(p, id, event as TrackingStatus));
        print(
          `entry ${String(values.entry)}: ${event} ${r.applied ? 'applied' : 'already seen'}; ` +
            `physical_title_status is ${String(r.physical_title_status ?? 'none')}`,
        );
      },
    },
  ],
};
