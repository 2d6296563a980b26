/** One headless Chromium for the worker, launched on first use; one context per submission. */
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';

/**
 * The features playwright-core 1.65 disables itself (its own `--disable-features`). Chromium keeps only the last
 * `--disable-features` of a command line, so ours below repeats these before adding its own.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];

/**
 * Memory (docs/submission.md has the figures): one renderer process per browser context. Headless Chromium
 * otherwise gives every context's window a second renderer for the address bar's WebUI popup
 * (chrome://omnibox-popup.top-chrome, about 45 MB each, 4 filings at once: 4 of them) and keeps a spare
 * renderer warm. Site isolation stays on (a portal's cross-site frames get renderers of their own), and
 * contexts never share a renderer whatever the flags.
 */
const DISABLED_FEATURES = [
  ...PLAYWRIGHT_DISABLED_FEATURES,
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'WebUIOmniboxFullPopup',
  'SpareRendererForSitePerProcess',
];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
  // no SwiftShader in the GPU process (--disable-gpu already composites in software): about 12 MB less
  '--disable-software-rasterizer',
];

/**
 * The Chromium the worker drives when `chromiumPath` is not set: Debian's `chromium-headless-shell` (the same Chromium
 * build's headless shell, `headless_shell`: no browser window layer, no WebUI, no profile services) when installed,
 * else Debian's full `chromium` in headless mode. The shell files the same pages in about two thirds of the memory
 * and half the time (docs/submission.md, "Memory of portal filing"); playwright-core itself picks the headless shell
 * for headless runs. The project's setup installs both.
 */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'] as const;

/** The configured Chromium, else the first of CHROMIUM_CANDIDATES installed (else the last, so an error names it). */
export function chromiumExecutable(configured?: string): string {
  if (configured) return configured;
  return CHROMIUM_CANDIDATES.find((p) => existsSync(p)) ?? CHROMIUM_CANDIDATES[CHROMIUM_CANDIDATES.length - 1]!;
}

export class BrowserPool {
  private browser?: Promise<Browser>;

  /** The Chromium launched (the configured path, else chromiumExecutable's choice). */
  readonly executablePath: string;

  constructor(
    executablePath: string | undefined,
    private readonly actionTimeoutMs: number,
  ) {
    this.executablePath = chromiumExecutable(executablePath);
  }

  private launch(): Promise<Browser> {
    // playwright-core (about 90 MB of RSS once loaded) is loaded by the first filing, not by every daemon start
    this.browser ??= import('playwright-core')
      .then(({ chromium }) => chromium.launch({ executablePath: this.executablePath, args: CHROMIUM_ARGS }))
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
