/**
 * The portal worker's Chromium (plugins/submission/portal/browser.ts): one
 * renderer process per browser context, no address-bar WebUI renderer and
 * no spare renderer (the memory budget of docs/submission.md), screenshots
 * without SwiftShader, and two contexts still apart (cookies of one are not
 * seen by the other).
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { BrowserPool, CHROMIUM_CANDIDATES, chromiumExecutable } from '../../plugins/submission/portal/browser.js';

describe('submission: the portal browser by default', () => {
  it('is the configured path, else the headless shell when installed, else chromium', () => {
    expect(chromiumExecutable('/opt/chrome/chrome')).to.equal('/opt/chrome/chrome');
    const installed = CHROMIUM_CANDIDATES.find((p) => existsSync(p));
    expect(chromiumExecutable()).to.equal(installed ?? '/usr/bin/chromium');
    expect(new BrowserPool(undefined, 1000).executablePath).to.equal(chromiumExecutable());
  });
});

// both browsers the worker may drive: Debian's chromium (headless mode) and its headless shell
for (const CHROMIUM of CHROMIUM_CANDIDATES) describeBrowser(CHROMIUM);

function describeBrowser(CHROMIUM: string): void {
  describe(`submission: the portal browser (${CHROMIUM})`, function () {
    this.timeout(120_000);
    let pool: BrowserPool;
    let server: Server;
    let url = '';

    before(async function () {
      if (!existsSync(CHROMIUM)) {
        console.log(`      skipped: ${CHROMIUM} is missing (the project's setup installs it: bin/setup)`);
        this.skip();
      }
      server = createServer((req, res) => {
        const cookie = req.headers.cookie ?? '';
        const set = /^\/c\d$/.test(req.url!) ? { 'set-cookie': `session=${req.url!.slice(1)}` } : {};
        res.writeHead(200, { 'content-type': 'text/html', ...set });
        res.end(`<html><body><p id="cookie">${cookie}</p></body></html>`);
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      pool = new BrowserPool(CHROMIUM, 30_000);
    });
    after(async () => {
      await pool?.close();
      server?.close();
    });

    it('two contexts: two renderer processes, only page targets, cookies kept apart', async () => {
      const contexts: BrowserContext[] = [await pool.context(), await pool.context()];
      try {
        for (const [i, ctx] of contexts.entries()) {
          const page = await ctx.newPage();
          await page.goto(`${url}/c${i}`);
          await page.goto(`${url}/again`);
          expect(await page.locator('#cookie').textContent()).to.equal(`session=c${i}`);
          const png = await page.screenshot({ type: 'png', fullPage: true });
          expect(png.subarray(1, 4).toString('latin1')).to.equal('PNG');
          expect(png.length).to.be.greaterThan(1000);
        }
        const cdp = await contexts[0]!.browser()!.newBrowserCDPSession();
        const { targetInfos } = (await cdp.send('Target.getTargets')) as {
          targetInfos: { type: string; url: string }[];
        };
        expect(targetInfos.filter((t) => t.type !== 'page').map((t) => t.url)).to.deep.equal([]);
        const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string }[] };
        expect(processInfo.filter((p) => p.type === 'renderer')).to.have.length(2);
      } finally {
        for (const ctx of contexts) await ctx.close();
      }
    });
  });
}
