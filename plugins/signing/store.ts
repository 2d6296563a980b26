/**
 * The signing plugin's rows: requests, signers, documents and the hash-chained
 * audit log. Plain SQL through core's Database (both dialects).
 */
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Database, SignatureRequestStatus } from '../../core/plugin-api.js';

export interface RequestRow {
  id: string;
  orgId: string;
  entryId: string;
  openKey: string | null;
  status: SignatureRequestStatus;
  type: string;
  doc: RequestDoc;
  linkBase: string;
  createdAt: number;
  updatedAt: number;
  sentAt: number | null;
  expiresAt: number | null;
  nextReminderAt: number | null;
  remindersSent: number;
  lastBumpAt: number | null;
  completedAt: number | null;
}

/** What a request keeps beside its columns. */
export interface RequestDoc {
  redirect_url?: { url: string; message: string };
  requester_email?: string;
  instructions?: string;
  metadata?: Record<string, unknown>;
  title_collection?: Record<string, unknown>;
  physical_tracking?: Record<string, unknown>;
  sign_cert?: string;
  full_export?: string;
  collected_dlid?: string;
  /** Signers whose license did not match the owner (ids). */
  dlid_mismatch?: string[];
  wet_sign_packet?: string;
  ron?: Record<string, unknown> & { session_id?: string; status?: string };
}

export interface SignerRow {
  id: string;
  requestId: string;
  position: number;
  signerId: string;
  name: string;
  person: Record<string, unknown>;
  tokenHash: string;
  tokenExpiresAt: number;
  status: 'pending' | 'viewed' | 'signed' | 'declined';
  viewedAt: number | null;
  consentAt: number | null;
  signedAt: number | null;
  ip: string | null;
  userAgent: string | null;
  signature: { kind: 'typed' | 'drawn'; text?: string; png?: string } | null;
  dlid: Record<string, unknown> | null;
  lastNotifiedAt: number | null;
}

export interface Box {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  signer_id: string;
  date?: { x: number; width: number };
}

export interface DocumentRow {
  id: string;
  requestId: string;
  position: number;
  name: string;
  filename: string;
  sourceKey: string;
  signerIds: string[];
  boxes: Box[];
  sha256Before: string;
  signedKey: string | null;
  sha256After: string | null;
  pages: number;
}

export interface AuditEvent {
  seq: number;
  at: number;
  type: string;
  actor: string;
  data: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const json = <T>(v: unknown, d: T): T => (v === null || v === undefined ? d : (JSON.parse(String(v)) as T));

function toRequest(r: Record<string, unknown>): RequestRow {
  return {
    id: String(r.id),
    orgId: String(r.orgId),
    entryId: String(r.entryId),
    openKey: r.openKey === null ? null : String(r.openKey),
    status: String(r.status) as SignatureRequestStatus,
    type: String(r.type),
    doc: json(r.doc, {}),
    linkBase: String(r.linkBase),
    createdAt: Number(r.createdAt),
    updatedAt: Number(r.updatedAt),
    sentAt: num(r.sentAt),
    expiresAt: num(r.expiresAt),
    nextReminderAt: num(r.nextReminderAt),
    remindersSent: Number(r.remindersSent),
    lastBumpAt: num(r.lastBumpAt),
    completedAt: num(r.completedAt),
  };
}

function toSigner(r: Record<string, unknown>): SignerRow {
  return {
    id: String(r.id),
    requestId: String(r.requestId),
    position: Number(r.position),
    signerId: String(r.signerId),
    name: String(r.name),
    person: json(r.person, {}),
    tokenHash: String(r.tokenHash),
    tokenExpiresAt: Number(r.tokenExpiresAt),
    status: String(r.status) as SignerRow['status'],
    viewedAt: num(r.viewedAt),
    consentAt: num(r.consentAt),
    signedAt: num(r.signedAt),
    ip: r.ip === null ? null : String(r.ip),
    userAgent: r.userAgent === null ? null : String(r.userAgent),
    signature: json(r.signature, null),
    dlid: json(r.dlid, null),
    lastNotifiedAt: num(r.lastNotifiedAt),
  };
}

function toDocument(r: Record<string, unknown>): DocumentRow {
  return {
    id: String(r.id),
    requestId: String(r.requestId),
    position: Number(r.position),
    name: String(r.name),
    filename: String(r.filename),
    sourceKey: String(r.sourceKey),
    signerIds: json(r.signerIds, []),
    boxes: json(r.boxes, []),
    sha256Before: String(r.sha256Before),
    signedKey: r.signedKey === null ? null : String(r.signedKey),
    sha256After: r.sha256After === null ? null : String(r.sha256After),
    pages: Number(r.pages ?? 0),
  };
}

export const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

/** The hash of an audit event: over the previous hash and the event's own fields, in a fixed order. */
export function eventHash(e: Omit<AuditEvent, 'hash'> & { requestId: string }): string {
  return sha256(JSON.stringify([e.prevHash, e.requestId, e.seq, e.at, e.type, e.actor, e.data]));
}

export class SigningStore {
  constructor(private readonly db: Database) {}

