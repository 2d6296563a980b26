/**
 * Completion outputs: each document with its signatures placed, then sealed;
 * the certificate of completion, sealed; one ZIP of all of them. `sealPacket`
 * is pure (the bench measures it); `finalizeOutputs` stores its results under
 * the entry (`signing/<request id>/...`).
 */
import yazl from 'yazl';
import type { EntryObjects } from '../../core/plugin-api.js';
import { certificateOfCompletion } from './certificate.js';
import { seal, type SealKey } from './seal.js';
import { placeInto } from './stamp.js';
import { notarialPageInto } from './paper.js';
import type { RonSession } from './ron.js';
import { sha256, type AuditEvent, type DocumentRow, type RequestRow, type SignerRow } from './store.js';
import type { SigningEngine } from './service.js';

function zip(files: { name: string; data: Buffer }[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const z = new yazl.ZipFile();
    for (const f of files) z.addBuffer(f.data, f.name, { mtime: new Date(0) });
    const chunks: Buffer[] = [];
    z.outputStream.on('data', (c: Buffer) => chunks.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    z.outputStream.on('error', reject);
    z.end();
  });
}

export interface Packet {
  docs: { row: DocumentRow; sealed: Buffer }[];
  cert: Buffer;
  zip: Buffer;
  completedAt: number;
}

/**
 * Places and seals every document, writes and seals the certificate, zips
 * them; `row.sha256After` is set on each document.
 */
export async function sealPacket(
  r: RequestRow,
  docs: { row: DocumentRow; src: Uint8Array }[],
  signers: SignerRow[],
  events: AuditEvent[],
  key: SealKey,
): Promise<Packet> {
  const ron = r.doc.ron as (RonSession & { provider?: string }) | undefined;
  const out: Packet['docs'] = [];
  for (const { row, src } of docs) {
    const mine = signers.filter((s) => row.signerIds.includes(s.signerId));
    const sealed = await seal(
      src,
      key,
      { reason: `Signed by ${mine.map((s) => s.name).join(', ')} (request ${r.id})`, name: 'titled' },
      async (doc) => {
        await placeInto(doc, row.boxes, mine, row.filename);
        if (ron?.status === 'completed')
          await notarialPageInto(
            doc,
            ron,
            row.filename,
            mine.map((s) => s.name),
          );
      },
    );
    row.sha256After = sha256(sealed);
    out.push({ row, sealed });
  }
  const completedAt = Date.now();
  const certPdf = await certificateOfCompletion(
    { ...r, completedAt },
    docs.map((d) => d.row),
    signers,
    events,
  );
  const cert = await seal(certPdf, key, { reason: `Certificate of completion of request ${r.id}`, name: 'titled' });
  const files = [
    ...out.map((d) => ({ name: d.row.filename, data: d.sealed })),
    { name: 'certificate-of-completion.pdf', data: cert },
  ];
  return { docs: out, cert, zip: await zip(files), completedAt };
}

export interface Outputs {
  docs: DocumentRow[];
  cert: string;
  zip: string;
  certSha: string;
  completedAt: number;
}

export async function finalizeOutputs(
  svc: SigningEngine,
  r: RequestRow,
  objects: EntryObjects,
  key: SealKey,
): Promise<Outputs> {
  const [signers, rows, events] = await Promise.all([
    svc.store.signers(r.id),
    svc.store.documents(r.id),
    svc.store.events(r.id),
  ]);
  const docs = await Promise.all(
    rows.map(async (row) => {
      const src = await objects.get(row.sourceKey);
      if (!src) throw new Error(`document ${row.name} is missing from storage`);
      return { row, src };
    }),
  );
  const p = await sealPacket(r, docs, signers, events, key);
  const dir = `signing/${r.id}`;
  for (const d of p.docs)
    d.row.signedKey = await objects.put(`${dir}/${d.row.position + 1}-${d.row.filename}`, d.sealed);
  const cert = await objects.put(`${dir}/certificate-of-completion.pdf`, p.cert);
  const zipKey = await objects.put(`${dir}/full-export.zip`, p.zip);
  return { docs: p.docs.map((d) => d.row), cert, zip: zipKey, certSha: sha256(p.cert), completedAt: p.completedAt };
}
