/**
 * The submission service: POST/GET /title/{id}/submit, cancellation,
 * follow-up rounds, and the operator's actions (HTTP /submissions, CLI
 * `titled submissions`). Registered as COLLABORATORS.submission.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import { z } from 'zod';
import {
  COLLABORATORS,
  EntryObjects,
  TitledError,
  describeZodError,
  filingState,
  type Database,
  type Entries,
  type Logger,
  type ObjectStore,
  type Principal,
  type SigningService,
  type SubmissionService,
  type SubmissionStatus,
  type TitleCollectionService,
  type TitleCollectionView,
  type TitleEntry,
  type UrlGuard,
} from '../../core/plugin-api.js';
import { fetchDocument } from './fetch.js';
import type { Lifecycle } from './lifecycle.js';
import { METHODS, type FollowUpRound, type Submission, type SubmissionMethod } from './model.js';
import type { SubmissionOptions } from './options.js';
import { buildPacket, filingOffice, generatedForms, signedForms, type Enclosure } from './packet.js';
import type { MailShipping, ShipmentRow } from './shipping.js';
import type { FilingData, PortalDocument, PortalDriver } from './portal/driver.js';
import type { WorkerHost } from './portal/worker.js';

export const SubmitBody = z
  .object({
    method: z.enum(['MAIL', 'ONLINE_PORTAL']).optional(),
    intakeMode: z.enum(['MANAGED']).optional(),
    /** A note for the operator (managed intake) or the history. */
    note: z.string().max(2000).optional(),
  })
  .strict();

export const DocumentsBody = z
  .object({
    documents: z
      .array(z.object({ url: z.string().url().max(4096), filename: z.string().min(1).max(200).optional() }).strict())
      .min(1)
      .max(10),
  })
  .strict();

const RECORDABLE = ['SUBMITTED', 'UNDER_REVIEW', 'ACTION_REQUIRED', 'ACCEPTED', 'REJECTED'] as const;
export interface RecordInput {
  status: (typeof RECORDABLE)[number] | 'LIEN_PERFECTED';
  applicationNumber?: string;
  feedbackMessage?: string;
  error?: string;
  note?: string;
  /** ACCEPTED: the acceptance perfects the lien (account_status lien_perfected). */
  perfected?: boolean;
}

function parse<T>(schema: z.ZodType<T>, v: unknown, what: string): T {
  const r = schema.safeParse(v ?? {});
  if (!r.success) throw new TitledError('INVALID_INPUT', `${what}: ${describeZodError(r.error)}`);
  return r.data;
}

export interface PortalResolver {
  (state: string): PortalDriver | undefined;
}

export class Submissions implements SubmissionService, WorkerHost {
  private wakeWorker: () => void = () => undefined;

  constructor(
    private readonly db: Database,
    private readonly entries: Entries,
    private readonly objects: ObjectStore,
    private readonly container: DependencyContainer,
    private readonly life: Lifecycle,
    private readonly guard: UrlGuard,
    private readonly o: SubmissionOptions,
    private readonly portalFor: PortalResolver,
    private readonly ttl: number,
    private readonly log: Logger,
    /** Outbound carrier labels of MAIL packets, when `mailCarrier` is set. */
    private readonly shipping?: MailShipping,
  ) {}

  /**
   * Whether filings in `state` can go to an online portal: a driver is configured (the plugin also says yes for the
   * fake portal a daemon starts, when this process is a management command that does not start it).
   */
  portalConfigured: (state: string) => boolean = (state) => !!this.portalFor(state);

  onWork(wake: () => void): void {
    this.wakeWorker = wake;
  }

  private async entryFor(p: Principal, entryId: string): Promise<{ entry: TitleEntry; version: number }> {
    const found = await this.entries.load(p.org.id, entryId);
    const e = found?.entry;
    if (!found || (p.groups && e!.groupId && !p.groups.includes(e!.groupId)))
      throw new TitledError('ENTRY_NOT_FOUND', `entry ${entryId} not found`);
    return found;
  }

  private async mine(p: Principal, entryId: string, id: string): Promise<Submission> {
    const { entry } = await this.entryFor(p, entryId);
    const s = await this.life.rows.get(id);
    if (!s || s.orgId !== p.org.id || s.entryId !== entry.entryId)
      throw new TitledError('NOT_FOUND', `no submission ${id} for entry ${entryId}`);
    return s;
  }

  /** A submission by id for an operator. */
  async byId(id: string): Promise<Submission> {
    const s = await this.life.rows.get(id);
    if (!s) throw new TitledError('NOT_FOUND', `no submission ${id}`);
    return s;
  }

