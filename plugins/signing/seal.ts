/**
 * Sealing: a PAdES (ETSI.CAdES.detached) signature over a whole PDF with the
 * organization's certificate (config `plugins.signing.certificate`), or a
 * self-signed one generated at first start into `<dataDir>/signing/seal.p12`
 * (mode 0600) with node-forge. docs/signing.md.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync, linkSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import forge from 'node-forge';
import { PDFDocument } from 'pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { P12Signer } from '@signpdf/signer-p12';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';

export interface SealKey {
  p12: Buffer;
  passphrase: string;
  commonName: string;
}

/** Writes a file whole, once: two processes starting on a new folder agree on one. */
function writeOnce(file: string, data: Buffer | string): void {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, data, { mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    unlinkSync(tmp);
  }
}

/** A self-signed signing certificate for `name`, as a PKCS#12 file protected by `passphrase`. */
export function selfSignedP12(name: string, passphrase: string, years = 10): Buffer {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + years * 365 * 86_400_000);
  const attrs = [
    { name: 'commonName', value: name },
    { name: 'organizationName', value: 'titled' },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], passphrase, { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

/** The sealing key: the configured PKCS#12, else the one under dataDir (generated on first use). */
export function loadSealKey(dataDir: string, configured?: { p12File: string; passphrase: string }): SealKey {
  if (configured)
    return {
      p12: readFileSync(resolve(configured.p12File)),
      passphrase: configured.passphrase,
      commonName: 'configured',
    };
  const dir = join(resolve(dataDir), 'signing');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'seal.p12');
  const passFile = join(dir, 'seal.pass');
  if (!existsSync(passFile)) writeOnce(passFile, randomBytes(24).toString('hex'));
  const passphrase = readFileSync(passFile, 'utf8').trim();
  if (!existsSync(file)) writeOnce(file, selfSignedP12('titled signing seal (self-signed)', passphrase));
  chmodSync(file, 0o600);
  return { p12: readFileSync(file), passphrase, commonName: 'titled signing seal (self-signed)' };
}

/** A random key kept under dataDir (0600): what signers' link tokens are derived from. */
export function loadLinkKey(dataDir: string): Buffer {
  const dir = join(resolve(dataDir), 'signing');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'link.key');
  if (!existsSync(file)) writeOnce(file, randomBytes(32).toString('hex'));
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}

const signer = new SignPdf();

/**
 * Seals `pdf`: adds a signature placeholder (pdf-lib) and signs the byte
 * range (PAdES). `edit` changes the loaded document first (signatures
 * placed), so a signed copy is loaded and saved once.
 */
export async function seal(
  pdf: Uint8Array,
  key: SealKey,
  o: { reason: string; name: string; location?: string },
  edit?: (doc: PDFDocument) => Promise<void>,
): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  if (edit) await edit(doc);
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: o.reason,
    contactInfo: '',
    name: o.name,
    location: o.location ?? 'US',
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    signatureLength: 16_384,
    appName: 'titled',
  });
  const bytes = Buffer.from(await doc.save({ useObjectStreams: false }));
  return signer.sign(bytes, new P12Signer(key.p12, { passphrase: key.passphrase }));
}
