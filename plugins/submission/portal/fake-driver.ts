/** The driver for the shipped fake state portal (../fake-portal/server.ts). */
import type { Page, Response } from 'playwright-core';
import {
  PortalBlocked,
  type FilingData,
  type PortalConnection,
  type PortalDocument,
  type PortalDriver,
  type PortalReport,
} from './driver.js';

const STATUS: Record<string, PortalReport['status']> = {
  RECEIVED: 'SUBMITTED',
  IN_REVIEW: 'UNDER_REVIEW',
  ACTION_NEEDED: 'ACTION_REQUIRED',
  APPROVED: 'ACCEPTED',
  DENIED: 'REJECTED',
};

/** A portal answer that is not a page of the application flow: 5xx is retried, a validation error is not. */
async function check(r: Response | null, page: Page, what: string): Promise<void> {
  const status = r?.status() ?? 0;
  if (status >= 500 || status === 0) throw new Error(`portal answered ${status} to ${what}`);
  if (status >= 400) {
    const e = await page
      .locator('#error')
      .textContent()
      .catch(() => null);
    throw new PortalBlocked(`portal refused ${what}: ${e ?? `HTTP ${status}`}`);
  }
}

/**
 * Sets a file input from the documents' files on disk, then runs `send` (the post that reads them): Chromium reads
 * the files itself, where buffers would travel base64 through the DevTools protocol and stay in the renderer.
 */
async function upload(page: Page, selector: string, docs: PortalDocument[], send: () => Promise<void>): Promise<void> {
  await page.setInputFiles(
    selector,
    docs.map((d) => d.path),
  );
  await send();
}

export class FakePortalDriver implements PortalDriver {
  readonly name = 'fake-portal';

  constructor(private readonly c: PortalConnection) {}

  prepare(d: FilingData): FilingData {
    const missing = (['vin', 'ownerName', 'lienholderName'] as const).filter((k) => !d[k]);
    if (missing.length) throw new PortalBlocked(`the entry lacks what the portal requires: ${missing.join(', ')}`);
    if (!d.documents.length) throw new PortalBlocked('no documents to upload');
    return d;
  }

  private async signIn(page: Page): Promise<void> {
    const r = await page.goto(`${this.c.url}/login`);
    await check(r, page, 'the sign-in page');
    if (await page.locator('#captcha').count())
      throw new PortalBlocked('the portal asks for a CAPTCHA: a person must file this one');
    await page.fill('#username', this.c.username);
    await page.fill('#password', this.c.password);
    const [resp] = await Promise.all([page.waitForNavigation(), page.click('#login')]);
    await check(resp, page, 'sign-in');
  }

  private async post(page: Page, what: string): Promise<void> {
    const [resp] = await Promise.all([page.waitForNavigation(), page.click('#next')]);
    await check(resp, page, what);
  }

  async fill(page: Page, d: FilingData): Promise<void> {
    await this.signIn(page);
    await page.fill('#vin', d.vin);
    await page.fill('#year', d.year);
    await page.fill('#make', d.make);
    await this.post(page, 'the vehicle page');
    await page.fill('#owner_name', d.ownerName);
    await page.fill('#lienholder_name', d.lienholderName);
    await page.fill('#reference', d.reference);
    await this.post(page, 'the owner page');
    await upload(page, '#document', d.documents, () => this.post(page, 'the documents page'));
  }

  async review(page: Page, d: FilingData): Promise<Record<string, string>> {
    const shown: Record<string, string> = {};
    for (const k of ['vin', 'owner_name', 'lienholder_name', 'reference', 'documents']) {
      shown[k] = (await page.locator(`#review-${k}`).textContent()) ?? '';
    }
    if (shown.vin !== d.vin || shown.reference !== d.reference)
      throw new Error('the review page does not show what was filled');
    return shown;
  }

  async submit(page: Page): Promise<{ applicationNumber: string; screenshot: Buffer }> {
    const [resp] = await Promise.all([page.waitForNavigation(), page.click('#submit')]);
    await check(resp, page, 'the submit');
    return this.confirmation(page);
  }

  private async confirmation(page: Page): Promise<{ applicationNumber: string; screenshot: Buffer }> {
    const applicationNumber = ((await page.locator('#app-no').textContent()) ?? '').trim();
    if (!applicationNumber) throw new Error('no application number on the confirmation page');
    return { applicationNumber, screenshot: await page.screenshot({ type: 'png', fullPage: true }) };
  }

  async find(page: Page, d: FilingData): Promise<{ applicationNumber: string; screenshot: Buffer } | null> {
    await this.signIn(page);
    await check(
      await page.goto(`${this.c.url}/applications?reference=${encodeURIComponent(d.reference)}`),
      page,
      'the search',
    );
    const link = page.locator('a.app').first();
    if (!(await link.count())) return null;
    const href = (await link.getAttribute('href'))!;
    await check(await page.goto(`${this.c.url}${href}`), page, 'the application page');
    return this.confirmation(page);
  }

  async poll(page: Page, applicationNumber: string): Promise<PortalReport> {
    await this.signIn(page);
    await check(
      await page.goto(`${this.c.url}/application/${encodeURIComponent(applicationNumber)}/status`),
      page,
      'the status page',
    );
    const raw = ((await page.locator('#status').textContent()) ?? '').trim();
    const status = STATUS[raw];
    if (!status) throw new Error(`unknown portal status '${raw}'`);
    const fb = page.locator('#feedback');
    const feedbackMessage = (await fb.count()) ? ((await fb.textContent()) ?? '').trim() : undefined;
    return { status, ...(feedbackMessage ? { feedbackMessage } : {}) };
  }

  async uploadFollowUp(page: Page, applicationNumber: string, documents: PortalDocument[]): Promise<void> {
    await this.signIn(page);
    await check(
      await page.goto(`${this.c.url}/application/${encodeURIComponent(applicationNumber)}`),
      page,
      'the application page',
    );
    if (!(await page.locator('#followup').count()))
      throw new Error('the portal does not ask for documents on this application');
    await upload(page, '#followup', documents, async () => {
      const [resp] = await Promise.all([page.waitForNavigation(), page.click('#followup-submit')]);
      await check(resp, page, 'the follow-up upload');
    });
  }
}

/** Drivers by name (config `plugins.submission.portals.<state>.driver`). */
export const DRIVERS: Record<string, (c: PortalConnection) => PortalDriver> = {
  'fake-portal': (c) => new FakePortalDriver(c),
};