  async submit(p: Principal, entryId: string, body: unknown): Promise<Record<string, unknown>> {
    const b = parse(SubmitBody, body, 'submit');
    const { entry } = await this.entryFor(p, entryId);
    // the state the entry is filed in (core's rule: the sale's state when given, else the entry's), as fees and forms
    const state = filingState(entry);
    if (!state) throw new TitledError('CONFLICT', `entry ${entryId} has no filing state: nothing to file yet`);
    const managed = b.intakeMode === 'MANAGED';
    const method: SubmissionMethod | null = managed
      ? null
      : (b.method ?? (this.portalConfigured(state) ? 'ONLINE_PORTAL' : 'MAIL'));
    if (method === 'ONLINE_PORTAL' && !this.portalConfigured(state)) {
      throw new TitledError('CONFLICT', `no online portal is configured for ${state}; file by MAIL or MANAGED`);
    }
    const now = Date.now();
    const status: SubmissionStatus = managed ? 'AWAITING_READINESS' : 'PENDING';
    const s: Submission = {
      id: randomUUID(),
      orgId: p.org.id,
      entryId: entry.entryId,
      status,
      method,
      intakeMode: managed ? 'MANAGED' : null,
      applicationNumber: null,
      confirmationKey: null,
      packetKey: null,
      error: null,
      feedbackMessage: null,
      rounds: [],
      ledger: {},
      history: [
        { from: null, to: status, at: new Date(now).toISOString(), by: p.userId, ...(b.note ? { note: b.note } : {}) },
      ],
      request: {
        state,
        ...(managed && b.method ? { preferredMethod: b.method } : {}),
        ...(b.note ? { note: b.note } : {}),
      },
      attempts: 0,
      nextAttemptAt: now,
      leaseOwner: null,
      leaseExpiresAt: null,
      statusSince: now,
      delayed: 0,
      createdAt: now,
      updatedAt: now,
    };
    if (method === 'MAIL' && this.shipping) await this.noOpenSubmission(p.org.id, entry.entryId, entryId);
    const made = method === 'MAIL' ? await this.makePacket(s, entry) : undefined;
    s.packetKey = made?.packetKey ?? null;
    await this.db.tx(async (m) => {
      const found = await this.entries.load(p.org.id, entry.entryId, m);
      if (!found) throw new TitledError('ENTRY_NOT_FOUND', `entry ${entryId} not found`);
      const open = await this.life.rows.open(p.org.id, entry.entryId, m);
      if (open)
        throw new TitledError(
          'CONFLICT',
          `entry ${entryId} already has submission ${open.id} (${open.status}); cancel it first`,
        );
      await this.life.rows.insert(s, m);
      if (made?.shipment) await this.shipping!.insert(made.shipment, m);
      found.entry.submission_id = s.id;
      await this.entries.save(m, p.org.id, found.entry, found.version);
    });
    this.log.info(
      { code: 'SUBMISSION_MOVED', submissionId: s.id, entryId: s.entryId, to: status, method },
      'submission created',
    );
    if (method === 'ONLINE_PORTAL') this.wakeWorker();
    return { submissionId: s.id, status };
  }

  /** 409 when the entry has an open submission (checked before a label is bought; the insert checks again). */
  private async noOpenSubmission(orgId: string, entryId: string, asked: string): Promise<void> {
    const open = await this.life.rows.open(orgId, entryId);
    if (open)
      throw new TitledError(
        'CONFLICT',
        `entry ${asked} already has submission ${open.id} (${open.status}); cancel it first`,
      );
  }

  async get(p: Principal, entryId: string, submissionId: string): Promise<Record<string, unknown>> {
    return this.view(await this.mine(p, entryId, submissionId));
  }

  /**
   * The spec's Submission (members without a value left out), object keys presigned; `shipment` with a label,
   * `needsAttention` when its packet came back and nothing moved the submission since.
   */
  async view(s: Submission): Promise<Record<string, unknown>> {
    const url = (k: string | null) => (k ? this.objects.presign(k, this.ttl) : undefined);
    const mail = this.shipping && s.method === 'MAIL' ? await this.shipping.view(s, this.ttl) : undefined;
    const v: Record<string, unknown> = {
      submissionId: s.id,
      status: s.status,
      method: s.method ?? undefined,
      intakeMode: s.intakeMode ?? undefined,
      applicationNumber: s.applicationNumber ?? undefined,
      confirmationImg: url(s.confirmationKey),
      error: s.error ?? undefined,
      feedbackMessage: s.feedbackMessage ?? undefined,
      followUpRounds: s.rounds.map((r) => ({
        roundId: r.roundId,
        uploadedAt: r.uploadedAt,
        feedbackMessage: r.feedbackMessage,
        sentAt: r.sentAt,
        attachments: r.attachments.map((a) => ({
          filename: a.filename,
          url: url(a.key),
          contentType: a.contentType,
          bytes: a.bytes,
          sha256: a.sha256,
        })),
      })),
      packet: url(s.packetKey),
      shipment: mail?.shipment,
      needsAttention: mail?.needsAttention ? true : undefined,
      entryId: s.entryId,
      createdAt: new Date(s.createdAt).toISOString(),
      updatedAt: new Date(s.updatedAt).toISOString(),
      history: s.history,
    };
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
  }

