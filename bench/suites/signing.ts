/**
 * Signing: sealed signed packets per second (signatures placed on the forms'
 * lines, every document sealed, the certificate of completion written and
 * sealed, the export zipped) against sealing the same PDFs — the documents
 * and the certificate — with @signpdf alone (placeholder + sign) in the same
 * run (target ratio >= 0.8); and the signing page's p95 latency under 50
 * concurrent signers, each loading his own link (reported).
 */
import { PDFDocument } from 'pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { P12Signer } from '@signpdf/signer-p12';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { createEngine } from '../../index.js';
import { loadStatePlugins } from '../../states/registry.js';
import { planForms } from '../../plugins/forms/select.js';
import { renderPlan } from '../../plugins/forms/render.js';
import { certificateOfCompletion } from '../../plugins/signing/certificate.js';
import { sealPacket } from '../../plugins/signing/complete.js';
import { loadSealKey, type SealKey } from '../../plugins/signing/seal.js';
import type { DocumentRow, RequestRow, SignerRow } from '../../plugins/signing/store.js';
import { fixtureEntry } from '../../test/support/fixtures.js';
import { vinFor } from '../lib/vin.js';
import type { Metric, Suite, SuiteContext } from '../lib/types.js';

const ROUNDS = 3;
const SIGNERS = 50;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One request's worth of documents: the drawn state forms of a TX entry that carry signature lines, with signers. */
async function workload(): Promise<{
  r: RequestRow;
  docs: { row: DocumentRow; src: Uint8Array }[];
  signers: SignerRow[];
}> {
  const states = loadStatePlugins(['TX']);
  const plan = planForms(fixtureEntry('TX', 'full'), states);
  const files = (await renderPlan(plan, null, { packet: false })).files.filter(
    (f) => f.variant === 'state' && f.signatures?.length,
  );
  const names = [...new Set(files.flatMap((f) => f.signatures!.map((b) => b.name)))];
  const signers: SignerRow[] = names.map((name, i) => ({
    id: `s${i}`,
    requestId: 'bench',
    position: i,
    signerId: `s${i}`,
    name,
    person: { contact_email: `s${i}@example.com` },
    tokenHash: '',
    tokenExpiresAt: 0,
    status: 'signed',
    viewedAt: 1,
    consentAt: 1,
    signedAt: Date.now(),
    ip: '127.0.0.1',
    userAgent: 'bench',
    signature: { kind: 'typed', text: name },
    dlid: null,
    lastNotifiedAt: null,
  }));
  const docs = files.map((f, i) => ({
    row: {
      id: `d${i}`,
      requestId: 'bench',
      position: i,
      name: f.kind,
      filename: `${f.kind}-${i}.pdf`,
      sourceKey: '',
      boxes: f.signatures!.map((b) => ({
        ...b,
        signer_id: signers.find((s) => s.name === b.name)!.signerId,
      })),
      signerIds: signers.filter((s) => f.signatures!.some((b) => b.name === s.name)).map((s) => s.signerId),
      sha256Before: '',
      signedKey: null,
      sha256After: null,
      pages: f.pages,
    },
    src: f.pdf,
  }));
  const now = Date.now();
  const r: RequestRow = {
    id: 'bench-request',
    orgId: 'o',
    entryId: 'e',
    openKey: null,
    status: 'COMPLETED',
    type: 'E_SIGN',
    doc: {},
    linkBase: '',
    createdAt: now,
    updatedAt: now,
    sentAt: now,
    expiresAt: null,
    nextReminderAt: null,
    remindersSent: 0,
    lastBumpAt: null,
    completedAt: now,
  };
  return { r, docs, signers };
}

async function signpdfAlone(pdf: Uint8Array, key: SealKey, signer: SignPdf): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: 'sealed',
    contactInfo: '',
    name: 'titled',
    location: 'US',
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    signatureLength: 16_384,
  });
  return signer.sign(
    Buffer.from(await doc.save({ useObjectStreams: false })),
    new P12Signer(key.p12, { passphrase: key.passphrase }),
  );
}

async function perSecond(seconds: number, one: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000 || n < 3) {
    await one();
    n++;
  }
  return n / ((performance.now() - t0) / 1000);
}

