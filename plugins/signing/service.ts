/**
 * The signing service (COLLABORATORS.signing): signature requests, their
 * signers' links, signing, completion (placement, seals, certificate,
 * export), account_status moves, reminders and expiry. docs/signing.md.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import type { EntityManager } from 'typeorm';
import type { DependencyContainer } from 'tsyringe';
import {
  COLLABORATORS,
  EntryObjects,
  TitledError,
  assertSignatureRequestMove,
  isOpenSignatureStatus,
  isUniqueViolation,
  isTitledError,
  type Database,
  type Entries,
  type Logger,
  type ObjectStore,
  type Organization,
  type Principal,
  type SignedDocument,
  type SignatureRequestStatus,
  type SigningService,
  type TitleCollectionService,
  type TitleEntry,
} from '../../core/plugin-api.js';
import { parseSignBody, type SignBody } from './body.js';
import { defaultDocuments, defaultSigners, type PlannedDocument, type PlannedSigner } from './defaults.js';
import { scheduleFor, type SigningOptions } from './options.js';
import { sha256, SigningStore, type DocumentRow, type RequestRow, type SignerRow } from './store.js';
import type { Notifier } from './notify.js';
import { finalizeOutputs } from './complete.js';
import type { SealKey } from './seal.js';
import { chooseType } from './rules.js';
import type { RonProvider, RonSession } from './ron.js';
import { wetSignPacket } from './paper.js';
import { checkLicense } from './dlid.js';
import type { DocumentExtractionService } from '../../core/plugin-api.js';

export interface SigningDeps {
  db: Database;
  entries: Entries;
  objects: ObjectStore;
  log: Logger;
  options: SigningOptions;
  container: DependencyContainer;
  linkKey: Buffer;
  sealKey: () => SealKey;
  notifier: Notifier;
  orgName: (orgId: string) => Promise<string>;
  presignTtlSeconds: number;
  publicUrl?: string;
  ron: RonProvider;
}

/** What a signer submits on the page. */
export interface SignSubmission {
  consent: boolean;
  typed?: string;
  drawnPng?: string;
  decline?: boolean;
  ip: string;
  userAgent: string;
  /** An optional photo of the signer's driver license. */
  dlPhoto?: { data: Buffer; type: string };
}

export class SigningEngine implements SigningService {
  readonly store: SigningStore;
  constructor(readonly d: SigningDeps) {
    this.store = new SigningStore(d.db);
  }

  /** The signer's link token: derived from the plugin's link key, stored only as its hash. */
  token(signerRowId: string): string {
    return createHmac('sha256', this.d.linkKey).update(`signer:${signerRowId}`).digest('base64url');
  }

  link(r: RequestRow, s: SignerRow): string {
    return `${r.linkBase}/sign/${this.token(s.id)}`;
  }

  private visible(p: Principal, entry: TitleEntry): boolean {
    return !p.groups || !entry.groupId || p.groups.includes(entry.groupId);
  }

  /** The canonical entry of `id` (a duplicate pointer resolves) as the principal may see it, or ENTRY_NOT_FOUND. */
  async mustEntry(p: Principal, id: string): Promise<TitleEntry> {
    const found = await this.d.entries.load(p.org.id, id);
    if (!found || !this.visible(p, found.entry)) throw new TitledError('ENTRY_NOT_FOUND', `entry ${id} not found`);
    return found.entry;
  }

  /** POST /title/{id}/sign. `base` is the scheme and host the request came in on (for links when no publicUrl is set). */
  async request(
    p: Principal,
    entryId: string,
    body: unknown,
    action?: string,
    base?: string,
  ): Promise<Record<string, unknown>> {
    const act = action?.toUpperCase();
    if (act && act !== 'ACTIVATE' && act !== 'BUMP')
      throw new TitledError('INVALID_INPUT', `Action must be ACTIVATE or BUMP, not '${action}'`);
    const entry = await this.mustEntry(p, entryId);
    const input = parseSignBody(body);
    if (!input.signers?.length) delete input.signers; // empty: the default signers (spec: all current owners)
    if (!input.documents_to_sign?.length) delete input.documents_to_sign;
    let r = await this.store.openRequest(entry.entryId);
    if (!r) r = await this.create(p.org, entry, input, base);
    if (act === 'ACTIVATE') r = await this.activate(r, `api:${p.userId}`);
    if (act === 'BUMP') r = await this.bump(r, `api:${p.userId}`);
    const collection = await this.ensureCollection(p.org.id, entry.entryId);
    return this.view(r, { links: true, collection });
  }