  async cancel(p: Principal, entryId: string, submissionId: string, reason?: string): Promise<Record<string, unknown>> {
    const s = await this.mine(p, entryId, submissionId);
    return this.view(await this.cancelNow(s, p.userId, reason ?? 'canceled by the client'));
  }

  /**
   * CANCELED, and the MAIL label's fate in the same transaction: a label not yet scanned by the carrier is
   * voided (at once after the move; a carrier failure is logged and retried by the shipment poll, the cancel
   * stands), one already scanned keeps its tracking and the history note says the packet is with the carrier.
   */
  private async cancelNow(s: Submission, by: string, note: string): Promise<Submission> {
    const shipping = s.method === 'MAIL' ? this.shipping : undefined;
    let voidDue = false;
    const moved = await this.life.move(s, 'CANCELED', {
      by,
      note,
      within: shipping
        ? async (m) => {
            const r = await shipping.onCancel(s.id, m);
            voidDue = r.void;
            return r.note;
          }
        : undefined,
    });
    if (!voidDue) return moved;
    await shipping!.voidAfterCancel(s.id);
    return (await this.life.rows.get(s.id)) ?? moved;
  }

  /** A follow-up round: fetches the documents, records the round with the feedbackMessage it answers */
  async addDocuments(
    p: Principal,
    entryId: string,
    submissionId: string,
    body: unknown,
  ): Promise<Record<string, unknown>> {
    const b = parse(DocumentsBody, body, 'documents');
    const s = await this.mine(p, entryId, submissionId);
    if (s.status !== 'ACTION_REQUIRED')
      throw new TitledError(
        'CONFLICT',
        `submission ${s.id} is ${s.status}; documents are taken when it is ACTION_REQUIRED`,
      );
    const store = new EntryObjects(this.objects, `${s.orgId}/${s.entryId}`);
    const roundId = `round-${s.rounds.length + 1}`;
    const attachments = [];
    for (const [i, d] of b.documents.entries()) {
      const f = await fetchDocument(this.guard, d.url, this.o.maxDocumentBytes);
      const filename = (d.filename ?? f.filename).replace(/[^\w.-]+/g, '_');
      const key = await store.put(`submissions/${s.id}/${roundId}/${i + 1}-${filename}`, f.bytes);
      attachments.push({
        filename,
        key,
        contentType: f.contentType,
        bytes: f.bytes.length,
        sha256: createHash('sha256').update(f.bytes).digest('hex'),
        sourceUrl: f.sourceUrl,
      });
    }
    const round: FollowUpRound = {
      roundId,
      uploadedAt: new Date().toISOString(),
      feedbackMessage: s.feedbackMessage,
      attachments,
      sentAt: null,
    };
    const moved = await this.life.move(s, 'SUBMITTED', {
      by: p.userId,
      note: `follow-up ${roundId}`,
      patch: { rounds: [...s.rounds, round], feedbackMessage: null, nextAttemptAt: Date.now() },
    });
    if (moved.method === 'ONLINE_PORTAL') this.wakeWorker();
    return this.view(moved);
  }

  // --- operators ---------------------------------------------------------------------

  /** The operator's list (the filter of SubmissionRows.list). */
  async list(q: Parameters<Lifecycle['rows']['list']>[0]): Promise<Record<string, unknown>[]> {
    const rows = await this.life.rows.list(q);
    return Promise.all(rows.map(async (s) => ({ ...(await this.view(s)), orgId: s.orgId })));
  }

