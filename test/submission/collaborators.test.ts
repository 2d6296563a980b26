/**
 * The MAIL packet with the other plugins' services (core/service/collaborators.ts):
 * signed copies from COLLABORATORS.signing are enclosed instead of the unsigned
 * forms, and the original title from COLLABORATORS.titleCollection is on the
 * checklist. The services here are stand-ins registered in the engine's
 * container, as the signing and title-collection plugins register theirs.
 */
import { expect } from 'chai';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import {
  COLLABORATORS,
  EntryObjects,
  type SignedDocument,
  type SigningService,
  type TitleCollectionService,
} from '../../core/plugin-api.js';
import { pdfText, readyEntry, startSubmissionEngine, type SubTestEngine } from './support.js';
import { parseSubmissionOptions } from '../../plugins/submission/options.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../core/paths.js';

async function signedPdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText(text, { x: 72, y: 700, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

describe('submission: the packet with the signing and title-collection services', function () {
  this.timeout(120_000);
  let t: SubTestEngine;
  before(async () => {
    t = await startSubmissionEngine();
  });
  after(async () => t?.stop());

  it('encloses the signed copies (not stamped) and lists the original title with its tracking number', async () => {
    const e = await readyEntry(t, 'TX');
    const objects = new EntryObjects(
      t.engine.objects,
      e.storeIndex ?? `${(await t.engine.orgs.byName(t.org.name))!.id}/${e.entryId}`,
    );
    const key = await objects.put('signing/poa-signed.pdf', await signedPdf('Signed by Jane Q Borrower (e-signature)'));
    const asked: string[] = [];
    const signing: SigningService = {
      request: async () => ({}),
      signedDocuments: async (_org, entryId): Promise<SignedDocument[]> => {
        asked.push(entryId);
        return [{ name: 'forms_poa[0]', filename: 'poa-signed.pdf', key, sha256: 'x' }];
      },
    };
    const collections: TitleCollectionService = {
      ensure: async () => undefined,
      get: async () => ({
        collection_id: 'c1',
        mode: 'STUB',
        carrier: 'stub',
        service: 'ground',
        return_address: {},
        instructions: [],
        created_at: '',
        tracking_number: '1Z999',
        label_url: null,
        qr_verified: false,
        assets_expires_at: '',
      }),
    };
    t.engine.container.registerInstance(COLLABORATORS.signing, signing);
    t.engine.container.registerInstance(COLLABORATORS.titleCollection, collections);
    const r = await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'MAIL' } });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(asked).to.deep.equal([e.entryId]);
    const s = (await t.request('GET', `/title/${e.entryId}/submit/${r.body.submissionId}`)).body;
    const text = pdfText(Buffer.from(await (await fetch(s.packet)).arrayBuffer()))!;
    expect(text).to.include('forms_poa[0] (signed)').and.include('Signed by Jane Q Borrower (e-signature)');
    expect(text).not.to.include('SIGNATURE REQUIRED');
    expect(text).not.to.include('form_title_application');
    expect(text).to.include(
      'Original certificate of title - not yet received (tracking 1Z999): enclose when it arrives',
    );
  });

  it('config/sandbox.json is valid submission options and starts the fake portal', () => {
    const sandbox = JSON.parse(readFileSync(join(packageRoot, 'config', 'sandbox.json'), 'utf8')) as {
      plugins: { submission: unknown };
    };
    expect(parseSubmissionOptions(sandbox.plugins.submission).fakePortal.start).to.equal(true);
    expect(() => parseSubmissionOptions({ fakePortal: { strat: true } })).to.throw(/plugins\.submission/);
  });
});