  private async ensureCollection(orgId: string, entryId: string): Promise<Record<string, unknown> | undefined> {
    if (!this.d.container.isRegistered(COLLABORATORS.titleCollection, true)) return undefined;
    const svc = this.d.container.resolve<TitleCollectionService>(COLLABORATORS.titleCollection);
    return (await svc.ensure(orgId, entryId)) ?? undefined;
  }

  private async plan(
    entry: TitleEntry,
    input: SignBody,
  ): Promise<{ signers: PlannedSigner[]; docs: PlannedDocument[] }> {
    const objects = new EntryObjects(this.d.objects, entry.storeIndex);
    const signers: PlannedSigner[] = input.signers
      ? input.signers.map((s, i) => {
          const name = s.name || [s.name_first, s.name_middle, s.name_last, s.name_suffix].filter(Boolean).join(' ');
          return {
            signerId: s.id || `signer-${i + 1}`,
            name,
            person: { type: 'PERSON', ...s, name, id: s.id || `signer-${i + 1}` },
          };
        })
      : defaultSigners(entry);
    if (!signers.length) {
      throw new TitledError(
        'CONFLICT',
        'the entry has no signers yet: generate its forms (POST /title/{id}/forms) or give `signers`',
      );
    }
    let docs = input.documents_to_sign
      ? this.givenDocuments(entry, input, signers)
      : await defaultDocuments(entry, objects, signers);
    if (input.documents_to_sign) {
      // the boxes of a form given by name still come from the forms plugin's metadata
      const known = await defaultDocuments(entry, objects, signers);
      docs = docs.map((d) => ({
        ...d,
        boxes: known.find((k) => k.key === d.key)?.boxes.filter((b) => d.signerIds.includes(b.signer_id)) ?? [],
      }));
    }
    if (!docs.length)
      throw new TitledError(
        'CONFLICT',
        'the entry has no documents to sign: generate its forms or give `documents_to_sign`',
      );
    return { signers, docs };
  }

  private givenDocuments(entry: TitleEntry, input: SignBody, signers: PlannedSigner[]): PlannedDocument[] {
    return input.documents_to_sign!.map((d, i) => {
      const m = /^(forms_[a-z_]+)\[(\d+)\]$/.exec(d.id);
      const member = m ? (entry[m[1]!] as { form?: string }[] | undefined)?.[Number(m[2])]?.form : entry[d.id];
      const key = typeof member === 'string' ? member : d.id.startsWith(`${entry.storeIndex}/`) ? d.id : undefined;
      if (!key)
        throw new TitledError(
          'INVALID_INPUT',
          `documents_to_sign[${i}].id: '${d.id}' is no form or object of the entry`,
        );
      const ids = d.signer_id?.length ? d.signer_id : signers.map((s) => s.signerId);
      const unknown = ids.filter((x) => !signers.some((s) => s.signerId === x));
      if (unknown.length)
        throw new TitledError(
          'INVALID_INPUT',
          `documents_to_sign[${i}].signer_id: unknown signer ${unknown.join(', ')}`,
        );
      return {
        name: d.id,
        filename: d.filename || `${d.id.replace(/[^A-Za-z0-9_-]+/g, '-')}.pdf`,
        key,
        signerIds: ids,
        boxes: [],
      };
    });
  }

