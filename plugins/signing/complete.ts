/**
 * Completion outputs: each document with its signatures placed, then sealed;
 * the certificate of completion, sealed; one ZIP of all of them. Stored under
 * the entry (`signing/<request id>/...`).
 */
import yazl from 'yazl';
import type { EntryObjects } from '../../core/plugin-api.js';
import { certificateOfCompletion } from './certificate.js';
import { seal, type SealKey } from './seal.js';
import { placeInto } from './stamp.js';
import { notarialPageInto } from './paper.js';
import type { RonSession } from './ron.js';
import { sha256, type DocumentRow, type RequestRow } from './store.js';
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

export interface Outputs { docs: DocumentRow[]; cert: string; zip: string; certSha: string; completedAt: number }

export async function finalizeOutputs(svc: SigningEngine, r: RequestRow, objects: EntryObjects, key: SealKey): Promise<Outputs> {
  const [signers, docs] = await Promise.all([svc.store.signers(r.id), svc.store.documents(r.id)]);
  const files: { name: string; data: Buffer }[] = [];
  const dir = `signing/${r.id}`;
  for (const d of docs) {
    const src = await objects.get(d.sourceKey);
    if (!src) throw new Error(`document ${d.name} is missing from storage`);
    const mine = signers.filter((s) => d.signerIds.includes(s.signerId));
    const ron = r.doc.ron as (RonSession & { provider?: string }) | undefined;
    const sealed = await seal(src, key, { reason: `Signed by ${mine.map((s) => s.name).join(', ')} (request ${r.id})`, name: 'titled' }, async (doc) => {
      await placeInto(doc, d.boxes, mine, d.filename);
      if (ron?.status === 'completed') await notarialPageInto(doc, ron, d.filename, mine.map((s) => s.name));
    });
    d.sha256After = sha256(sealed);
    d.signedKey = await objects.put(`${dir}/${d.position + 1}-${d.filename}`, sealed);
    files.push({ name: d.filename, data: sealed });
  }
  const completedAt = Date.now();
  const events = await svc.store.events(r.id);
  const certPdf = await certificateOfCompletion({ ...r, completedAt }, docs, signers, events);
  const certSealed = await seal(certPdf, key, { reason: `Certificate of completion of request ${r.id}`, name: 'titled' });
  const cert = await objects.put(`${dir}/certificate-of-completion.pdf`, certSealed);
  files.push({ name: 'certificate-of-completion.pdf', data: certSealed });
  const zipKey = await objects.put(`${dir}/full-export.zip`, await zip(files));
  return { docs, cert, zip: zipKey, certSha: sha256(certSealed), completedAt };
}