async function packets(ctx: SuiteContext): Promise<Metric> {
  const key = loadSealKey(ctx.tmpDir('titled-bench-seal-'));
  const w = await workload();
  const cert = await certificateOfCompletion(
    w.r,
    w.docs.map((d) => d.row),
    w.signers,
    [],
  );
  const same = [...w.docs.map((d) => d.src), cert];
  const signer = new SignPdf();
  const ours = () => sealPacket(w.r, w.docs, w.signers, [], key);
  const base = async () => {
    for (const pdf of same) await signpdfAlone(pdf, key, signer);
  };
  await ours();
  await base();
  const seconds = Math.max(1, 3 * ctx.scale);
  const runs = { ours: [] as number[], base: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    runs.ours.push(await perSecond(seconds, ours));
    runs.base.push(await perSecond(seconds, base));
    ctx.log(
      `round ${i + 1}: ${runs.ours[i]!.toFixed(2)} sealed packets/s (@signpdf alone on the same ${same.length} PDFs: ${runs.base[i]!.toFixed(2)}/s)`,
    );
  }
  return {
    name: 'signing_sealed_packets_per_s',
    label: `sealed signed packets/s (${w.docs.length} TX forms with ${w.signers.length} signers placed + sealed, certificate written + sealed, ZIP)`,
    value: Math.round(median(runs.ours) * 100) / 100,
    unit: 'packets/s',
    baseline: {
      label: `@signpdf alone sealing the same ${same.length} PDFs (documents + certificate)`,
      value: Math.round(median(runs.base) * 100) / 100,
    },
    target: { op: '>=', value: 0.8, on: 'ratio' },
    detail: { rounds: runs.ours, baseline_rounds: runs.base, documents: w.docs.length, signers: w.signers.length },
  };
}

/** The page under load: an engine in this process, 25 entries x 2 signers = 50 links, 50 concurrent signers re-loading their pages. */
async function pageLatency(ctx: SuiteContext): Promise<Metric> {
  const dataDir = ctx.tmpDir('titled-bench-signing-');
  const engine = await createEngine({
    port: 0,
    dataDir,
    log: { level: 'warn' },
    stages: ['intake', 'forms', 'signing'],
    workers: { pollIntervalMs: 20 },
  });
  const server = await engine.listen();
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const org = await engine.orgs.create('bench-signing');
    const { key } = await engine.keys.create(org.id);
    const h = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const links: string[] = [];
    for (let i = 0; links.length < SIGNERS; i++) {
      const owner = (n: string, id: string) => ({
        type: 'PERSON',
        name: n,
        id,
        addr: { street1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' },
      });
      const body = {
        account_data: {
          vehicle: {
            vin: vinFor('1HGCM826', 5000 + i),
            year: 2019,
            make: 'Honda',
            title: {
              issuing_state: 'TX',
              conjunction: 'AND',
              is_and: true,
              owners: [owner(`Jane Doe${i}`, 'o1'), owner(`Rob Roe${i}`, 'o2')],
            },
          },
          loan: { loan_id: `L${i}`, borrower: [owner(`Jane Doe${i}`, 'o1')] },
          sale: { state: 'TX' },
        },
      };
      const { entryId } = (await (
        await fetch(`${url}/title`, { method: 'POST', headers: h, body: JSON.stringify(body) })
      ).json()) as { entryId: string };
      for (let k = 0; k < 400; k++) {
        const e = (await (await fetch(`${url}/title/${entryId}`, { headers: h })).json()) as { job_status: string };
        if (e.job_status === 'complete') break;
        await new Promise((res) => setTimeout(res, 25));
      }
      const r = (await (
        await fetch(`${url}/title/${entryId}/sign?Action=ACTIVATE`, { method: 'POST', headers: h })
      ).json()) as { signers: { transaction_access_url: string }[] };
      links.push(...r.signers.map((s) => s.transaction_access_url));
    }
    ctx.log(`${links.length} signer links; ${SIGNERS} concurrent signers loading their page`);
    const seconds = Math.max(2, 8 * ctx.scale);
    const page = await concurrent(links.slice(0, SIGNERS), seconds);
    const health = await concurrent(
      links.slice(0, SIGNERS).map(() => `${url}/healthz`),
      seconds,
    );
    ctx.log(`page p95 ${page.p95} ms (GET /healthz under the same load: p95 ${health.p95} ms)`);
    return {
      name: 'signing_page_p95_ms',
      label: `signing page p95 latency, ${SIGNERS} concurrent signers each on his own link (engine in this process)`,
      value: page.p95,
      unit: 'ms',
      baseline: { label: 'GET /healthz p95 under the same 50-way load', value: health.p95 },
      detail: { ...page, healthz: health },
    };
  } finally {
    await engine.stop();
  }
}

/** `urls.length` clients, each re-loading its URL for `seconds`: latency percentiles over every request. */
async function concurrent(
  urls: string[],
  seconds: number,
): Promise<{ p50: number; p95: number; p99: number; requests: number; rps: number; errors: number }> {
  const lat: number[] = [];
  let errors = 0;
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  await Promise.all(
    urls.map(async (u) => {
      while (performance.now() < until) {
        const s = performance.now();
        const res = await fetch(u);
        await res.arrayBuffer();
        if (res.status !== 200) errors++;
        lat.push(performance.now() - s);
      }
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const p = (q: number) => Math.round(lat[Math.min(lat.length - 1, Math.floor(q * lat.length))]! * 10) / 10;
  return { p50: p(0.5), p95: p(0.95), p99: p(0.99), requests: lat.length, rps: Math.round(lat.length / wall), errors };
}

export const signing: Suite = {
  name: 'signing',
  description:
    'sealed signed packets/s vs @signpdf alone on the same PDFs (>= 0.8), signing page p95 under 50 concurrent signers',
  async run(ctx: SuiteContext): Promise<Metric[]> {
    return [await packets(ctx), await pageLatency(ctx)];
  },
};