  private async create(org: Organization, entry: TitleEntry, input: SignBody, base?: string): Promise<RequestRow> {
    const { signers, docs } = await this.plan(entry, input);
    const objects = new EntryObjects(this.d.objects, entry.storeIndex);
    const hashes = await Promise.all(
      docs.map(async (d) => {
        const bytes = await objects.get(d.key);
        if (!bytes)
          throw new TitledError('CONFLICT', `document ${d.name} is missing from storage; regenerate the forms`);
        let pages = 0;
        try {
          pages = (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount();
        } catch {
          throw new TitledError('INVALID_INPUT', `document ${d.name} is not a readable PDF`);
        }
        return { sha: sha256(bytes), pages };
      }),
    );
    const now = Date.now();
    const sched = scheduleFor(this.d.options, org.name);
    const redirect =
      typeof input.redirect_url === 'string' ? { url: input.redirect_url, message: '' } : input.redirect_url;
    const r: RequestRow = {
      id: randomUUID(),
      orgId: org.id,
      entryId: entry.entryId,
      openKey: entry.entryId,
      status: 'DRAFT',
      type:
        input.type ??
        chooseType(
          entry,
          docs.map((d) => d.name),
        ),
      doc: {
        ...(redirect ? { redirect_url: { url: redirect.url, message: redirect.message ?? '' } } : {}),
        ...(input.requester_email ? { requester_email: input.requester_email } : {}),
        ...(input.instructions ? { instructions: input.instructions } : {}),
        metadata: input.metadata ?? {},
      },
      linkBase: (this.d.options.publicUrl ?? this.d.publicUrl ?? base ?? 'http://localhost').replace(/\/$/, ''),
      createdAt: now,
      updatedAt: now,
      sentAt: null,
      expiresAt: now + sched.expiryMs,
      nextReminderAt: null,
      remindersSent: 0,
      lastBumpAt: null,
      completedAt: null,
    };
    try {
      await this.d.db.tx(async (m) => {
        await this.store.insertRequest(m, r);
        for (const [i, s] of signers.entries()) {
          const id = randomUUID();
          await this.store.insertSigner(m, {
            id,
            requestId: r.id,
            position: i,
            signerId: s.signerId,
            name: s.name,
            person: s.person,
            tokenHash: sha256(this.token(id)),
            tokenExpiresAt: r.expiresAt!,
            status: 'pending',
            viewedAt: null,
            consentAt: null,
            signedAt: null,
            ip: null,
            userAgent: null,
            signature: null,
            dlid: null,
            lastNotifiedAt: null,
          });
        }
        for (const [i, d] of docs.entries()) {
          await this.store.insertDocument(m, {
            id: randomUUID(),
            requestId: r.id,
            position: i,
            name: d.name,
            filename: d.filename,
            sourceKey: d.key,
            signerIds: d.signerIds,
            boxes: d.boxes,
            sha256Before: hashes[i]!.sha,
            pages: hashes[i]!.pages,
            signedKey: null,
            sha256After: null,
          });
        }
        await this.store.append(m, r.id, 'created', 'api', {
          type: r.type,
          signers: signers.length,
          documents: docs.length,
        });
        await this.syncEntry(m, r);
      });
    } catch (e) {
      // a concurrent call created the entry's open request first: that one is the answer
      if (isUniqueViolation(e)) {
        const open = await this.store.openRequest(entry.entryId);
        if (open) return open;
      }
      throw e;
    }
    const collection = await this.ensureCollection(org.id, entry.entryId);
    if (collection) {
      await this.d.db.tx(async (m) => {
        const cur = (await this.store.request(r.id, m))!;
        cur.doc.title_collection = collection;
        await this.store.updateRequest(m, cur);
        await this.syncEntry(m, cur);
      });
      return (await this.store.request(r.id))!;
    }
    return r;
  }

  /**
   * Writes the request's summary into the entry's `signature_requests` (no
   * signer links; object keys, presigned on reads) and moves account_status.
   */
  async syncEntry(
    m: EntityManager,
    r: RequestRow,
    accountStatus?: 'poa_sent' | 'poa_signed' | 'withdrawn',
  ): Promise<void> {
    const found = await this.d.entries.load(r.orgId, r.entryId, m);
    if (!found) return;
    const entry = found.entry;
    const summary = await this.view(r, { links: false, m });
    const list = ((entry.signature_requests as Record<string, unknown>[] | undefined) ?? []).filter(
      (x) => x.id !== r.id,
    );
    entry.signature_requests = [...list, summary];
    // a sent request that ends unsigned withdraws the POA: poa_sent goes back to originated (any other status stays)
    const withdrawn = entry.account_status === 'poa_sent' ? 'originated' : undefined;
    const to = accountStatus === 'withdrawn' ? withdrawn : accountStatus;
    if (to) {
      try {
        await this.d.entries.setStatus(m, r.orgId, entry, 'account_status', to, { signature_request: r.id });
      } catch (e) {
        if (!isTitledError(e) || e.code !== 'CONFLICT') throw e; // a later account status stays (recorded in the audit log)
        await this.store.append(m, r.id, 'account_status_kept', 'system', {
          wanted: to,
          status: entry.account_status,
        });
      }
    }
    await this.d.entries.save(m, r.orgId, entry);
  }

  /** The SignatureRequest as the API shows it. `links`: the signers' own links (only for the requester's POST answer). */
  async view(
    r: RequestRow,
    o: { links: boolean; collection?: Record<string, unknown>; m?: EntityManager },
  ): Promise<Record<string, unknown>> {
    const [signers, docs] = await Promise.all([this.store.signers(r.id, o.m), this.store.documents(r.id, o.m)]);
    const url = (key: string | null | undefined) =>
      key && o.links ? this.d.objects.presign(key, this.d.presignTtlSeconds) : key;
    const out: Record<string, unknown> = {
      id: r.id,
      type: r.type,
      status: r.status,
      transaction_access_url: `${r.linkBase}/sign/request/${r.id}`,
      ...(r.doc.redirect_url ? { redirect_url: r.doc.redirect_url } : {}),
      ...(r.doc.requester_email ? { requester_email: r.doc.requester_email } : {}),
      documents_to_sign: docs.map((d) => ({
        filename: d.filename,
        id: d.id,
        signer_id: d.signerIds,
        ...(d.signedKey ? { signed_copy: url(d.signedKey) } : {}),
      })),
      created_at: new Date(r.createdAt).toISOString(),
      updated_at: new Date(r.updatedAt).toISOString(),
      signers: signers.map((s) => {
        const { ssn: _ssn, dob: _dob, ...person } = s.person;
        return {
          ...person,
          ...(o.links && isOpenSignatureStatus(r.status) && s.status !== 'signed'
            ? { transaction_access_url: this.link(r, s) }
            : {}),
        };
      }),
      ...(r.doc.sign_cert ? { sign_cert: url(r.doc.sign_cert) } : {}),
      ...(r.doc.collected_dlid ? { collected_dlid: url(r.doc.collected_dlid) } : {}),
      ...(r.doc.full_export ? { full_export: url(r.doc.full_export) } : {}),
      ...(r.doc.physical_tracking ? { physical_tracking: r.doc.physical_tracking } : {}),
      ...(r.doc.instructions ? { instructions: r.doc.instructions } : {}),
      metadata: {
        ...(r.doc.metadata ?? {}),
        signer_status: Object.fromEntries(signers.map((s) => [s.signerId, s.status])),
        ...(r.doc.dlid_mismatch?.length ? { dlid_mismatch: r.doc.dlid_mismatch } : {}),
        ...(r.expiresAt ? { expires_at: new Date(r.expiresAt).toISOString() } : {}),
        ...(r.doc.wet_sign_packet ? { wet_sign_packet: url(r.doc.wet_sign_packet) } : {}),
        ...(r.doc.ron ? { ron: r.doc.ron } : {}),
      },
      ...((o.collection ?? r.doc.title_collection) ? { title_collection: o.collection ?? r.doc.title_collection } : {}),
    };
    return out;
  }

  private async move(
    m: EntityManager,
    r: RequestRow,
    to: SignatureRequestStatus,
    actor: string,
    data: Record<string, unknown> = {},
  ) {
    assertSignatureRequestMove(r.status, to);
    const from = r.status;
    r.status = to;
    if (!isOpenSignatureStatus(to)) {
      r.openKey = null;
      r.nextReminderAt = null;
    }
    await this.store.updateRequest(m, r);
    await this.store.append(m, r.id, `status.${to}`, actor, { from, to, ...data });
  }

  /** ?Action=ACTIVATE: DRAFT -> SENT, account_status poa_sent, the signers notified. */
  async activate(r0: RequestRow, actor: string): Promise<RequestRow> {
    if (r0.status !== 'DRAFT') return r0;
    const orgName = await this.d.orgName(r0.orgId);
    const sched = scheduleFor(this.d.options, orgName);
    const r = await this.d.db.tx(async (m) => {
      const r = (await this.store.request(r0.id, m))!;
      if (r.status !== 'DRAFT') return r;
      const now = Date.now();
      r.sentAt = now;
      r.expiresAt = now + sched.expiryMs;
      r.nextReminderAt = sched.max > 0 ? now + sched.everyMs : null;
      await this.move(m, r, 'SENT', actor);
      for (const s of await this.store.signers(r.id, m)) {
        s.tokenExpiresAt = r.expiresAt;
        await this.store.updateSigner(m, s);
      }
      await this.syncEntry(m, r, 'poa_sent');
      return r;
    });
    this.d.log.info({ code: 'SIGNING_SENT', entryId: r.entryId, signatureRequest: r.id }, 'signature request sent');
    if (r.type === 'WET_SIGN') await this.preparePaper(r);
    await this.notifyAll(r, false);
    if (r.type === 'RON') return this.startRon(r);
    return (await this.store.request(r.id))!;
  }

  /** WET_SIGN: the print-and-sign packet, and the outbound/return shipment when the title-collection plugin offers one. */
  private async preparePaper(r: RequestRow): Promise<void> {
    const entry = (await this.d.entries.load(r.orgId, r.entryId))!.entry;
    const objects = new EntryObjects(this.d.objects, entry.storeIndex);
    const [docs, signers] = await Promise.all([this.store.documents(r.id), this.store.signers(r.id)]);
    const parts = await Promise.all(docs.map(async (doc) => ({ doc, pdf: (await objects.get(doc.sourceKey))! })));
    const packet = await wetSignPacket(r.id, parts, signers, this.d.options.returnAddress, r.doc.instructions);
    const key = await objects.put(`signing/${r.id}/wet-sign-packet.pdf`, Buffer.from(packet));
    let tracking: Record<string, unknown> | undefined;
    if (this.d.container.isRegistered(COLLABORATORS.titleCollection, true)) {
      const svc = this.d.container.resolve<TitleCollectionService>(COLLABORATORS.titleCollection);
      tracking = await svc.wetSignShipment?.(r.orgId, r.entryId, r.id);
    }
    await this.d.db.tx(async (m) => {
      const cur = (await this.store.request(r.id, m))!;
      cur.doc.wet_sign_packet = key;
      if (tracking) cur.doc.physical_tracking = tracking;
      await this.store.updateRequest(m, cur);
      await this.store.append(m, r.id, 'wet_sign_packet', 'system', { pages: parts.length });
      await this.syncEntry(m, cur);
    });
  }

  /** RON: opens a session with the provider; a session that is already complete completes the request. */
  private async startRon(r: RequestRow): Promise<RequestRow> {
    const [docs, signers] = await Promise.all([this.store.documents(r.id), this.store.signers(r.id)]);
    const entry = (await this.d.entries.load(r.orgId, r.entryId))!.entry;
    const session = await this.d.ron.start({
      request_id: r.id,
      state: entry.state,
      signers: signers.map((s) => ({
        id: s.signerId,
        name: s.name,
        ...(typeof s.person.contact_email === 'string' ? { email: s.person.contact_email } : {}),
      })),
      documents: docs.map((d) => ({ filename: d.filename, sha256: d.sha256Before })),
    });
    await this.recordRon(r.id, session);
    return session.status === 'completed' ? this.completeRon(r.id, session) : (await this.store.request(r.id))!;
  }

  private async recordRon(requestId: string, session: RonSession): Promise<void> {
    await this.d.db.tx(async (m) => {
      const cur = (await this.store.request(requestId, m))!;
      cur.doc.ron = { provider: this.d.ron.name, ...session };
      await this.store.updateRequest(m, cur);
      await this.store.append(m, requestId, `ron.${session.status}`, `ron:${this.d.ron.name}`, {
        session: session.session_id,
        journal_entry: session.journal_entry?.id ?? '',
        recording_ref: session.recording_ref ?? '',
      });
      await this.syncEntry(m, cur);
    });
  }

  /** A completed RON session: every signer signed before the notary; the documents get the notarial certificate. */
  private async completeRon(requestId: string, session: RonSession): Promise<RequestRow> {
    await this.d.db.tx(async (m) => {
      const r = (await this.store.request(requestId, m))!;
      if (!isOpenSignatureStatus(r.status)) return;
      for (const s of await this.store.signers(r.id, m)) {
        if (s.status === 'signed') continue;
        s.status = 'signed';
        s.signedAt = Date.now();
        s.signature = { kind: 'typed', text: `${s.name} (remote online notarization)` };
        await this.store.updateSigner(m, s);
        await this.store.append(m, r.id, 'signed', `ron:${session.session_id}`, { signer: s.signerId, method: 'ron' });
      }
      await this.move(m, r, 'PARTIALLY_SIGNED', `ron:${this.d.ron.name}`);
    });
    return this.finalize(requestId, `ron:${this.d.ron.name}`);
  }

  /** Polls the RON provider for the open RON requests' sessions. */
  async pollRon(): Promise<number> {
    let done = 0;
    for (const r of await this.store.openOfType('RON')) {
      const id = r.doc.ron?.session_id;
      if (typeof id !== 'string' || r.doc.ron?.status !== 'pending') continue;
      const session = await this.d.ron.get(id);
      if (session.status === 'pending') continue;
      await this.recordRon(r.id, session);
      if (session.status === 'completed') {
        await this.completeRon(r.id, session);
        done++;
      }
    }
    return done;
  }

  /** ?Action=BUMP: re-sends the link to every signer who has not signed (at most once per bumpMinIntervalSeconds). */
  async bump(r0: RequestRow, actor: string): Promise<RequestRow> {
    if (r0.status === 'DRAFT')
      throw new TitledError('CONFLICT', 'the request is a DRAFT: activate it first (?Action=ACTIVATE)');
    if (!isOpenSignatureStatus(r0.status))
      throw new TitledError('CONFLICT', `the request is ${r0.status}; nothing to remind`);
    const min = this.d.options.bumpMinIntervalSeconds * 1000;
    const r = await this.d.db.tx(async (m) => {
      const r = (await this.store.request(r0.id, m))!;
      const since = Date.now() - (r.lastBumpAt ?? 0);
      if (r.lastBumpAt && since < min) {
        throw new TitledError(
          'TOO_MANY_REQUESTS',
          `the signers were reminded ${Math.round(since / 1000)} s ago; wait ${Math.ceil((min - since) / 1000)} s`,
        );
      }
      r.lastBumpAt = Date.now();
      await this.store.updateRequest(m, r);
      await this.store.append(m, r.id, 'bumped', actor);
      return r;
    });
    await this.notifyAll(r, true);
    return r;
  }

  async notifyAll(r: RequestRow, reminder: boolean): Promise<number> {
    let sent = 0;
    for (const s of await this.store.signers(r.id)) {
      if (s.status === 'signed' || s.status === 'declined') continue;
      try {
        const used = await this.d.notifier.toSigner(s.person, this.link(r, s), {
          reminder,
          instructions: r.doc.instructions,
          name: s.name,
        });
        if (used.length) sent++;
        await this.d.db.tx(async (m) => {
          s.lastNotifiedAt = Date.now();
          await this.store.updateSigner(m, s);
          await this.store.append(m, r.id, reminder ? 'reminded' : 'notified', 'system', {
            signer: s.signerId,
            channels: used.join(','),
          });
        });
      } catch (e) {
        this.d.log.warn(
          { code: 'SIGNING_NOTIFY_FAILED', signatureRequest: r.id, err: (e as Error).message },
          'notification failed',
        );
      }
    }
    return sent;
  }

  /** The signer of a link, and his request; null when the link is unknown. */
  async byToken(token: string): Promise<{ r: RequestRow; s: SignerRow } | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    const s = await this.store.signerByToken(sha256(token));
    if (!s) return null;
    const r = await this.store.request(s.requestId);
    return r ? { r, s } : null;
  }

