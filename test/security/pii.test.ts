import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { DataSource } from 'typeorm';
import { HttpKeyProvider, PiiCodec, type DataKeys } from '../../core/crypto/index.js';
import { open as openSealed, seal } from '../../core/crypto/aead.js';
import { DIALECTS, dropSchema, PG_URL, startTestEngine, type Dialect, type TestEngine } from '../helpers/engine.js';
import { accountData, createEntry, makeVin, waitForStatus } from '../http/support.js';

const CLI = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));
const SSN = '987-65-4321';
const DOB = '1975-11-23';
const DL = 'D7734219Q';
const PII = [SSN, DOB, DL];

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('TITLED_') && k !== 'DATABASE_URL'),
  );
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d;
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d;
  });
  return new Promise((res) => child.once('close', (code) => res({ code, out })));
}

/** Every byte PostgreSQL or SQLite holds of the schema's rows that may carry PII, as text. */
async function storedText(t: TestEngine, dialect: Dialect, schema: string): Promise<string> {
  if (dialect === 'sqlite') {
    return readdirSync(t.dataDir)
      .filter((f) => f.startsWith('titled.sqlite'))
      .map((f) => readFileSync(join(t.dataDir, f)).toString('latin1'))
      .join('\n');
  }
  const ds = new DataSource({ type: 'postgres', url: PG_URL, schema, extra: { options: `-c search_path=${schema}` } });
  await ds.initialize();
  try {
    const parts: unknown[] = [];
    for (const table of ['entries', 'jobs', 'idempotency_keys', 'data_keys'])
      parts.push(await ds.query(`SELECT * FROM "${schema}"."${table}"`));
    return JSON.stringify(parts);
  } finally {
    await ds.destroy();
  }
}

/** The default master key: a key file in dataDir (a TITLED_MASTER_KEY in the environment removed). */
const KEY_FILE_CONFIG = { stages: ['intake'], encryption: { masterKey: null } };
const mode = (p: string) => statSync(p).mode & 0o777;

for (const dialect of DIALECTS) {
  describe(`security: PII encrypted at rest (${dialect})`, function () {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    let t: TestEngine;
    let dataDir: string;
    const cfg = dialect === 'postgres' ? { databaseUrl: PG_URL, databaseSchema: schema } : {};

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'titled-pii-'));
      // the default master key: a key file in dataDir
      t = await startTestEngine({ dialect, schema, dataDir, config: KEY_FILE_CONFIG });
    });
    after(async () => {
      await t?.stop();
      rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres') await dropSchema(schema);
    });

    it('SSN, DOB, license number: GET returns them; the stored rows, SQLite file and WAL do not', async () => {
      const id = await createEntry(t, { account_data: accountData(makeVin(), { ssn: SSN, dob: DOB, dl: DL }) });
      const e = await waitForStatus(t, id);
      const b = e.account_data.loan.borrower[0];
      expect([b.ssn, b.dob, b.dlid.number]).to.deep.equal(PII);
      const raw = await storedText(t, dialect, schema);
      expect(raw).to.include('enc:pii:1:');
      for (const v of PII) expect(raw, v).not.to.include(v);
      // what the stages read (sources) and the list answer are opened too
      const list = await t.request('GET', '/title');
      expect(list.body.entries?.[0]?.account_data?.loan?.borrower?.[0]?.ssn ?? JSON.stringify(list.body)).to.include(
        SSN,
      );
    });

    it('a client string that only looks sealed comes back as sent', async () => {
      const tricky = 'enc:pii:1:AAAA';
      const data = accountData(makeVin()) as { vehicle: Record<string, unknown> };
      data.vehicle.color = tricky;
      const id = await createEntry(t, { account_data: data });
      const e = await waitForStatus(t, id);
      expect(e.account_data.vehicle.color).to.equal(tricky);
    });

    it('data files and key files are created 0600', function () {
      if (dialect !== 'sqlite') this.skip();
      for (const f of ['titled.sqlite', 'titled.sqlite-wal', 'master.key', 'secret'])
        expect(mode(join(dataDir, f)), f).to.equal(0o600);
    });

    it('extraction and pull JSON objects are sealed on disk, read back whole (also presigned)', async () => {
      const org = (await t.engine.orgs.byName(t.org.name))!;
      const key = `${org.id}/e1/documents/d1/extraction.json`;
      const text = JSON.stringify({ text: `DOB ${DOB} DLN ${DL}`, person: { ssn: SSN } });
      await t.engine.objects.put(key, text);
      const file = join(dataDir, 'objects', key);
      const disk = readFileSync(file).toString('latin1');
      for (const v of PII) expect(disk).not.to.include(v);
      expect(mode(file)).to.equal(0o600);
      expect((await t.engine.objects.get(key))!.toString()).to.equal(text);
      const res = await fetch(t.engine.objects.presign(key, 60));
      expect(await res.text()).to.equal(text);
    });

    it('titled keys rotate-data and rotate-master re-encrypt; GET still answers, also after a restart', async () => {
      const id = await createEntry(t, { account_data: accountData(makeVin(), { ssn: SSN, dob: DOB, dl: DL }) });
      await waitForStatus(t, id);
      const env: Record<string, string> = { TITLED_DATA_DIR: dataDir };
      if (dialect === 'postgres') {
        const cfgFile = join(dataDir, 'cli.json');
        writeFileSync(cfgFile, JSON.stringify(cfg));
        env.TITLED_CONFIG = cfgFile;
      }
      const data = await runCli(['keys', 'rotate-data', '--org', t.org.name], env);
      expect(data.code, data.out).to.equal(0);
      expect(data.out).to.match(/data key version 2 is active/);
      // the rows (free pages of a SQLite file may hold version-1 ciphertext until reused: sealed, the key is kept)
      const rows = JSON.stringify(
        await t.engine.db.query('SELECT doc, sources FROM entries UNION ALL SELECT input, NULL FROM jobs'),
      );
      expect(rows).to.include('enc:pii:2:');
      expect(rows).not.to.match(/enc:pii:1:/);
      const before = dialect === 'sqlite' ? JSON.parse(readFileSync(join(dataDir, 'master.key'), 'utf8')).current : '';
      const master = await runCli(['keys', 'rotate-master'], env);
      expect(master.code, master.out).to.equal(0);
      if (dialect === 'sqlite') {
        const file = JSON.parse(readFileSync(join(dataDir, 'master.key'), 'utf8'));
        expect(file.current).not.to.equal(before);
        expect(Object.keys(file.keys)).to.deep.equal([file.current]);
      }
      expect((await t.request('GET', `/title/${id}`)).body.account_data.loan.borrower[0].ssn).to.equal(SSN);
      const key = t.org.key;
      await t.stop();
      t = await startTestEngine({ dialect, schema, dataDir, config: KEY_FILE_CONFIG });
      const again = await t.request('GET', `/title/${id}`, { key });
      expect(again.status).to.equal(200);
      expect(again.body.account_data.loan.borrower[0].dlid.number).to.equal(DL);
    });
  });
}

