/**
 * The tesseract process: killed when a read passes its time limit or its job
 * is cancelled (it ran on before, holding a core), and the page's temp file
 * removed either way.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { ToolError } from '../../plugins/ocr/read/exec.js';
import { ocrWords } from '../../plugins/ocr/read/tesseract.js';
import type { Gray } from '../../plugins/ocr/read/types.js';

/** A page of noise: tesseract takes seconds over it, long past the limits below. */
function noisePage(width = 2550, height = 3300): Gray {
  const data = Buffer.alloc(width * height);
  let x = 12345;
  for (let i = 0; i < data.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    data[i] = x >>> 24 < 128 ? 0 : 255;
  }
  return { data, width, height };
}

/** tesseract processes reading one of this process's page files. */
function ourTesseracts(): number[] {
  const mine = `p${process.pid}-`;
  const pids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      if (cmd[0]?.endsWith('tesseract') && cmd.some((a) => a.includes(mine))) pids.push(Number(d));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

const settle = () => new Promise((r) => setTimeout(r, 300));

describe('tesseract process limits', function () {
  this.timeout(60_000);
  const page = noisePage();

  it('kills tesseract when a read passes its time limit', async () => {
    const t0 = performance.now();
    const err = await ocrWords(page, { timeoutMs: 300 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ToolError);
    expect((err as ToolError).code).to.equal('TOOL_TIMEOUT');
    expect(performance.now() - t0).to.be.below(10_000);
    await settle();
    expect(ourTesseracts()).to.deep.equal([]);
  });

  it('kills tesseract when its job is cancelled', async () => {
    const ctl = new AbortController();
    const read = ocrWords(page, { timeoutMs: 60_000, signal: ctl.signal }).then(
      () => null,
      (e: unknown) => e,
    );
    // cancelled once tesseract runs
    for (let i = 0; i < 100 && !ourTesseracts().length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(ourTesseracts()).to.have.lengthOf(1);
    ctl.abort(new Error('job cancelled'));
    const err = await read;
    expect(err).to.be.instanceOf(Error);
    await settle();
    expect(ourTesseracts()).to.deep.equal([]);
  });

  it('still reads a page whole within its limit', async () => {
    const g: Gray = { data: Buffer.alloc(400 * 100, 255), width: 400, height: 100 };
    expect(await ocrWords(g, { timeoutMs: 30_000 })).to.deep.equal([]);
  });
});