  /** Why a link cannot be used now (null: it can). */
  linkProblem(r: RequestRow, s: SignerRow): string | null {
    if (s.status === 'signed') return 'signed';
    if (s.status === 'declined') return 'declined';
    if (r.status === 'DRAFT') return 'draft';
    if (!isOpenSignatureStatus(r.status)) return r.status.toLowerCase();
    if (s.tokenExpiresAt < Date.now() || (r.expiresAt && r.expiresAt < Date.now())) return 'expired';
    return null;
  }

  async markViewed(r: RequestRow, s: SignerRow, ip: string, userAgent: string): Promise<void> {
    if (s.viewedAt) return;
    await this.d.db.tx(async (m) => {
      s.viewedAt = Date.now();
      if (s.status === 'pending') s.status = 'viewed';
      await this.store.updateSigner(m, s);
      await this.store.append(m, r.id, 'viewed', `signer:${s.signerId}`, { ip, user_agent: userAgent });
    });
  }

  /** Records a signature (or a decline); completes the request when it was the last one. */
  async sign(token: string, sub: SignSubmission): Promise<{ r: RequestRow; s: SignerRow }> {
    const found = await this.byToken(token);
    if (!found) throw new TitledError('NOT_FOUND', 'unknown signing link');
    const problem = this.linkProblem(found.r, found.s);
    if (problem) throw new TitledError('CONFLICT', `this link cannot be used: ${problem}`);
    if (found.r.type !== 'E_SIGN' && !sub.decline) {
      throw new TitledError(
        'CONFLICT',
        found.r.type === 'RON'
          ? 'this request is signed before a notary online'
          : 'this request is signed in ink on paper',
      );
    }
    if (!sub.decline) {
      if (!sub.consent) throw new TitledError('INVALID_INPUT', 'consent to sign electronically is required');
      if (!sub.drawnPng && !sub.typed?.trim())
        throw new TitledError('INVALID_INPUT', 'type your name or draw your signature');
    }
    const dlid = sub.dlPhoto && !sub.decline ? await this.readLicense(found.r, found.s, sub.dlPhoto) : undefined;
    const { r, all } = await this.d.db.tx(async (m) => {
      const r = (await this.store.request(found.r.id, m))!;
      const signers = await this.store.signers(r.id, m);
      const s = signers.find((x) => x.id === found.s.id)!;
      if (this.linkProblem(r, s))
        throw new TitledError('CONFLICT', `this link cannot be used: ${this.linkProblem(r, s)}`);
      const now = Date.now();
      s.ip = sub.ip.slice(0, 64);
      s.userAgent = sub.userAgent.slice(0, 500);
      s.viewedAt ??= now;
      if (sub.decline) {
        s.status = 'declined';
        await this.store.updateSigner(m, s);
        await this.store.append(m, r.id, 'declined', `signer:${s.signerId}`, { ip: s.ip, user_agent: s.userAgent });
        await this.move(m, r, 'DECLINED', `signer:${s.signerId}`);
        await this.syncEntry(m, r, 'withdrawn');
        return { r, all: false };
      }
      s.consentAt = now;
      s.signedAt = now;
      s.status = 'signed';
      s.signature = sub.drawnPng
        ? { kind: 'drawn', png: sub.drawnPng }
        : { kind: 'typed', text: sub.typed!.trim().slice(0, 200) };
      if (dlid) s.dlid = dlid;
      await this.store.updateSigner(m, s);
      await this.store.append(m, r.id, 'consented', `signer:${s.signerId}`, { disclosure: 'E-SIGN/UETA v1' });
      await this.store.append(m, r.id, 'signed', `signer:${s.signerId}`, {
        kind: s.signature.kind,
        ip: s.ip,
        user_agent: s.userAgent,
      });
      if (dlid) {
        const ok = (dlid.match as { ok?: boolean | null }).ok;
        await this.store.append(m, r.id, ok ? 'dlid_matched' : 'dlid_mismatch', 'system', { signer: s.signerId });
        if (!ok) r.doc.dlid_mismatch = [...new Set([...(r.doc.dlid_mismatch ?? []), s.signerId])];
        r.doc.collected_dlid = `${dlid.photo as string}`.replace(/\/[^/]+$/, '/collected-dlid.json');
      }
      await this.move(m, r, 'PARTIALLY_SIGNED', `signer:${s.signerId}`);
      await this.syncEntry(m, r);
      return { r, all: signers.every((x) => x.status === 'signed') };
    });
    if (dlid) await this.writeCollected(r, await this.store.signers(r.id));
    this.d.log.info({ code: 'SIGNING_SIGNED', entryId: r.entryId, signatureRequest: r.id }, 'signer signed');
    if (all) await this.finalize(r.id);
    return { r: (await this.store.request(r.id))!, s: found.s };
  }