describe('security: PII with encryption off (the check above can fail)', () => {
  it('the SQLite file holds the SSN in plain text', async () => {
    const t = await startTestEngine({ config: { stages: ['intake'], encryption: { enabled: false } } });
    try {
      const id = await createEntry(t, { account_data: accountData(makeVin(), { ssn: SSN }) });
      await waitForStatus(t, id);
      const raw = readdirSync(t.dataDir)
        .filter((f) => f.startsWith('titled.sqlite'))
        .map((f) => readFileSync(join(t.dataDir, f)).toString('latin1'))
        .join('');
      expect(raw).to.include(SSN);
      // a client's string that looks sealed, stored plain, reads back as written
      const data = accountData(makeVin()) as { vehicle: Record<string, unknown> };
      data.vehicle.color = 'enc:pii:1:AAAA';
      const e = await waitForStatus(t, await createEntry(t, { account_data: data }));
      expect(e.account_data.vehicle.color).to.equal('enc:pii:1:AAAA');
    } finally {
      await t.stop();
    }
  });
});

describe('security: sealed text opens to the text as it was', () => {
  it('stringifyWith: the sealed text holds no PII and opens to the value as JSON', async () => {
    const active = { version: 3, key: randomBytes(32) };
    const keys = {
      active: async () => active,
      key: async (_org: string, version: number) => {
        if (version !== active.version) throw new Error(`no key version ${version}`);
        return active.key;
      },
    } as unknown as DataKeys;
    const pii = new PiiCodec(keys, true);
    const value = {
      account_data: {
        loan: { borrower: [{ name: 'Jane Doe', ssn: SSN, dob: DOB, dlid: { number: DL, state: 'TX' } }] },
        vehicle: { color: 'enc:pii:1:AAAA', note: '"ssn": in a string' },
      },
      account_sources: [{ id: 'pull:state', record: { owners: [{ license_number: DL, dob: DOB }] } }],
    };
    const sealed = pii.stringifyWith('org-1', active, value);
    const plain = JSON.stringify(value);
    for (const p of PII) expect(sealed).not.to.include(p);
    expect(sealed).not.to.include('enc:pii:1:AAAA');
    expect(await pii.open('org-1', sealed)).to.equal(plain);
    // nothing to seal: the plain text
    expect(pii.stringifyWith('org-1', active, { vehicle: { year: 2020 } })).to.equal('{"vehicle":{"year":2020}}');
  });
});