  async insertRequest(m: EntityManager, r: RequestRow): Promise<void> {
    await this.db.exec(
      'INSERT INTO signing_requests (id, "orgId", "entryId", "openKey", status, type, doc, "linkBase", "createdAt", "updatedAt", ' +
        '"sentAt", "expiresAt", "nextReminderAt", "remindersSent", "lastBumpAt", "completedAt") ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        r.id,
        r.orgId,
        r.entryId,
        r.openKey,
        r.status,
        r.type,
        JSON.stringify(r.doc),
        r.linkBase,
        r.createdAt,
        r.updatedAt,
        r.sentAt,
        r.expiresAt,
        r.nextReminderAt,
        r.remindersSent,
        r.lastBumpAt,
        r.completedAt,
      ],
      m,
    );
  }

  async updateRequest(m: EntityManager, r: RequestRow): Promise<void> {
    r.updatedAt = Date.now();
    await this.db.exec(
      'UPDATE signing_requests SET "openKey" = ?, status = ?, type = ?, doc = ?, "updatedAt" = ?, "sentAt" = ?, "expiresAt" = ?, ' +
        '"nextReminderAt" = ?, "remindersSent" = ?, "lastBumpAt" = ?, "completedAt" = ? WHERE id = ?',
      [
        r.openKey,
        r.status,
        r.type,
        JSON.stringify(r.doc),
        r.updatedAt,
        r.sentAt,
        r.expiresAt,
        r.nextReminderAt,
        r.remindersSent,
        r.lastBumpAt,
        r.completedAt,
        r.id,
      ],
      m,
    );
  }

  async request(id: string, m?: EntityManager): Promise<RequestRow | null> {
    const rows = await this.db.query<Record<string, unknown>>('SELECT * FROM signing_requests WHERE id = ?', [id], m);
    return rows[0] ? toRequest(rows[0]) : null;
  }