  /** Stores the photo and reads it through the document extraction (when the ocr plugin offers it). */
  private async readLicense(
    r: RequestRow,
    s: SignerRow,
    photo: { data: Buffer; type: string },
  ): Promise<Record<string, unknown>> {
    const entry = (await this.d.entries.load(r.orgId, r.entryId))!.entry;
    const objects = new EntryObjects(this.d.objects, entry.storeIndex);
    const ext = /png/i.test(photo.type) ? 'png' : /pdf/i.test(photo.type) ? 'pdf' : 'jpg';
    const key = await objects.put(
      `signing/${r.id}/dlid-${s.signerId.replace(/[^A-Za-z0-9_-]/g, '-')}.${ext}`,
      photo.data,
    );
    let read = null;
    if (this.d.container.isRegistered(COLLABORATORS.extraction, true)) {
      try {
        read = await this.d.container.resolve<DocumentExtractionService>(COLLABORATORS.extraction).extract(photo.data);
      } catch {
        read = null; // unreadable: recorded as not read (a mismatch)
      }
    }
    const check = checkLicense(read, s.person);
    return {
      photo: key,
      extraction: read
        ? 'ocr'
        : this.d.container.isRegistered(COLLABORATORS.extraction, true)
          ? 'failed'
          : 'unavailable',
      ...check,
    };
  }

