import bwipjs from 'bwip-js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { SandboxCarrier, decodeImage } from '../../plugins/title-collection/index.js';
import type { CreateShipmentRequest } from '../../plugins/title-collection/carrier.js';
import type { Metric, Suite, SuiteContext } from '../lib/types.js';

const ROUNDS = 3;
const TARGET_RATIO = 0.8;
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

const FROM = { name: 'Jane Q Borrower', street1: '12 Elm St', city: 'Round Rock', state: 'TX', zip: '78664' };
const TO = {
  name: 'Acme Lending Title Dept',
  street1: '100 Congress Ave',
  street2: 'Suite 400',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
};

function request(i: number, qr: boolean): CreateShipmentRequest {
  const reference = `bench-${i}`;
  return {
    from_address: FROM,
    to_address: TO,
    service: 'ground_return',
    reference,
    idempotency_key: reference,
    qr_code: qr,
    parcel: { length_in: 12.5, width_in: 9.5, height_in: 0.25, weight_oz: 4 },
  };
}

/** The baseline: the same 4x6 page, texts and Code 128 image, with pdf-lib and bwip-js called directly. */
async function plainLabel(i: number): Promise<Buffer> {
  const tracking = `TS${String(10_000_000_000_000_000n + BigInt(i)).slice(1)}0`;
  const doc = await PDFDocument.create();
  const page = doc.addPage([288, 432]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawText('SANDBOX - NOT A REAL SHIPPING LABEL', { x: 10, y: 412, size: 10, font: bold });
  page.drawText('TITLED SANDBOX POST  GROUND_RETURN', { x: 10, y: 388, size: 12, font: bold });
  let y = 356;
  for (const l of [FROM.name, FROM.street1, `${FROM.city}, ${FROM.state} ${FROM.zip}`])
    page.drawText(l, { x: 10, y: (y -= 10), size: 8, font });
  for (const l of [TO.name, TO.street1, TO.street2, `${TO.city}, ${TO.state} ${TO.zip}`])
    page.drawText(l, { x: 24, y: (y -= 14), size: 12, font: bold });
  const png = await doc.embedPng(
    await bwipjs.toBuffer({
      bcid: 'code128',
      text: tracking,
      scale: 3,
      height: 14,
      includetext: true,
      paddingwidth: 12,
      paddingheight: 6,
      backgroundcolor: 'FFFFFF',
    }),
  );
  page.drawImage(png, { x: 10, y: y - 130, width: 268, height: 110 });
  page.drawText(`REF bench-${i}`, { x: 10, y: 14, size: 7, font });
  return Buffer.from(await doc.save());
}

async function perSecond(seconds: number, one: (i: number) => Promise<unknown>): Promise<number> {
  let n = 0;
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  while (performance.now() < until || n < 3) await one(n++);
  return n / ((performance.now() - t0) / 1000);
}

/**
 * Both sides per second, measured alternately one label at a time for about
 * `seconds`, so a load change on this shared machine hits both alike.
 */
async function sideBySide(seconds: number, a: (i: number) => Promise<unknown>, b: (i: number) => Promise<unknown>) {
  const spent = [0, 0];
  let n = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until || n < 3) {
    for (const [k, f] of [a, b].entries()) {
      const t = performance.now();
      await f(n);
      spent[k]! += performance.now() - t;
    }
    n++;
  }
  return { a: n / (spent[0]! / 1000), b: n / (spent[1]! / 1000) };
}

/**
 * Title collection labels: 4x6 return labels per second from the sandbox
 * carrier (label PDF with both addresses and a Code 128 barcode) against the
 * same label drawn with pdf-lib and bwip-js directly, in the same run (target
 * ratio >= 0.8); and, reported, whole sandbox shipments with the QR code and
 * its verification (what a collection's creation does besides storage).
 */
export const titleCollection: Suite = {
  name: 'title-collection',
  description:
    'sandbox return labels/s vs the same label drawn with pdf-lib + bwip-js alone; label+QR+verify shipments/s',
  async run(ctx: SuiteContext): Promise<Metric[]> {
    const carrier = new SandboxCarrier();
    const seconds = Math.max(1, 3 * ctx.scale);
    const ours = (i: number) => carrier.createReturnShipment(request(i, false));
    await sideBySide(0.5, ours, plainLabel);
    const runs = { ours: [] as number[], base: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      const r1 = await sideBySide(seconds, ours, plainLabel);
      runs.ours.push(r1.a);
      runs.base.push(r1.b);
      ctx.log(
        `round ${r + 1}: ${runs.ours.at(-1)!.toFixed(1)} labels/s (pdf-lib + bwip-js alone ${runs.base.at(-1)!.toFixed(1)}/s)`,
      );
    }
    const full = await perSecond(seconds, async (i) => {
      const s = await carrier.createReturnShipment(request(i, true));
      await decodeImage(s.qr_png!, 'QRCode');
    });
    ctx.log(`label + QR + QR verification: ${full.toFixed(1)} shipments/s`);
    const r1 = (x: number) => Math.round(x * 10) / 10;
    return [
      {
        name: 'title_collection_labels_per_s',
        label: `sandbox 4x6 return labels/s (both addresses, Code 128) (target >= ${TARGET_RATIO} x baseline)`,
        value: r1(median(runs.ours)),
        unit: 'labels/s',
        baseline: { label: 'the same label drawn with pdf-lib + bwip-js alone', value: r1(median(runs.base)) },
        target: { op: '>=', value: TARGET_RATIO, on: 'ratio' },
        detail: { rounds: runs.ours.map(r1), baseline_rounds: runs.base.map(r1) },
      },
      {
        name: 'title_collection_shipments_per_s',
        label: 'sandbox shipments/s with the QR code drawn and decoded back (qr_verified), storage not included',
        value: r1(full),
        unit: 'shipments/s',
      },
    ];
  },
};
