/**
 * The signing page in a real headless Chromium (playwright-core driving
 * Debian's chromium): each signer opens his link, draws his signature on the
 * canvas (one at phone size, one at desktop size), consents and signs, and
 * lands on the redirect URL. Screenshots go to test-artifacts/signing/.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { packageRoot } from '../../core/paths.js';
import { receiver, type Receiver } from '../webhook/support.js';
import { startSigningEngine, txEntry, type SigningTestEngine } from './support.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(packageRoot, 'test-artifacts', 'signing');
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

describe('signing page in headless Chromium (phone and desktop)', function () {
  this.timeout(180_000);
  let browser: Browser;
  let t: SigningTestEngine;
  let landing: Receiver;

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`    skipped: ${CHROMIUM} is missing (apt-get install chromium)`);
      this.skip();
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    landing = await receiver();
    t = await startSigningEngine();
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
    await landing?.close();
  });

  it('each signer draws and signs; the drawn signature is placed; screenshots at both sizes', async () => {
    const { id } = await txEntry(t);
    const body = { redirect_url: { url: `${landing.url}/done`, message: 'All done' } };
    await t.request('POST', `/title/${id}/sign`, { body });
    const r = (await t.request('POST', `/title/${id}/sign?Action=ACTIVATE`)).body;
    for (const [i, s] of r.signers.entries()) {
      const size = SIZES[i % SIZES.length]!;
      const page = await browser.newPage({ viewport: { width: size.width, height: size.height } });
      await page.goto(s.transaction_access_url);
      await page.waitForSelector('img');
      await page.waitForFunction('[...document.images].every((im) => im.complete && im.naturalWidth > 0)');
      expect(await page.isVisible('#pad')).to.equal(true);
      // the page fits the viewport's width (no sideways scrolling on a phone)
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1')).to.equal(true);
      await page.screenshot({ path: join(ARTIFACTS, `${size.name}-page.png`), fullPage: false });
      await page.locator('#pad').scrollIntoViewIfNeeded();
      const box = (await page.locator('#pad').boundingBox())!;
      await page.mouse.move(box.x + 20, box.y + box.height * 0.6);
      await page.mouse.down();
      for (let k = 1; k <= 12; k++)
        await page.mouse.move(box.x + 20 + (k * (box.width - 40)) / 12, box.y + box.height * (k % 2 ? 0.3 : 0.7));
      await page.mouse.up();
      expect(await page.inputValue('#drawn')).to.match(/^data:image\/png;base64,/);
      await page.check('input[name=consent]');
      await page.screenshot({ path: join(ARTIFACTS, `${size.name}-signed.png`), fullPage: true });
      await Promise.all([page.waitForURL(/\/done/), page.click('button[value=sign]')]);
      expect(new URL(page.url()).searchParams.get('message')).to.equal('All done');
      await page.close();
    }
    const entry = (await t.request('GET', `/title/${id}`)).body;
    const sr = entry.signature_requests[0];
    expect(sr.status).to.equal('COMPLETED');
    const signers = await t.signing.service.store.signers(sr.id);
    expect(signers.map((x) => x.signature?.kind)).to.deep.equal(['drawn', 'drawn']);
    const file = join(ARTIFACTS, 'signed-poa.pdf');
    writeFileSync(file, Buffer.from(await (await fetch(sr.documents_to_sign[0].signed_copy)).arrayBuffer()));
    expect(execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).split('\n').length).to.be.greaterThan(3);
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '60',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      file,
      join(ARTIFACTS, 'signed-poa-page1'),
    ]);
  });
});
