/**
 * The operator console in a real headless Chromium (playwright-core driving
 * /usr/bin/chromium): every page and action, by keyboard where it matters,
 * with screenshots in test-artifacts/console/.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';
import { packageRoot } from '../../core/paths.js';
import { eventually, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { accountsCsv } from '../helpers/vins.js';
import { corpusDoc, startFileServer, type FileServer } from '../ocr/support.js';
import { receiver, type Receiver } from '../webhook/support.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(packageRoot, 'test-artifacts', 'console');
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const VIN = '1HGCM82633A004352';

describe('operator console (headless Chromium)', function () {
  this.timeout(300_000);
  let browser: Browser;
  let t: TestEngine;
  let files: FileServer;
  let hooks: Receiver;
  let entryId: string;
  let operatorKey: string;

  const shot = async (page: Page, name: string) => {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };
  const signIn = async (key: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    await page.goto(`${t.url}/console`);
    expect(new URL(page.url()).pathname).to.equal('/console/login');
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('API key').press('Enter');
    await page.waitForURL(/\/console\/entries/);
    return page;
  };
  /** Every visible form control has a label (a <label for>, aria-label, or a wrapping label). */
  const unlabelled = (page: Page) =>
    page.$$eval('input:not([type=hidden]), select, textarea, button', (els) =>
      els
        .filter((el) => {
          const e = el as unknown as {
            tagName: string;
            textContent: string | null;
            labels?: unknown[] | null;
            getAttribute(n: string): string | null;
          };
          if (e.tagName === 'BUTTON') return !(e.textContent ?? '').trim() && !e.getAttribute('aria-label');
          return !(e.labels && e.labels.length) && !e.getAttribute('aria-label');
        })
        .map((e) => e.outerHTML),
    );

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      // eslint-disable-next-line no-console
      console.log(`    skipped: ${CHROMIUM} is missing (bin/setup installs Debian's chromium)`);
      this.skip();
    }
    mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    files = await startFileServer();
    hooks = await receiver();
    t = await startTestEngine({
      config: {
        allowHosts: ['127.0.0.1'],
        log: { level: 'warn' },
        plugins: { webhook: { retryBaseMs: 20, pollIntervalMs: 20, timeoutMs: 5000 } },
      },
    });
    operatorKey = t.org.key;
    const wh = t.engine.plugins.find((p) => p.name === 'webhook') as unknown as {
      setProfile: (o: string, i: unknown) => Promise<unknown>;
    };
    await wh.setProfile(t.org.name, {
      url: `${hooks.url}/hook`,
      events: ['title.job_status.complete', 'title.account_status.*'],
      auth: { scheme: 'none' },
    });
    const created = await t.request('POST', '/title', {
      body: {
        attachments: [`${files.url}/files/${corpusDoc('title-tx-0-scan').file}`],
        sync_nmvtis: true,
        sync_private: true,
        account_data: {
          vehicle: { vin: VIN, year: 2003, make: 'HONDA', model: 'ACCORD', title: { issuing_state: 'TX' } },
          loan: {
            loan_id: 'LN-42',
            loan_amount: 15000,
            new_lienholder: {
              name: 'First Example Credit Union',
              addr: { street1: '1 Bank Way', city: 'Austin', state: 'TX', zip: '78701' },
            },
            borrower: [
              {
                name_first: 'Jane',
                name_last: 'Quartermaine',
                contact_email: 'jane@example.com',
                addr: { street1: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
              },
            ],
          },
        },
      },
    });
    entryId = created.body.entryId;
    await eventually(
      async () => ['complete', 'error'].includes((await t.request('GET', `/title/${entryId}`)).body.job_status),
      { tries: 2400, everyMs: 50, what: 'job done' },
    );
    await eventually(async () => hooks.ok.length >= 1, { tries: 2000, what: 'job_status.complete webhook' });
  });

  after(async () => {
    await browser?.close();
    await t?.stop();
    await files?.close();
    await hooks?.close();
  });

  it('signs in with an API key (a wrong key is refused with a message) and lists, filters and searches entries', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    await page.goto(`${t.url}/console/entries`);
    await shot(page, '01-sign-in');
    expect(await unlabelled(page)).to.deep.equal([]);
    await page.getByLabel('API key').fill('tk_0000000000000000.notavalidsecretnotavalidsecret');
    await page.keyboard.press('Enter');
    await expect(await page.getByRole('alert').textContent()).to.include('not valid');
    await context.close();

    const p = await signIn(operatorKey);
    const cookies = await p.context().cookies();
    expect(cookies.find((c) => c.name === 'titled_session')?.httpOnly).to.equal(true);
    await shot(p, '02-entries');
    expect(await unlabelled(p)).to.deep.equal([]);
    expect(await p.locator('table.entries tbody tr').count()).to.equal(1);
    // search by borrower name, then by VIN; a miss shows no rows
    await p.getByLabel('Search (VIN, borrower, loan id)').fill('quartermaine');
    await p.getByRole('button', { name: 'Apply' }).click();
    expect(await p.locator('table.entries tbody tr').count()).to.equal(1);
    await p.getByLabel('Search (VIN, borrower, loan id)').fill('nobody-by-this-name');
    await p.getByRole('button', { name: 'Apply' }).click();
    expect(await p.locator('table.entries tbody tr').count()).to.equal(0);
    await p.getByLabel('Search (VIN, borrower, loan id)').fill(VIN.toLowerCase());
    await p.getByLabel('State').selectOption('TX');
    await p.getByRole('button', { name: 'Apply' }).click();
    expect(await p.locator('table.entries tbody tr').count()).to.equal(1);
    await p.getByLabel('State').selectOption('CA');
    await p.getByRole('button', { name: 'Apply' }).click();
    expect(await p.locator('table.entries tbody tr').count()).to.equal(0);
    await shot(p, '03-entries-filtered');
    await p.context().close();
  });

  it('imports a CSV upload (re-upload is safe) and pages through the entries', async () => {
    const p = await signIn(operatorKey);
    await p.getByRole('link', { name: 'Import' }).click();
    await shot(p, '04-import');
    const csv = join(tmpdir(), `console-import-${process.pid}.csv`);
    writeFileSync(
      csv,
      accountsCsv(30, { start: 500 }) + 'NOTAVIN,2020,X,Y,TX,A,B,c@example.com,1 St,Austin,TX,78701,LN-X,1,Bank\n',
    );
    await p.getByLabel('CSV file of accounts').setInputFiles(csv);
    await p.getByRole('button', { name: 'Import' }).click();
    const status = await p.getByRole('status').first().textContent();
    expect(status).to.include('31 rows: 30 created, 0 already present, 1 with errors');
    expect(await p.locator('table.grid tbody tr').first().textContent()).to.include('NOTAVIN');
    await shot(p, '05-import-result');
    await p.getByLabel('CSV file of accounts').setInputFiles(csv);
    await p.getByRole('button', { name: 'Import' }).click();
    expect(await p.getByRole('status').first().textContent()).to.include(
      '31 rows: 0 created, 30 already present, 1 with errors',
    );

    await p.goto(`${t.url}/console/entries?limit=25`);
    expect(await p.locator('table.entries tbody tr').count()).to.equal(25);
    await p.getByRole('link', { name: 'Next page' }).click();
    expect(await p.locator('table.entries tbody tr').count()).to.equal(6);
    expect(await p.getByText('Last page').count()).to.equal(1);
    await shot(p, '06-entries-page-2');
    await p.context().close();
  });

  it('shows an entry: account data with provenance, documents with previews, pulls, fees, forms, timeline and deliveries', async () => {
    const p = await signIn(operatorKey);
    await p.goto(`${t.url}/console/entries?q=${VIN}`);
    await p.getByRole('link', { name: VIN }).click();
    await p.waitForURL(/\/console\/entries\/[0-9a-f-]{36}$/);
    await shot(p, '07-entry');
    expect(await unlabelled(p)).to.deep.equal([]);
    const text = (id: string) => p.locator(`#${id}`).innerText();
    expect(await text('summary')).to.include(VIN);
    // provenance: the client's own values, and the document's source listed
    const account = await text('account');
    expect(account).to.include('/vehicle/vin');
    expect(account).to.match(/client/);
    expect(account).to.match(/document VEHICLE_TITLE/);
    // the document with its page preview (an image) and its extraction
    expect(await p.locator('#documents img').count()).to.equal(1);
    await p.locator('#documents img').scrollIntoViewIfNeeded();
    const width = await eventually(
      () => p.locator('#documents img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      { what: 'page preview loaded' },
    );
    expect(width).to.be.greaterThan(100);
    expect(await text('documents')).to.include('extraction.json');
    expect(await text('pulls')).to.match(/nmvtis_found_status\s+found/);
    // the portal's screenshot is shown as a thumbnail
    await p.locator('#pulls img.thumb').first().scrollIntoViewIfNeeded();
    const shotWidth = await eventually(
      () =>
        p
          .locator('#pulls img.thumb')
          .first()
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      { what: 'portal screenshot loaded' },
    );
    expect(shotWidth).to.be.greaterThan(0);
    const fees = await text('fees');
    expect(fees).to.not.include('No fee estimate');
    const forms = await text('forms');
    const formsStatus = /Forms status: (\w+)/.exec(forms)?.[1];
    expect(formsStatus).to.be.oneOf(['generated', 'skipped_no_spec', 'skipped_no_data']);
    if (formsStatus === 'generated') {
      // each form: a download link to the PDF and a preview frame
      const href = await p.locator('#forms a[download]').first().getAttribute('href');
      const pdf = await fetch(href!.replace('localhost', '127.0.0.1'));
      expect(pdf.status).to.equal(200);
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).to.equal('%PDF-');
      expect(await p.locator('#forms iframe').count()).to.be.greaterThan(0);
    }
    expect(await text('signing')).to.include('No signature requests');
    expect(await text('timeline')).to.include('title.job_status.complete');
    expect(await text('deliveries')).to.include('title.job_status.complete');
    // the document's page went through OCR: /metrics counts it
    const metrics = String((await t.request('GET', '/metrics', { key: null })).body);
    expect(Number(/^titled_ocr_pages_total (\d+)$/m.exec(metrics)?.[1])).to.be.at.least(1);
    await p.context().close();
  });

  it('changes account_status by keyboard (the webhook arrives), logs a received title, regenerates forms and replays a delivery', async () => {
    const p = await signIn(operatorKey);
    await p.goto(`${t.url}/console/entries/${entryId}`);
    const before = hooks.ok.length;
    await p.getByLabel('New account status').focus();
    await p.getByLabel('New account status').selectOption('poa_sent');
    await p.keyboard.press('Tab');
    await p.keyboard.type('sent by console test');
    await p.keyboard.press('Tab');
    await p.keyboard.press('Enter');
    await p.waitForURL(/ok=/);
    expect(await p.getByRole('status').first().textContent()).to.include('account_status is now poa_sent');
    await shot(p, '08-account-status-changed');
    const hook = await eventually(
      async () =>
        hooks.ok
          .slice(before)
          .find((r) => (r.body.webhook_events as string[]).includes('title.account_status.poa_sent')),
      { tries: 2000, what: 'account_status webhook' },
    );
    expect(hook.body.account_status).to.equal('poa_sent');
    expect(await p.locator('#timeline').innerText()).to.include('title.account_status.poa_sent');

    await p.getByLabel('Physical title (e.g. log a received title)').selectOption('received');
    await p.getByRole('button', { name: 'Change physical title status' }).click();
    await p.waitForURL(/ok=/);
    expect(await p.getByRole('status').first().textContent()).to.include('physical_title_status is now received');
    // received is final: no further move is offered
    expect(await p.getByLabel('Physical title (e.g. log a received title)').count()).to.equal(0);
    expect(await p.locator('#timeline').innerText()).to.include('title.physical_title_status.received');

    await p.getByRole('button', { name: 'Regenerate forms' }).click();
    await p.waitForURL(/(ok|error)=/);
    expect(await p.locator('.flash').first().textContent()).to.equal('forms regenerated');
    await shot(p, '09-forms-regenerated');

    const delivered = hooks.ok.length;
    await p
      .locator('#deliveries')
      .getByRole('button', { name: /^Replay delivery/ })
      .first()
      .click();
    await p.waitForURL(/ok=/);
    expect(await p.getByRole('status').first().textContent()).to.include('replay queued');
    await eventually(async () => hooks.ok.length > delivered, { tries: 2000, what: 'replayed delivery' });
    await shot(p, '10-delivery-replayed');
    await p.context().close();
  });

  it("offers the plugins' actions: reminds and cancels a signature request, acts on a managed submission", async () => {
    const signed = await t.request('POST', `/title/${entryId}/sign?Action=ACTIVATE`, { body: {} });
    expect(signed.status, JSON.stringify(signed.body)).to.equal(200);
    expect(signed.body.status).to.equal('SENT');
    const filed = await t.request('POST', `/title/${entryId}/submit`, { body: { intakeMode: 'MANAGED' } });
    expect(filed.status, JSON.stringify(filed.body)).to.equal(200);
    expect(filed.body.status).to.equal('AWAITING_READINESS');
    const p = await signIn(operatorKey);
    await p.goto(`${t.url}/console/entries/${entryId}`);
    expect(await unlabelled(p)).to.deep.equal([]);
    await p.getByRole('button', { name: 'Remind the signers' }).click();
    await p.waitForURL(/(ok|error)=/);
    expect(await p.locator('.flash').first().textContent()).to.include('reminders sent');
    await p.getByLabel('Reason (optional)').first().fill('wrong borrower');
    await p.getByRole('button', { name: 'Cancel the signature request' }).click();
    await p.waitForURL(/(ok|error)=/);
    expect(await p.locator('.flash').first().textContent()).to.match(/signature request [0-9a-f-]{36} canceled/);
    expect((await t.request('GET', `/title/${entryId}`)).body.signature_requests[0].status).to.equal('CANCELED');
    // no open request now: its actions are gone
    expect(await p.getByRole('button', { name: 'Remind the signers' }).count()).to.equal(0);
    await p.getByLabel('Method (optional)').selectOption('MAIL');
    await p.getByRole('button', { name: 'Mark the managed submission ready' }).click();
    await p.waitForURL(/(ok|error)=/);
    const flash = await p.locator('.flash').first().textContent();
    expect(flash).to.match(/submission [0-9a-f-]{36} is (PENDING|SUBMITTED)/);
    const sub = await t.request('GET', `/title/${entryId}/submit/${filed.body.submissionId}`);
    expect(sub.body.method).to.equal('MAIL');
    expect(sub.body.status).to.not.equal('AWAITING_READINESS');
    await shot(p, '11-plugin-actions');
    await p.context().close();
  });

  it('manages webhook profiles and organization settings', async () => {
    const p = await signIn(operatorKey);
    await p.getByRole('link', { name: 'Webhooks' }).click();
    expect(await unlabelled(p)).to.deep.equal([]);
    await p.getByLabel('Endpoint URL').fill(`${hooks.url}/second`);
    await p.getByLabel('Events (comma-separated)').fill('title.job_status.error');
    await p.getByLabel('Authentication').selectOption('bearer');
    await p.getByLabel('Bearer token').fill('tok-123');
    await p.getByRole('button', { name: 'Save profile' }).click();
    expect(await p.getByRole('status').first().textContent()).to.include('profile created');
    expect(await p.getByText(/Signing secret/).textContent()).to.match(/whsec_|[A-Za-z0-9]{20,}/);
    expect(await p.locator('table.grid').first().innerText()).to.include('/second');
    await shot(p, '11-webhooks');
    await p.getByRole('button', { name: `Remove profile ${hooks.url}/second` }).click();
    expect(await p.getByRole('status').first().textContent()).to.include('profile removed');
    await p.getByLabel('Endpoint URL').fill('http://169.254.169.254/latest');
    await p.getByLabel('Events (comma-separated)').fill('title.job_status.error');
    await p.getByRole('button', { name: 'Save profile' }).click();
    expect(await p.getByRole('alert').textContent()).to.match(/not allowed|blocked|refused|guard|link-local|metadata/i);

    await p.getByRole('link', { name: 'Organization' }).click();
    await p.getByLabel(/^Settings/).fill('{"preview": true, "console_test": "yes"}');
    await p.getByRole('button', { name: 'Save settings' }).click();
    expect(await p.getByRole('status').first().textContent()).to.include('settings saved');
    expect((await t.engine.orgs.byName(t.org.name))!.settings).to.deep.include({ preview: true, console_test: 'yes' });
    await p.getByLabel(/^Settings/).fill('{"console_test": null}');
    await p.getByRole('button', { name: 'Save settings' }).click();
    expect((await t.engine.orgs.byName(t.org.name))!.settings).not.to.have.property('console_test');
    await p.getByLabel(/^Settings/).fill('[1,2]');
    await p.getByRole('button', { name: 'Save settings' }).click();
    expect(await p.getByRole('alert').textContent()).to.include('JSON object');
    await shot(p, '12-settings');
    await p.context().close();
  });

  it('a viewer reads but cannot act; a forged form post is refused', async () => {
    const org = (await t.engine.orgs.byName(t.org.name))!;
    const viewerKey = (await t.engine.keys.create(org.id, { role: 'viewer' })).key;
    const statusBefore = (await t.request('GET', `/title/${entryId}`)).body.account_status;
    const p = await signIn(viewerKey);
    expect(await p.locator('.role').textContent()).to.equal('viewer');
    await p.goto(`${t.url}/console/entries/${entryId}`);
    expect(await p.locator('#actions').innerText()).to.include('Your role may only read');
    expect(await p.getByRole('button', { name: /Replay/ }).count()).to.equal(0);
    await shot(p, '13-viewer-entry');
    // a POST with the viewer's own token is refused, and one without a token too
    const csrf = await p.locator('input[name=_csrf]').first().inputValue();
    const res = await p.request.post(`${t.url}/console/entries/${entryId}/account-status`, {
      form: { _csrf: csrf, status: 'lien_delay' },
      maxRedirects: 0,
    });
    expect(res.status()).to.equal(403);
    // the API refuses the viewer's writes too
    expect((await t.request('POST', `/title/${entryId}/fees`, { key: viewerKey })).status).to.equal(403);
    expect((await t.request('GET', `/title/${entryId}`, { key: viewerKey })).status).to.equal(200);
    const op = await signIn(operatorKey);
    const forged = await op.request.post(`${t.url}/console/entries/${entryId}/account-status`, {
      form: { _csrf: 'forged', status: 'lien_delay' },
      maxRedirects: 0,
    });
    expect(forged.status()).to.equal(403);
    expect((await t.request('GET', `/title/${entryId}`)).body.account_status).to.equal(statusBefore);
    // a viewer's POST to a plugin's route is refused as well
    expect((await t.request('POST', `/title/${entryId}/sign`, { key: viewerKey, body: {} })).status).to.equal(403);
    await p.context().close();
    await op.context().close();
  });

  it('a host operator switches between organizations; signing out ends the session', async () => {
    const other = await t.newOrg('console-other-org');
    await t.request('POST', '/title', {
      key: other.key,
      body: { account_data: { vehicle: { vin: '2HGFG12699H500123' } } },
    });
    const org = (await t.engine.orgs.byName(t.org.name))!;
    const hostKey = (await t.engine.keys.create(org.id, { role: 'host' })).key;
    const p = await signIn(hostKey);
    expect(await p.locator('.role').textContent()).to.equal('host');
    await p.getByLabel('Organization').selectOption('console-other-org');
    await p.getByRole('button', { name: 'Switch' }).click();
    expect(await p.getByRole('status').first().textContent()).to.include('now working in console-other-org');
    expect(await p.locator('table.entries tbody tr').count()).to.equal(1);
    expect(await p.locator('table.entries').innerText()).to.include('2HGFG12699H500123');
    await shot(p, '14-host-other-org');
    // an operator of one organization has no switch
    const op = await signIn(operatorKey);
    expect(await op.getByLabel('Organization').count()).to.equal(0);
    await op.context().close();

    await p.getByRole('button', { name: 'Sign out' }).click();
    await p.waitForURL(/\/console\/login/);
    await shot(p, '15-signed-out');
    await p.goto(`${t.url}/console/entries`);
    expect(new URL(p.url()).pathname).to.equal('/console/login');
    await p.context().close();
  });

  it('keyboard: the skip link comes first and moves focus to the content', async () => {
    const p = await signIn(operatorKey);
    await p.keyboard.press('Tab');
    expect(await p.evaluate(() => (globalThis as any).document.activeElement?.textContent)).to.equal('Skip to content');
    await p.keyboard.press('Enter');
    expect(await p.evaluate(() => (globalThis as any).document.activeElement?.id)).to.equal('main');
    await p.context().close();
  });
});