  /** The request's collected licenses, one JSON file (what `collected_dlid` points at). */
  private async writeCollected(r: RequestRow, signers: SignerRow[]): Promise<void> {
    const entry = (await this.d.entries.load(r.orgId, r.entryId))!.entry;
    const body = Object.fromEntries(signers.filter((x) => x.dlid).map((x) => [x.signerId, x.dlid]));
    await new EntryObjects(this.d.objects, entry.storeIndex).put(
      `signing/${r.id}/collected-dlid.json`,
      JSON.stringify(body, null, 2),
    );
  }

  /** Every signer signed: signed copies, seals, certificate, export; then COMPLETED and poa_signed. Idempotent. */
  async finalize(requestId: string, actor = 'system'): Promise<RequestRow> {
    const r0 = (await this.store.request(requestId))!;
    if (r0.status === 'COMPLETED') return r0;
    try {
      const entry = (await this.d.entries.load(r0.orgId, r0.entryId))?.entry;
      if (!entry) throw new TitledError('ENTRY_NOT_FOUND', `entry ${r0.entryId} not found`);
      const objects = new EntryObjects(this.d.objects, entry.storeIndex);
      const out = await finalizeOutputs(this, r0, objects, this.d.sealKey());
      const r = await this.d.db.tx(async (m) => {
        const r = (await this.store.request(requestId, m))!;
        if (r.status === 'COMPLETED') return r;
        for (const d of out.docs) await this.store.updateDocument(m, d);
        r.doc = { ...r.doc, sign_cert: out.cert, full_export: out.zip };
        r.completedAt = out.completedAt;
        await this.move(m, r, 'COMPLETED', actor, { cert_sha256: out.certSha });
        await this.syncEntry(m, r, 'poa_signed');
        return r;
      });
      this.d.log.info(
        { code: 'SIGNING_COMPLETED', entryId: r.entryId, signatureRequest: r.id },
        'signature request completed',
      );
      return r;
    } catch (e) {
      this.d.log.error({ code: 'SIGNING_FINALIZE_FAILED', signatureRequest: requestId, err: e }, 'sealing failed');
      throw e;
    }
  }