  async openRequest(entryId: string, m?: EntityManager): Promise<RequestRow | null> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM signing_requests WHERE "openKey" = ?',
      [entryId],
      m,
    );
    return rows[0] ? toRequest(rows[0]) : null;
  }

  async requestsOf(orgId: string, entryId: string, m?: EntityManager): Promise<RequestRow[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM signing_requests WHERE "orgId" = ? AND "entryId" = ? ORDER BY "createdAt", id',
      [orgId, entryId],
      m,
    );
    return rows.map(toRequest);
  }

  /** Open requests whose reminder or expiry is due. */
  async due(now: number, limit = 50): Promise<RequestRow[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM signing_requests WHERE "openKey" IS NOT NULL AND (("nextReminderAt" IS NOT NULL AND "nextReminderAt" <= ?) ' +
        'OR ("expiresAt" IS NOT NULL AND "expiresAt" <= ?)) ORDER BY "updatedAt" LIMIT ?',
      [now, now, limit],
    );
    return rows.map(toRequest);
  }

  async openOfType(type: string): Promise<RequestRow[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM signing_requests WHERE "openKey" IS NOT NULL AND type = ? ORDER BY "updatedAt" LIMIT 100',
      [type],
    );
    return rows.map(toRequest);
  }

  async insertSigner(m: EntityManager, s: SignerRow): Promise<void> {
    await this.db.exec(
      'INSERT INTO signing_signers (id, "requestId", position, "signerId", name, person, "tokenHash", "tokenExpiresAt", status) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        s.id,
        s.requestId,
        s.position,
        s.signerId,
        s.name,
        JSON.stringify(s.person),
        s.tokenHash,
        s.tokenExpiresAt,
        s.status,
      ],
      m,
    );
  }

  async updateSigner(m: EntityManager, s: SignerRow): Promise<void> {
    await this.db.exec(
      'UPDATE signing_signers SET status = ?, "tokenExpiresAt" = ?, "viewedAt" = ?, "consentAt" = ?, "signedAt" = ?, ip = ?, ' +
        '"userAgent" = ?, signature = ?, dlid = ?, "lastNotifiedAt" = ? WHERE id = ?',
      [
        s.status,
        s.tokenExpiresAt,
        s.viewedAt,
        s.consentAt,
        s.signedAt,
        s.ip,
        s.userAgent,
        s.signature ? JSON.stringify(s.signature) : null,
        s.dlid ? JSON.stringify(s.dlid) : null,
        s.lastNotifiedAt,
        s.id,
      ],
      m,
    );
  }

  async signers(requestId: string, m?: EntityManager): Promise<SignerRow[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM signing_signers WHERE "requestId" = ? ORDER BY position',
      [requestId],
      m,
    );
    return rows.map(toSigner);
  }

  async signerByToken(tokenHash: string, m?: EntityManager): Promise<SignerRow | null> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM signing_signers WHERE "tokenHash" = ?',
      [tokenHash],
      m,
    );
    return rows[0] ? toSigner(rows[0]) : null;
  }

  async insertDocument(m: EntityManager, d: DocumentRow): Promise<void> {
    await this.db.exec(
      'INSERT INTO signing_documents (id, "requestId", position, name, filename, "sourceKey", "signerIds", boxes, "sha256Before", pages) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        d.id,
        d.requestId,
        d.position,
        d.name,
        d.filename,
        d.sourceKey,
        JSON.stringify(d.signerIds),
        JSON.stringify(d.boxes),
        d.sha256Before,
        d.pages,
      ],
      m,
    );
  }

  async updateDocument(m: EntityManager, d: DocumentRow): Promise<void> {
    await this.db.exec(
      'UPDATE signing_documents SET "signedKey" = ?, "sha256After" = ? WHERE id = ?',
      [d.signedKey, d.sha256After, d.id],
      m,
    );
  }

  async documents(requestId: string, m?: EntityManager): Promise<DocumentRow[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM signing_documents WHERE "requestId" = ? ORDER BY position',
      [requestId],
      m,
    );
    return rows.map(toDocument);
  }

  /** Appends an event to the request's chain (inside the caller's transaction). */
  async append(
    m: EntityManager,
    requestId: string,
    type: string,
    actor: string,
    data: Record<string, unknown> = {},
  ): Promise<AuditEvent> {
    const last = await this.db.query<{ seq: unknown; hash: string }>(
      'SELECT seq, hash FROM signing_events WHERE "requestId" = ? ORDER BY seq DESC LIMIT 1',
      [requestId],
      m,
    );
    const seq = last[0] ? Number(last[0].seq) + 1 : 1;
    const prevHash = last[0]?.hash ?? '0'.repeat(64);
    const e = { requestId, seq, at: Date.now(), type, actor, data, prevHash };
    const hash = eventHash(e);
    await this.db.exec(
      'INSERT INTO signing_events ("requestId", seq, at, type, actor, data, "prevHash", hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [requestId, seq, e.at, type, actor, JSON.stringify(data), prevHash, hash],
      m,
    );
    return { seq, at: e.at, type, actor, data, prevHash, hash };
  }

  async events(requestId: string, m?: EntityManager): Promise<AuditEvent[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM signing_events WHERE "requestId" = ? ORDER BY seq',
      [requestId],
      m,
    );
    return rows.map((r) => ({
      seq: Number(r.seq),
      at: Number(r.at),
      type: String(r.type),
      actor: String(r.actor),
      data: json(r.data, {}),
      prevHash: String(r.prevHash),
      hash: String(r.hash),
    }));
  }

  /** Whether the request's chain is intact: each event links to the previous and its hash is its own. */
  async verifyChain(requestId: string): Promise<{ ok: boolean; events: number; brokenAt?: number }> {
    const list = await this.events(requestId);
    let prev = '0'.repeat(64);
    for (const e of list) {
      if (e.prevHash !== prev || eventHash({ ...e, requestId }) !== e.hash)
        return { ok: false, events: list.length, brokenAt: e.seq };
      prev = e.hash;
    }
    return { ok: true, events: list.length };
  }
}
