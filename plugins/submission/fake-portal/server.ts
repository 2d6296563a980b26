/**
 * A fake state title portal: a small web app the tests and the sandbox file
 * against in a real browser (docs/submission.md, "The fake state portal").
 * Sign-in, a three-page application with validation, document upload, a
 * review page, an application-status page that moves on each status check,
 * follow-up requests, a CAPTCHA switch and injected failures, all set
 * through `POST /__control` (JSON). It keeps everything in memory.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseForm, readBody } from './forms.js';
import { applicationPage, documentsPage, loginPage, ownerPage, reviewPage, searchPage, vehiclePage } from './pages.js';

/** accept; followup (asks for documents once, then accepts); reject; hold (stays in review). */
export type Scenario = 'accept' | 'followup' | 'reject' | 'hold';
export type PortalStatus = 'RECEIVED' | 'IN_REVIEW' | 'ACTION_NEEDED' | 'APPROVED' | 'DENIED';

export interface Application {
  no: string;
  reference: string;
  fields: Record<string, string>;
  documents: { filename: string; bytes: number }[];
  status: PortalStatus;
  feedback?: string;
  scenario: Scenario;
  rounds: number;
  followUps: { filename: string; bytes: number }[][];
  createdAt: string;
}

export interface PortalControl {
  /** A CAPTCHA on the sign-in page (no automation gets past it). */
  captcha: boolean;
  /** The next N form posts answer 503. */
  failNext: number;
  /** The next N final submits record the application, then answer 500 (the answer is lost). */
  failAfterSubmit: number;
  /** Outcome by VIN; `defaultScenario` for others. */
  scenarios: Record<string, Scenario>;
  defaultScenario: Scenario;
}

interface Session {
  user: string;
  draft: Record<string, string>;
  docs: { filename: string; bytes: number }[];
}

const VIN = /^[A-HJ-NPR-Z0-9]{17}$/;

export class FakePortal {
  readonly applications = new Map<string, Application>();
  control: PortalControl = {
    captcha: false,
    failNext: 0,
    failAfterSubmit: 0,
    scenarios: {},
    defaultScenario: 'accept',
  };
  private readonly sessions = new Map<string, Session>();
  private server?: Server;
  private seq = 0;
  url = '';

  constructor(private readonly creds = { username: 'titled', password: 'titled' }) {}