  async signedDocuments(orgId: string, entryId: string): Promise<SignedDocument[]> {
    const done = (await this.store.requestsOf(orgId, entryId)).filter((r) => r.status === 'COMPLETED');
    const last = done[done.length - 1];
    if (!last) return [];
    return (await this.store.documents(last.id))
      .filter((d) => d.signedKey)
      .map((d) => ({ name: d.name, filename: d.filename, key: d.signedKey!, sha256: d.sha256After ?? '' }));
  }

  /** Operator: cancel the entry's open request. */
  async cancel(orgId: string, entryId: string, actor: string, reason = ''): Promise<RequestRow> {
    const open = await this.store.openRequest(entryId);
    if (!open || open.orgId !== orgId)
      throw new TitledError('NOT_FOUND', `entry ${entryId} has no open signature request`);
    return this.d.db.tx(async (m) => {
      const r = (await this.store.request(open.id, m))!;
      await this.move(m, r, 'CANCELED', actor, reason ? { reason } : {});
      await this.syncEntry(m, r, 'withdrawn');
      return r;
    });
  }

  /** Operator: the originals came back signed in ink (WET_SIGN), or a signer signed on paper: records every signer as signed. */
  async markSigned(orgId: string, entryId: string, actor: string, note = ''): Promise<RequestRow> {
    const open = await this.store.openRequest(entryId);
    if (!open || open.orgId !== orgId)
      throw new TitledError('NOT_FOUND', `entry ${entryId} has no open signature request`);
    if (open.status === 'DRAFT') await this.activate(open, actor);
    await this.d.db.tx(async (m) => {
      const r = (await this.store.request(open.id, m))!;
      for (const s of await this.store.signers(r.id, m)) {
        if (s.status === 'signed') continue;
        s.status = 'signed';
        s.signedAt = Date.now();
        s.signature = { kind: 'typed', text: `${s.name} (wet ink, recorded by operator)` };
        await this.store.updateSigner(m, s);
        await this.store.append(m, r.id, 'marked_signed', actor, { signer: s.signerId, note });
      }
      await this.move(m, r, 'PARTIALLY_SIGNED', actor);
    });
    return this.finalize(open.id, actor);
  }

