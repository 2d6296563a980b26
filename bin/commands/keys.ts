import {
  ENGINE_OPTION_HELP,
  ENGINE_OPTIONS,
  UsageError,
  isoTime,
  print,
  table,
  withEngine,
  type CommandGroup,
} from '../command.js';

export const keys: CommandGroup = {
  name: 'keys',
  summary: 'manage API keys; rotate the encryption keys of PII at rest',
  commands: [
    {
      name: 'create',
      summary: 'create an API key for an organization (printed once, alone on the last line)',
      usage: 'keys create --org NAME [--group G ...] [--label L] [--role operator|viewer|host]',
      details:
        'The secret is shown only now; only its hash is stored. Scripts: KEY=$(titled keys create --org acme | tail -1)\n' +
        'A key with groups sees only entries of those groups; without --group it sees every entry of its organization.',
      options: {
        ...ENGINE_OPTIONS,
        org: { type: 'string' },
        group: { type: 'string', multiple: true },
        label: { type: 'string' },
        role: { type: 'string' },
      },
      optionHelp: [
        ['--org NAME', 'the organization the key acts for (required)'],
        ['--group G', 'restrict the key to a user group (repeatable)'],
        ['--label L', 'a note to recognize the key by'],
        [
          '--role R',
          'operator (default: reads and acts), viewer (read-only), host (console operator of every organization)',
        ],
        ...ENGINE_OPTION_HELP,
      ],
      async run({ values }) {
        const role = values.role ?? 'operator';
        if (role !== 'operator' && role !== 'viewer' && role !== 'host')
          throw new UsageError('--role must be operator, viewer or host');
        const orgName = values.org;
        if (typeof orgName !== 'string' || !orgName) throw new UsageError('--org NAME is required');
        const groups = (values.group as string[] | undefined) ?? [];
        if (groups.some((g) => !g)) throw new UsageError('--group needs a non-empty value');
        await withEngine(values, async (engine) => {
          const org = await engine.orgs.byName(orgName);
          if (!org) throw new Error(`no organization '${orgName}' (create it: titled orgs create ${orgName})`);
          const label = typeof values.label === 'string' ? values.label : undefined;
          const issued = await engine.keys.create(org.id, { groups, label, role });
          print(
            `created key ${issued.id} for ${org.name}${issued.groups ? ` (groups: ${issued.groups.join(', ')})` : ''}${label ? ` label: ${label}` : ''}` +
              (issued.role === 'operator' ? '' : ` role: ${issued.role}`),
            'the key is shown only once; use it as "Authorization: Bearer <key>":',
            issued.key,
          );
        });
      },
    },
    {
      name: 'list',
      summary: 'list the keys of an organization (never shows secrets)',
      usage: 'keys list --org NAME [--json]',
      options: { ...ENGINE_OPTIONS, org: { type: 'string' }, json: { type: 'boolean' } },
      optionHelp: [
        ['--org NAME', 'the organization (required)'],
        ['--json', 'print one JSON object per line'],
        ...ENGINE_OPTION_HELP,
      ],
      async run({ values }) {
        const orgName = values.org;
        if (typeof orgName !== 'string' || !orgName) throw new UsageError('--org NAME is required');
        await withEngine(values, async (engine) => {
          const org = await engine.orgs.byName(orgName);
          if (!org) throw new Error(`no organization '${orgName}'`);
          const list = await engine.keys.list(org.id);
          if (values.json) print(...list.map((k) => JSON.stringify(k)));
          else if (list.length === 0)
            print(`organization ${org.name} has no keys (create one: titled keys create --org ${org.name})`);
          else {
            print(
              ...table(
                ['ID', 'STATUS', 'ROLE', 'GROUPS', 'LABEL', 'CREATED', 'REVOKED'],
                list.map((k) => [
                  k.id,
                  k.revokedAt ? 'revoked' : 'active',
                  k.role,
                  k.groups?.join(',') ?? '*',
                  k.label ?? '-',
                  isoTime(k.createdAt),
                  isoTime(k.revokedAt),
                ]),
              ),
            );
          }
        });
      },
    },
    {
      name: 'revoke',
      summary: 'revoke an API key by its id (tk_...)',
      usage: 'keys revoke ID',
      details:
        'ID is the part of the key before the dot. A running daemon stops accepting the key within auth.keyCacheMs.',
      options: { ...ENGINE_OPTIONS },
      optionHelp: ENGINE_OPTION_HELP,
      positionals: [1, 1],
      async run({ values, positionals }) {
        // Accept a whole key too: the id is what comes before the dot.
        const id = positionals[0]!.split('.')[0]!;
        if (!/^tk_[0-9a-f]{16}$/.test(id)) throw new UsageError(`'${id}' is not a key id (tk_ and 16 hex digits)`);
        await withEngine(values, async (engine) => {
          await engine.keys.revoke(id);
          print(`revoked key ${id}`);
        });
      },
    },
    {
      name: 'rotate-master',
      summary: "make a new master key current and wrap every organization's data key with it",
      usage: 'keys rotate-master',
      details:
        'Local key file: a new key is added, every data key is wrapped again, then the old key is removed from the file.\n' +
        'encryption.masterKey: set the new key, move the old one to encryption.previousMasterKeys, run this, then drop it.\n' +
        'http provider: the key service makes the new key (POST /rotate).',
      options: { ...ENGINE_OPTIONS },
      optionHelp: ENGINE_OPTION_HELP,
      async run({ values }) {
        await withEngine(values, async (engine) => {
          const r = await engine.keyRotation.rotateMaster();
          print(`master key ${r.masterKeyId} is current; ${r.dataKeys} data key(s) wrapped with it`);
        });
      },
    },
    {
      name: 'rotate-data',
      summary: 'make a new data key active for an organization and re-encrypt its stored PII with it',
      usage: 'keys rotate-data --org NAME',
      details:
        'Entries, queued jobs and kept idempotent replies are sealed again. The old version is kept (retired) so objects\n' +
        'sealed with it and writes a running daemon made with it (for up to encryption.activeKeyCacheMs) stay readable.',
      options: { ...ENGINE_OPTIONS, org: { type: 'string' } },
      optionHelp: [['--org NAME', 'the organization (required)'], ...ENGINE_OPTION_HELP],
      async run({ values }) {
        const orgName = values.org;
        if (typeof orgName !== 'string' || !orgName) throw new UsageError('--org NAME is required');
        await withEngine(values, async (engine) => {
          const org = await engine.orgs.byName(orgName);
          if (!org) throw new Error(`no organization '${orgName}'`);
          const r = await engine.keyRotation.rotateData(org.id);
          print(`data key version ${r.version} is active for ${org.name}; ${r.resealed} row(s) re-encrypted`);
        });
      },
    },
  ],
};