  async start(port = 0): Promise<string> {
    this.server = createServer(
      (req, res) => void this.handle(req, res).catch((e: Error) => this.send(res, 500, `error: ${e.message}`)),
    );
    await new Promise<void>((ok) => this.server!.listen(port, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((ok) => this.server!.close(ok));
    this.server = undefined;
  }

  private send(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(html);
  }

  private redirect(res: ServerResponse, to: string, headers: Record<string, string> = {}): void {
    res.writeHead(303, { location: to, ...headers });
    res.end();
  }

  private session(req: IncomingMessage): Session | undefined {
    const sid = /(?:^|;\s*)sid=([a-f0-9]+)/.exec(req.headers.cookie ?? '')?.[1];
    return sid ? this.sessions.get(sid) : undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://portal');
    const path = url.pathname;
    if (path.startsWith('/__control')) return this.controlRoute(req, res, path);
    if (req.method === 'POST' && this.control.failNext > 0) {
      this.control.failNext--;
      await readBody(req);
      return this.send(res, 503, '<h1>Service temporarily unavailable</h1>');
    }
    if (path === '/' || path === '/login')
      return req.method === 'POST' ? this.login(req, res) : this.send(res, 200, loginPage(this.control.captcha));
    const s = this.session(req);
    if (!s) return this.redirect(res, '/login');
    if (path.startsWith('/apply/')) return this.apply(req, res, s, path.slice(7));
    if (path === '/applications') {
      const ref = url.searchParams.get('reference') ?? '';
      return this.send(res, 200, searchPage([...this.applications.values()].filter((a) => a.reference === ref)));
    }
    const m = /^\/application\/([A-Z0-9-]+)(\/status|\/followup)?$/.exec(path);
    const app = m ? this.applications.get(m[1]!) : undefined;
    if (!app) return this.send(res, 404, '<h1>Not found</h1>');
    if (m![2] === '/followup' && req.method === 'POST') return this.followUp(req, res, app);
    if (m![2] === '/status') advance(app);
    return this.send(res, 200, applicationPage({ ...app, vin: app.fields.vin ?? '' }, !m![2]));
  }

  private async login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { fields } = await parseForm(req);
    if (this.control.captcha)
      return this.send(res, 403, loginPage(true, 'The characters you typed do not match the picture.'));
    if (fields.username !== this.creds.username || fields.password !== this.creds.password) {
      return this.send(res, 401, loginPage(false, 'Wrong user name or password.'));
    }
    const sid = randomBytes(16).toString('hex');
    this.sessions.set(sid, { user: fields.username, draft: {}, docs: [] });
    this.redirect(res, '/apply/vehicle', { 'set-cookie': `sid=${sid}; Path=/; HttpOnly` });
  }

  private async apply(req: IncomingMessage, res: ServerResponse, s: Session, step: string): Promise<void> {
    const get = req.method !== 'POST';
    if (step === 'vehicle') {
      if (get) return this.send(res, 200, vehiclePage(s.draft));
      const { fields } = await parseForm(req);
      Object.assign(s.draft, pick(fields, ['vin', 'year', 'make']));
      if (!VIN.test(s.draft.vin ?? ''))
        return this.send(res, 422, vehiclePage(s.draft, 'VIN must be 17 characters (no I, O or Q).'));
      if (!/^(19|20)\d\d$/.test(s.draft.year ?? ''))
        return this.send(res, 422, vehiclePage(s.draft, 'Model year must be a 4-digit year.'));
      return this.redirect(res, '/apply/owner');
    }
    if (step === 'owner') {
      if (get) return this.send(res, 200, ownerPage(s.draft));
      const { fields } = await parseForm(req);
      Object.assign(s.draft, pick(fields, ['owner_name', 'lienholder_name', 'reference']));
      const missing = ['owner_name', 'lienholder_name', 'reference'].filter((k) => !s.draft[k]?.trim());
      if (missing.length) return this.send(res, 422, ownerPage(s.draft, `Required: ${missing.join(', ')}.`));
      return this.redirect(res, '/apply/documents');
    }
    if (step === 'documents') {
      if (get) return this.send(res, 200, documentsPage(s.docs.length));
      const { files } = await parseForm(req);
      s.docs.push(...files.map((f) => ({ filename: f.filename, bytes: f.bytes.length })));
      if (!s.docs.length) return this.send(res, 422, documentsPage(0, 'Attach at least one document.'));
      return this.redirect(res, '/apply/review');
    }
    if (step === 'review' && get)
      return this.send(
        res,
        200,
        reviewPage(
          s.draft,
          s.docs.map((d) => d.filename),
        ),
      );
    if (step === 'submit' && !get) return this.submit(req, res, s);
    return this.send(res, 404, '<h1>Not found</h1>');
  }

  private async submit(req: IncomingMessage, res: ServerResponse, s: Session): Promise<void> {
    await readBody(req);
    if (!VIN.test(s.draft.vin ?? '') || !s.draft.reference || !s.docs.length)
      return this.redirect(res, '/apply/vehicle');
    const no = `APP-${String(++this.seq).padStart(6, '0')}`;
    const vin = s.draft.vin!;
    this.applications.set(no, {
      no,
      reference: s.draft.reference,
      fields: { ...s.draft },
      documents: s.docs,
      status: 'RECEIVED',
      scenario: this.control.scenarios[vin] ?? this.control.defaultScenario,
      rounds: 0,
      followUps: [],
      createdAt: new Date().toISOString(),
    });
    s.draft = {};
    s.docs = [];
    if (this.control.failAfterSubmit > 0) {
      this.control.failAfterSubmit--;
      return this.send(res, 500, '<h1>Internal error</h1>');
    }
    this.redirect(res, `/application/${no}`);
  }

  private async followUp(req: IncomingMessage, res: ServerResponse, app: Application): Promise<void> {
    const { files } = await parseForm(req);
    if (app.status !== 'ACTION_NEEDED')
      return this.send(res, 409, applicationPage({ ...app, vin: app.fields.vin ?? '' }, false));
    if (!files.length) return this.send(res, 422, '<p class="error" id="error">Attach the requested documents.</p>');
    app.followUps.push(files.map((f) => ({ filename: f.filename, bytes: f.bytes.length })));
    app.rounds++;
    app.status = 'RECEIVED';
    delete app.feedback;
    this.redirect(res, `/application/${app.no}`);
  }

  private async controlRoute(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method === 'POST' && path === '/__control') {
      const body = JSON.parse((await readBody(req)).toString('utf8') || '{}') as Partial<PortalControl>;
      this.control = { ...this.control, ...body, scenarios: { ...this.control.scenarios, ...body.scenarios } };
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ control: this.control, applications: [...this.applications.values()] }));
  }
}

/** One status check moves an application one step along its scenario. */
function advance(a: Application): void {
  if (a.status === 'RECEIVED') a.status = 'IN_REVIEW';
  else if (a.status === 'IN_REVIEW') {
    if (a.scenario === 'hold') return;
    if (a.scenario === 'reject') {
      a.status = 'DENIED';
      a.feedback = 'The lienholder name does not match the title record.';
    } else if (a.scenario === 'followup' && a.rounds === 0) {
      a.status = 'ACTION_NEEDED';
      a.feedback = "Upload a copy of the owner's driver license.";
    } else a.status = 'APPROVED';
  }
}

function pick(o: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]!]));
}

/** `node dist/plugins/submission/fake-portal/server.js [port]`: runs the fake portal alone. */
if (process.argv[1]?.endsWith('fake-portal/server.js')) {
  const p = new FakePortal();
  console.log(await p.start(Number(process.argv[2] ?? 0)));
}