/** A KMS-style key service: master keys in memory, the HttpKeyProvider's protocol. */
function startKms(): Promise<{ server: Server; url: string; calls: string[] }> {
  const masters = new Map<string, Buffer>();
  let current = '';
  const rotate = () => {
    current = `kms-${masters.size + 1}`;
    masters.set(current, randomBytes(32));
  };
  rotate();
  const calls: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d;
    });
    req.on('end', () => {
      calls.push(`${req.method} ${req.url}`);
      if (req.headers.authorization !== 'Bearer kms-token') return void res.writeHead(401).end();
      const b = body ? JSON.parse(body) : {};
      let out: unknown;
      if (req.url === '/wrap')
        out = { keyId: current, ciphertext: seal(masters.get(current)!, Buffer.from(b.plaintext, 'base64'), 'kms') };
      else if (req.url === '/unwrap')
        out = { plaintext: openSealed(masters.get(b.keyId)!, b.ciphertext, 'kms').toString('base64') };
      else if (req.url === '/rotate') out = (rotate(), { keyId: current });
      else if (req.url === '/current') out = { keyId: current };
      else if (req.url === '/retire')
        out = ([...masters.keys()].filter((k) => k !== current).forEach((k) => masters.delete(k)), {});
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () =>
      r({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, calls }),
    ),
  );
}

describe('security: the http key provider (a local KMS-style server)', () => {
  it('wraps data keys with the service, rotates the master there, and reads back after a restart', async () => {
    const kms = await startKms();
    const dataDir = mkdtempSync(join(tmpdir(), 'titled-kms-'));
    const config = { stages: ['intake'], encryption: { provider: 'http', http: { url: kms.url, token: 'kms-token' } } };
    let t = await startTestEngine({ dataDir, config });
    try {
      const id = await createEntry(t, { account_data: accountData(makeVin(), { ssn: SSN }) });
      await waitForStatus(t, id);
      expect(kms.calls).to.include('POST /wrap');
      expect(existsSync(join(dataDir, 'master.key'))).to.equal(false);
      const r = await t.engine.keyRotation.rotateMaster();
      expect(r.masterKeyId).to.equal('kms-2');
      expect(kms.calls).to.include('POST /retire');
      const key = t.org.key;
      await t.stop();
      t = await startTestEngine({ dataDir, config });
      const res = await t.request('GET', `/title/${id}`, { key });
      expect(res.status).to.equal(200);
      expect(res.body.account_data.loan.borrower[0].ssn).to.equal(SSN);
      expect(kms.calls.filter((c) => c === 'POST /unwrap').length).to.be.greaterThan(0);
      // a wrong token: the service refuses, and so does the provider
      await new HttpKeyProvider({ url: kms.url, token: 'wrong', timeoutMs: 2000 }).currentId().then(
        () => expect.fail('accepted'),
        (e: Error) => expect(e.message).to.match(/401/),
      );
    } finally {
      await t.stop();
      kms.server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('security: two daemons on one PostgreSQL database need one master key', function () {
  if (!DIALECTS.includes('postgres')) return;
  it('a daemon with another key file refuses to start, naming the fix; with one masterKey both read PII', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const masterKey = randomBytes(32).toString('base64');
    const a = await startTestEngine({
      dialect: 'postgres',
      schema,
      config: { stages: ['intake'], encryption: { masterKey } },
    });
    let b: TestEngine | undefined;
    try {
      const id = await createEntry(a, { account_data: accountData(makeVin(), { ssn: SSN }) });
      await waitForStatus(a, id);
      const refused = await startTestEngine({
        dialect: 'postgres',
        schema,
        config: { stages: ['intake'], encryption: { masterKey: null } },
      }).then(
        async (t) => {
          await t.stop();
          return null;
        },
        (e: Error) => e,
      );
      expect(refused?.message).to.match(/same encryption.masterKey/);
      b = await startTestEngine({
        dialect: 'postgres',
        schema,
        config: { stages: ['intake'], encryption: { masterKey } },
      });
      const res = await b.request('GET', `/title/${id}`, { key: a.org.key });
      expect(res.status).to.equal(200);
      expect(res.body.account_data.loan.borrower[0].ssn).to.equal(SSN);
      expect(existsSync(join(a.dataDir, 'master.key'))).to.equal(false);
    } finally {
      await b?.stop();
      await a.stop();
      await dropSchema(schema);
    }
  });
});