  async setMethod(id: string, method: string, by: string): Promise<Record<string, unknown>> {
    if (!METHODS.includes(method as SubmissionMethod))
      throw new TitledError('INVALID_INPUT', `method must be one of ${METHODS.join(', ')}`);
    const s = await this.byId(id);
    if (s.status !== 'AWAITING_READINESS')
      throw new TitledError(
        'CONFLICT',
        `submission ${id} is ${s.status}; the method is picked while AWAITING_READINESS`,
      );
    const state = filingState(await this.mustEntry(s));
    if (method === 'ONLINE_PORTAL' && !this.portalConfigured(state))
      throw new TitledError('CONFLICT', `no online portal is configured for ${state}`);
    const history = [
      ...s.history,
      { from: s.status, to: s.status, at: new Date().toISOString(), by, note: `method ${method}` },
    ];
    return this.view(await this.life.patch(s, { method: method as SubmissionMethod, history }));
  }

  /** AWAITING_READINESS -> PENDING: the filing goes (a MAIL packet is made; a portal filing is queued). */
  async ready(id: string, by: string, method?: string): Promise<Record<string, unknown>> {
    if (method) await this.setMethod(id, method, by);
    const s = await this.byId(id);
    if (!s.method) throw new TitledError('CONFLICT', `submission ${id} has no method yet: pick MAIL or ONLINE_PORTAL`);
    const made = s.method === 'MAIL' ? await this.makePacket(s, await this.mustEntry(s)) : undefined;
    if (made?.shipment) await this.shipping!.insert(made.shipment);
    const packetKey = made?.packetKey ?? null;
    const moved = await this.life.move(s, 'PENDING', {
      by,
      note: 'ready',
      patch: { packetKey, nextAttemptAt: Date.now() },
    });
    if (moved.method === 'ONLINE_PORTAL') this.wakeWorker();
    return this.view(moved);
  }

  /** An operator records the state's answer (or that the packet shipped, SUBMITTED). */
  async record(id: string, by: string, r: RecordInput): Promise<Record<string, unknown>> {
    const s = await this.byId(id);
    if (r.status === 'LIEN_PERFECTED') {
      if (s.status !== 'ACCEPTED')
        throw new TitledError('CONFLICT', `submission ${id} is ${s.status}; a lien is perfected after ACCEPTED`);
      await this.life.account(s, ['lien_filed', 'lien_perfected'], 'ACCEPTED');
      return this.view(s);
    }
    if (!RECORDABLE.includes(r.status))
      throw new TitledError('INVALID_INPUT', `status must be one of ${[...RECORDABLE, 'LIEN_PERFECTED'].join(', ')}`);
    if (r.status === 'ACTION_REQUIRED' && !r.feedbackMessage)
      throw new TitledError('INVALID_INPUT', 'ACTION_REQUIRED needs a feedbackMessage');
    const now = new Date().toISOString();
    const patch: Partial<Submission> = {
      ...(r.applicationNumber ? { applicationNumber: r.applicationNumber } : {}),
      ...(r.feedbackMessage !== undefined ? { feedbackMessage: r.feedbackMessage } : {}),
      ...(r.status === 'REJECTED'
        ? { error: r.error ?? 'the state rejected the filing' }
        : r.error
          ? { error: r.error }
          : {}),
      // documents of a round go with the operator's next answer for a filing the worker does not drive
      rounds: s.rounds.map((x) => (x.sentAt || s.method === 'ONLINE_PORTAL' ? x : { ...x, sentAt: now })),
    };
    return this.view(await this.life.move(s, r.status, { by, note: r.note, patch, perfected: r.perfected }));
  }

  async requestFollowUp(id: string, by: string, feedbackMessage: string): Promise<Record<string, unknown>> {
    return this.record(id, by, { status: 'ACTION_REQUIRED', feedbackMessage });
  }

  async cancelAsOperator(id: string, by: string, reason?: string): Promise<Record<string, unknown>> {
    return this.view(await this.cancelNow(await this.byId(id), by, reason ?? 'canceled by an operator'));
  }

  // --- documents ---------------------------------------------------------------------------

  private async mustEntry(s: Submission): Promise<TitleEntry> {
    const found = await this.entries.load(s.orgId, s.entryId);
    if (!found) throw new TitledError('ENTRY_NOT_FOUND', `entry ${s.entryId} not found`);
    return found.entry;
  }

  private collaborator<T>(token: symbol): T | undefined {
    return this.container.isRegistered(token, true) ? this.container.resolve<T>(token) : undefined;
  }

  /** The forms to file: the signed copies when signing has completed ones, else the generated forms (unsigned). */
  /** The forms a filing encloses: the signed ones when signing has any, else the generated ones. */
  private async enclosureList(
    entry: TitleEntry,
    orgId: string,
  ): Promise<{ list: { name: string; key: string }[]; signed: boolean }> {
    const signing = this.collaborator<SigningService>(COLLABORATORS.signing);
    const signed = signing ? signedForms(await signing.signedDocuments(orgId, entry.entryId)) : [];
    return signed.length ? { list: signed, signed: true } : { list: generatedForms(entry), signed: false };
  }