  /** One pass of the background loop: reminders due, expiries, and completions whose sealing failed before. */
  async tick(now = Date.now()): Promise<{ reminded: number; expired: number }> {
    await this.pollRon();
    let reminded = 0;
    let expired = 0;
    for (const r of await this.store.due(now)) {
      if (r.expiresAt && r.expiresAt <= now) {
        await this.d.db.tx(async (m) => {
          const cur = (await this.store.request(r.id, m))!;
          if (!isOpenSignatureStatus(cur.status)) return;
          await this.move(m, cur, 'EXPIRED', 'system');
          await this.syncEntry(m, cur, 'withdrawn');
        });
        expired++;
        continue;
      }
      const sched = scheduleFor(this.d.options, await this.d.orgName(r.orgId));
      await this.d.db.tx(async (m) => {
        const cur = (await this.store.request(r.id, m))!;
        cur.remindersSent += 1;
        cur.nextReminderAt = cur.remindersSent < sched.max ? now + sched.everyMs : null;
        await this.store.updateRequest(m, cur);
      });
      await this.notifyAll(r, true);
      reminded++;
    }
    return { reminded, expired };
  }

  /** The entry's requests (operators, CLI). */
  async list(orgId: string, entryId: string): Promise<Record<string, unknown>[]> {
    return Promise.all((await this.store.requestsOf(orgId, entryId)).map((r) => this.view(r, { links: false })));
  }

  docs(r: RequestRow): Promise<DocumentRow[]> {
    return this.store.documents(r.id);
  }
}
