/** One headless Chromium for the worker, launched on first use; one context per submission. */
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export class BrowserPool {
  private browser?: Promise<Browser>;

  constructor(
    private readonly executablePath: string,
    private readonly actionTimeoutMs: number,
  ) {}

  private launch(): Promise<Browser> {
    this.browser ??= chromium
      .launch({ executablePath: this.executablePath, args: CHROMIUM_ARGS })
      .catch((e: unknown) => {
        this.browser = undefined;
        throw e;
      });
    return this.browser;
  }

  /** A fresh context (own cookies) for one submission; the caller closes it. */
  async context(): Promise<BrowserContext> {
    const b = await this.launch();
    const ctx = await b.newContext({ viewport: { width: 1000, height: 800 } });
    ctx.setDefaultTimeout(this.actionTimeoutMs);
    return ctx;
  }

  async close(): Promise<void> {
    const b = this.browser;
    this.browser = undefined;
    if (b) await (await b).close().catch(() => undefined);
  }
}