  async enclosures(entry: TitleEntry, orgId: string): Promise<Enclosure[]> {
    const { list, signed } = await this.enclosureList(entry, orgId);
    const store = new EntryObjects(this.objects, entry.storeIndex);
    const out: Enclosure[] = [];
    for (const f of list) {
      const bytes = await store.get(f.key);
      if (bytes) out.push({ name: f.name, bytes, signed });
    }
    return out;
  }

  /** The packet, and the label bought for it when `mailCarrier` is set (its row is written by the caller). */
  private async makePacket(s: Submission, entry: TitleEntry): Promise<{ packetKey: string; shipment?: ShipmentRow }> {
    const office = filingOffice(entry);
    if (!office)
      throw new TitledError(
        'CONFLICT',
        `no filing office is known for ${entry.state || 'the entry'}: cannot address a packet`,
      );
    const collections = this.collaborator<TitleCollectionService>(COLLABORATORS.titleCollection);
    const collection: TitleCollectionView | undefined = collections
      ? await collections.get(s.orgId, entry.entryId)
      : undefined;
    const shipment = this.shipping ? await this.shipping.buy(s, entry, office) : undefined;
    const pdf = await buildPacket({
      entry,
      office,
      enclosures: await this.enclosures(entry, s.orgId),
      collection,
      submissionId: s.id,
      shipment,
    });
    const store = new EntryObjects(this.objects, entry.storeIndex);
    return { packetKey: await store.put(`submissions/${s.id}/filing-packet.pdf`, pdf), shipment };
  }

  // --- the worker's host ---------------------------------------------------------------------

  driverFor(s: Submission): PortalDriver | undefined {
    return this.portalFor((s.request.state as string | undefined) ?? '') ?? undefined;
  }

  /** The facts a portal driver files, with the enclosures written as files under `dir` (PortalDocument). */
  async filingData(s: Submission, dir: string): Promise<FilingData> {
    const entry = await this.mustEntry(s);
    const a = entry.account_data as Record<string, any>;
    const v = (a.vehicle ?? {}) as Record<string, unknown>;
    const holder = (a.loan?.new_lienholder ?? {}) as Record<string, unknown>;
    const { list } = await this.enclosureList(entry, s.orgId);
    const store = new EntryObjects(this.objects, entry.storeIndex);
    const docs = await documentFiles(
      dir,
      list.map((f) => ({
        filename: `${f.name.replace(/[^\w.-]+/g, '_')}.pdf`,
        contentType: 'application/pdf',
        key: f.key,
      })),
      (key, path) => store.saveToFile(key, path),
    );
    return {
      submissionId: s.id,
      reference: s.id,
      state: filingState(entry),
      vin: entry.VIN,
      year: String(v.year ?? ''),
      make: String(v.make ?? ''),
      ownerName: entry.Borrower,
      lienholderName: String(holder.name ?? entry.website),
      documents: docs,
    };
  }

  /** A follow-up round's attachments, written as files under `dir`. */
  async roundDocuments(s: Submission, roundId: string, dir: string): Promise<PortalDocument[]> {
    const r = s.rounds.find((x) => x.roundId === roundId);
    return documentFiles(dir, r?.attachments ?? [], (key, path) => this.objects.saveToFile(key, path));
  }

  async storeScreenshot(s: Submission, png: Buffer): Promise<string> {
    return new EntryObjects(this.objects, `${s.orgId}/${s.entryId}`).put(`submissions/${s.id}/confirmation.png`, png);
  }
}

/**
 * Writes stored objects as files for a browser to upload: `<dir>/<n>/<filename>` (each alone in a folder, so two
 * documents may share a name; the portal sees the file's name). An object gone from the store is left out.
 */
async function documentFiles(
  dir: string,
  docs: { filename: string; contentType: string; key: string }[],
  save: (key: string, path: string) => Promise<boolean>,
): Promise<PortalDocument[]> {
  const out: PortalDocument[] = [];
  for (const [i, d] of docs.entries()) {
    await mkdir(join(dir, String(i)), { recursive: true });
    const path = join(dir, String(i), d.filename.replace(/[^\w.-]+/g, '_'));
    if (await save(d.key, path)) out.push({ filename: d.filename, contentType: d.contentType, path });
  }
  return out;
}
