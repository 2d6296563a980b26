/**
 * Signature placement: the forms plugin records a box above each signature
 * line of a drawn form (and the date line beside it); the signing plugin
 * writes the signature there. Checked by reading the words back with
 * pdftotext -bbox.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { layout } from '../../plugins/forms/pdf/draw.js';
import { compressPage, writePdf } from '../../plugins/forms/pdf/writer.js';
import { placeSignatures } from '../../plugins/signing/stamp.js';
import type { SignerRow } from '../../plugins/signing/store.js';

interface Word {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}
function words(file: string): Word[] {
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
  return [
    ...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
  ].map((m) => ({ xMin: +m[1]!, yMin: +m[2]!, xMax: +m[3]!, yMax: +m[4]!, text: m[5]! }));
}

const signer = (id: string, name: string, text: string): SignerRow => ({
  id,
  requestId: 'r',
  position: 0,
  signerId: id,
  name,
  person: {},
  tokenHash: '',
  tokenExpiresAt: 0,
  status: 'signed',
  viewedAt: null,
  consentAt: 1,
  signedAt: Date.UTC(2026, 10, 25),
  ip: null,
  userAgent: null,
  signature: { kind: 'typed', text },
  dlid: null,
  lastNotifiedAt: null,
});

describe("signing: signatures land on the forms' own signature lines", () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'titled-place-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a drawn form records one box per signature line, above the line and its caption', () => {
    const laid = layout({
      title: 'T',
      footer: 'f',
      blocks: [
        { kind: 'text', text: 'x' },
        {
          kind: 'signatures',
          signers: [
            { role: 'Owner', name: 'Jane Q Borrower' },
            { role: 'Owner', name: 'Robert T Coowner' },
          ],
        },
      ],
    });
    expect(laid.signatures.map((b) => b.name)).to.deep.equal(['Jane Q Borrower', 'Robert T Coowner']);
    expect(laid.signatures[0]!.y).to.be.greaterThan(laid.signatures[1]!.y);
    for (const b of laid.signatures) {
      const caption = laid.placed.find((p) => p.text === 'Signature of Owner' && p.y < b.y && b.y - p.y < 15);
      expect(caption, JSON.stringify(b)).to.not.equal(undefined);
      expect(b.date!.x).to.be.greaterThan(b.x + b.width);
    }
  });

  it("each signer's typed signature and date are written inside his box, not the other's", async () => {
    const laid = layout({
      title: 'T',
      footer: 'f',
      blocks: [
        {
          kind: 'signatures',
          signers: [
            { role: 'Owner', name: 'Jane Q Borrower' },
            { role: 'Owner', name: 'Robert T Coowner' },
          ],
        },
      ],
    });
    const pdf = writePdf(laid.pages.map(compressPage), { title: 'T', subject: 's' });
    const ids = ['a', 'b'];
    const boxes = laid.signatures.map((b, i) => ({ ...b, signer_id: ids[i]! }));
    const out = await placeSignatures(
      pdf,
      boxes,
      [signer('a', 'Jane Q Borrower', 'Janesig'), signer('b', 'Robert T Coowner', 'Robsig')],
      'T',
    );
    expect(out.appended).to.deep.equal([]);
    const file = join(dir, 'placed.pdf');
    writeFileSync(file, out.pdf);
    const w = words(file);
    for (const [i, text] of ['Janesig', 'Robsig'].entries()) {
      const b = boxes[i]!;
      const word = w.find((x) => x.text === text)!;
      const top = 792 - (b.y + b.height);
      const bottom = 792 - b.y;
      expect(word.xMin).to.be.within(b.x - 0.5, b.x + b.width);
      expect(word.yMin).to.be.within(top - 1, bottom);
      expect(word.yMax).to.be.within(top, bottom + 1);
      const date = w.find(
        (x) => x.text === '11/25/2026' && x.xMin >= b.date!.x - 0.5 && Math.abs(x.yMax - word.yMax) < 8,
      );
      expect(date, text).to.not.equal(undefined);
    }
  });

  it('a signer without a recorded line (an official template) gets an appended signature page', async () => {
    const laid = layout({ title: 'T', footer: 'f', blocks: [{ kind: 'text', text: 'no lines here' }] });
    const pdf = writePdf(laid.pages.map(compressPage), { title: 'T', subject: 's' });
    const out = await placeSignatures(pdf, [], [signer('a', 'Jane Q Borrower', 'Janesig')], 'Application');
    expect(out.appended).to.deep.equal(['a']);
    const file = join(dir, 'appended.pdf');
    writeFileSync(file, out.pdf);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(text)
      .to.contain('Signature page: Application')
      .and.contain('Janesig')
      .and.contain('Signature of Jane Q Borrower');
  });
});
