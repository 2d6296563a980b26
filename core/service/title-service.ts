import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Principal } from '../auth/authenticator.js';
import type { Organization } from '../auth/organizations.js';
import type { TitledConfig } from '../config.js';
import { isUniqueViolation, type Database, type TxBatch } from '../db/database.js';
import type { EntityManager } from 'typeorm';
import { TitledError } from '../errors.js';
import type { JobInput, JobQueue } from '../jobs/job-queue.js';
import { newEntry, type TitleEntry } from '../model/entry.js';
import { AccountBook } from '../model/account-book.js';
import { parseInput } from '../model/validate.js';
import { AccountDataSchema, CreateTitleBodySchema, SyncFlagsSchema, type AccountData } from '../model/schemas.js';
import type { StageRegistry } from '../pipeline/registry.js';
import type { StageAction } from '../pipeline/stage.js';
import { ACCOUNT_STATUSES, PHYSICAL_TITLE_STATUSES, type JobStatus } from '../status.js';
import type { EntryStore, StatusField } from '../store/entry-store.js';
import { mayHoldObjectKeys, presignEntry, type ObjectStore } from '../storage/object-store.js';
import { checkVin } from '../vin.js';
import { runActionNow, type SyncParts } from './run-now.js';
import { listTitles, type ListResult } from './title-list.js';

export interface ActionResult {
  entryId: string;
  job_status: JobStatus;
}
interface DeleteResult {
  statusCode: 200;
  message: string;
  entryId: string;
  deletedCount: number;
}

const parse = parseInput;

const hasSyncFlag = (i: { sync_nmvtis?: boolean; sync_public?: boolean; sync_private?: boolean }) =>
  !!(i.sync_nmvtis || i.sync_public || i.sync_private);

/** Spec rule 2: sync_public or sync_private without an issuing state turns on sync_nmvtis. */
function applyRule2(flags: JobInput, issuingState: string | null | undefined): void {
  if ((flags.sync_public || flags.sync_private) && !issuingState) flags.sync_nmvtis = true;
}

/**
 * The title service: the operations of the title API, for one principal at a
 * time. The HTTP layer and library callers both come through here.
 */
export class TitleService {
  constructor(
    private readonly db: Database,
    private readonly store: EntryStore,
    private readonly queue: JobQueue,
    private readonly stages: StageRegistry,
    private readonly objects: ObjectStore,
    private readonly config: Readonly<TitledConfig>,
    /** HMAC key of `nextToken` (derived from the server secret, so tokens survive restarts). */
    private readonly cursorKey: Uint8Array = randomBytes(32),
    /** What a stage's `runNow` needs beyond the service's own parts (synchronous actions). */
    private readonly sync: SyncParts = {},
  ) {}

  private visible(p: Principal, entry: TitleEntry): boolean {
    return !p.groups || !entry.groupId || p.groups.includes(entry.groupId);
  }

  /** Loads the canonical entry for `id` as the principal may see it, or throws `notFound`. */
  private async mustLoad(
    p: Principal,
    id: string,
    notFound: 'ENTRY_NOT_FOUND' | 'ENTRY_NOT_FOUND_FOR_DATA' = 'ENTRY_NOT_FOUND',
    m?: Parameters<EntryStore['load']>[2],
  ) {
    const found = await this.store.load(p.org.id, id, m);
    if (!found || !this.visible(p, found.entry)) throw new TitledError(notFound, `entry ${id} not found`);
    return found;
  }

  private requireStage(action: StageAction): void {
    if (!this.stages.handles(action))
      throw new TitledError(
        'NOT_IMPLEMENTED',
        `POST /title/{id}/${action} needs a stage that is not enabled in this engine's config`,
      );
  }

  /**
   * POST /title. With `batch` (Database.batch: batch import), the entry is written in a savepoint of the batch's
   * transaction and the workers are woken once it commits.
   */
  async create(p: Principal, body: unknown, o: { batch?: TxBatch } = {}): Promise<ActionResult> {
    const raw = Array.isArray(body) ? { attachments: body } : body;
    if (!raw || typeof raw !== 'object')
      throw new TitledError('INVALID_INPUT', 'body must be a JSON object or an array of document URLs');
    const req = parse(CreateTitleBodySchema, raw);
    let groupId = req.groupId;
    if (p.groups) {
      if (groupId && !p.groups.includes(groupId))
        throw new TitledError('FORBIDDEN', `groupId '${groupId}' is not one of your groups`);
      groupId ??= p.groups[0];
    }
    let vin: string | undefined;
    if (req.account_data?.vehicle?.vin) {
      const check = checkVin(req.account_data.vehicle.vin);
      if (!check.valid) throw new TitledError('INVALID_VIN', `account_data.vehicle.vin: ${check.reason}`);
      vin = check.vin;
    }
    const input: JobInput = { reasons: ['create'] };
    if (req.account_data) input.account_data = req.account_data as AccountData;
    if (req.attachments?.length) input.attachments = req.attachments;
    for (const f of ['sync_nmvtis', 'sync_public', 'sync_private'] as const) if (req[f]) input[f] = true;
    if (req.dppa_exemption) input.dppa_exemption = req.dppa_exemption;
    const issuingState = req.account_data?.vehicle?.title?.issuing_state;

    for (let attempt = 0; ; attempt++) {
      try {
        const result = await this.db.tx(async (m) => {
          const existing = vin ? await this.store.findByVin(p.org.id, vin, m) : null;
          if (existing) return this.createPointer(m, p, existing.entry, input, issuingState);
          applyRule2(input, issuingState);
          const entry = newEntry({
            orgId: p.org.id,
            orgName: p.org.name,
            userId: p.userId,
            userEmail: p.email,
            groupId,
            vin,
          });
          if (input.sync_private) entry.private_enrichment_pending = true;
          await this.store.insert(m, p.org.id, entry);
          if (await this.markRequested(m, p.org.id, entry, input)) await this.store.save(m, p.org.id, entry);
          await this.queue.enqueue(m, {
            entryId: entry.entryId,
            orgId: p.org.id,
            input,
            initialStatus: 'pending',
            newEntry: true,
          });
          return { entryId: entry.entryId, job_status: 'pending' as JobStatus };
        }, o.batch);
        if (o.batch) o.batch.afterCommit(() => this.queue.wake());
        else this.queue.wake();
        return result;
      } catch (e) {
        // A concurrent create of the same VIN won the unique index: this one becomes an update.
        if (isUniqueViolation(e) && attempt < 3) continue;
        throw e;
      }
    }
  }

  /** POST /title for a VIN the organization has: a duplicate pointer to its entry, and an update job. */
  private async createPointer(
    m: EntityManager,
    p: Principal,
    entry: TitleEntry,
    input: JobInput,
    issuingState: string | null | undefined,
  ): Promise<ActionResult> {
    if (!this.visible(p, entry))
      throw new TitledError('VIN_CONFLICT', 'an entry with this VIN exists in a group you cannot see');
    applyRule2(input, issuingState ?? entry.account_data.vehicle?.title?.issuing_state);
    const to: JobStatus = hasSyncFlag(input) ? 'enriching' : 'pending';
    const pointerId = randomUUID();
    await this.store.addPointer(m, {
      id: pointerId,
      orgId: p.org.id,
      canonicalId: entry.entryId,
      userId: p.userId,
    });
    await this.store.setJobStatus(m, p.org.id, entry, to, { trigger: 'POST /title', pointerId });
    if (input.sync_private) entry.private_enrichment_pending = true;
    await this.markRequested(m, p.org.id, entry, input);
    await this.store.save(m, p.org.id, entry);
    await this.queue.enqueue(m, {
      entryId: entry.entryId,
      orgId: p.org.id,
      input: { ...input, reasons: ['update'] },
      initialStatus: to,
    });
    return { entryId: pointerId, job_status: to };
  }

  /** GET /title/{id}: the canonical entry, object paths presigned. */
  async get(p: Principal, id: string): Promise<TitleEntry> {
    const { entry } = await this.mustLoad(p, id);
    return this.present(entry, undefined, p.org);
  }

  /**
   * GET /title/{id} as JSON text (what the HTTP route sends). The hot path:
   * for a principal without group restriction, with no plugin `present` hook,
   * an entry whose stored JSON holds no object key is answered with the stored
   * text as is (byte-identical to `JSON.stringify(get())`), without a parse,
   * a presign walk or a re-stringify. Anything else goes through `present`.
   */
  async getJson(p: Principal, id: string): Promise<string> {
    if (p.groups || this.stages.plugins().some((s) => s.present)) return JSON.stringify(await this.get(p, id));
    const raw = await this.store.loadRaw(p.org.id, id);
    if (raw === null) throw new TitledError('ENTRY_NOT_FOUND', `entry ${id} not found`);
    return mayHoldObjectKeys(raw, p.org.id)
      ? JSON.stringify(this.present(JSON.parse(raw) as TitleEntry, undefined, p.org))
      : raw;
  }

  /**
   * The entry as clients see it (GET, list items, webhook bodies): object
   * paths as presigned URLs, then each enabled plugin's `present` hook
   * (read-time members such as account_facts need `org`).
   */
  present(entry: TitleEntry, ttlSeconds = this.config.presignTtlSeconds, org?: Readonly<Organization>): TitleEntry {
    const { account_sources: _private, ...visible } = entry;
    const out = presignEntry(visible as TitleEntry, this.objects, ttlSeconds);
    for (const plugin of this.stages.plugins()) plugin.present?.(out, { org });
    return out;
  }

  /** Records the status moves the enabled stages ask for when a request queues their job (e.g. found statuses to `pending`); true when something moved. */
  private async markRequested(m: EntityManager, orgId: string, entry: TitleEntry, input: JobInput): Promise<boolean> {
    let moved = false;
    for (const stage of this.stages.list()) {
      for (const mv of stage.requested?.(input) ?? []) {
        if (entry[mv.field] === mv.to) continue;
        await this.store.setStatus(m, orgId, entry, mv.field, mv.to, { trigger: input.reasons[0] });
        moved = true;
      }
    }
    return moved;
  }

  /** GET /title */
  async list(p: Principal, query: Record<string, unknown>): Promise<ListResult> {
    return listTitles(this.store, this.cursorKey, p, query, (e) => this.present(e, undefined, p.org));
  }

  /** PATCH /title/{id}: only `account_data`, merged (RFC 7396); returns the full entry. */
  async patch(p: Principal, id: string, body: unknown): Promise<TitleEntry> {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new TitledError('INVALID_INPUT', 'body must be a JSON object');
    const disallowed = Object.keys(body).filter((k) => k !== 'account_data');
    if (disallowed.length)
      throw new TitledError(
        'DISALLOWED_FIELDS',
        `only account_data may be patched; not allowed: ${disallowed.join(', ')}`,
        { disallowedFields: disallowed },
      );
    const patch = parse(
      AccountDataSchema,
      (body as { account_data?: unknown }).account_data ?? {},
      'account_data',
    ) as AccountData;
    try {
      const entry = await this.db.tx(async (m) => {
        const { entry, version } = await this.mustLoad(p, id, 'ENTRY_NOT_FOUND', m);
        if (Object.keys(patch).length === 0) return entry;
        const book = new AccountBook(entry);
        book.patchClient(patch);
        book.commit();
        await this.store.save(m, p.org.id, entry, version);
        // a queued job still carrying account data would apply it after this PATCH: fold the PATCH in after it
        await this.queue.amendQueued(m, entry.entryId, { account_data: patch });
        return entry;
      });
      return this.present(entry, undefined, p.org);
    } catch (e) {
      if (isUniqueViolation(e)) throw new TitledError('VIN_CONFLICT');
      throw e;
    }
  }

  /** DELETE /title/{id}: the entry and its duplicate pointers. */
  async delete(p: Principal, id: string): Promise<DeleteResult> {
    const { entry } = await this.mustLoad(p, id);
    const deletedCount = await this.db.tx((m) => this.store.delete(m, p.org.id, entry.entryId));
    if (deletedCount === 0) throw new TitledError('ENTRY_NOT_FOUND', `entry ${id} not found`);
    await this.objects.deletePrefix(entry.storeIndex);
    return { statusCode: 200, message: 'entry deleted', entryId: entry.entryId, deletedCount };
  }

  /** POST /title/{id}/data: an enrichment job (spec: 400 no flag, 400 not found, 409 no account_data). */
  async requestData(p: Principal, id: string, body: unknown): Promise<ActionResult> {
    const flags = parse(SyncFlagsSchema, body ?? {});
    if (!hasSyncFlag(flags)) throw new TitledError('NO_SYNC_FLAG');
    const { entry } = await this.mustLoad(p, id, 'ENTRY_NOT_FOUND_FOR_DATA');
    if (!entry.account_data || Object.keys(entry.account_data).length === 0)
      throw new TitledError('NO_ACCOUNT_DATA', `entry ${id} has no account_data`);
    this.requireStage('data');
    const input: JobInput = { reasons: ['data'], ...flags };
    applyRule2(input, entry.account_data.vehicle?.title?.issuing_state);
    return this.enqueueAction(p, id, input, (e) => {
      if (input.sync_private) e.private_enrichment_pending = true;
    });
  }

  /** POST /title/{id}/fees */
  async requestFees(p: Principal, id: string): Promise<ActionResult> {
    await this.mustLoad(p, id);
    this.requireStage('fees');
    return this.enqueueAction(p, id, { reasons: ['fees'] });
  }

  /** POST /title/{id}/forms (synchronous generation arrives with the forms stage). */
  async requestForms(p: Principal, id: string): Promise<{ entryId: string }> {
    return this.runNow(p, id, 'forms');
  }

  /** Serves an action synchronously through the `runNow` of the stage that handles it (core/service/run-now.ts). */
  private async runNow(p: Principal, id: string, action: StageAction): Promise<{ entryId: string }> {
    await this.mustLoad(p, id);
    this.requireStage(action);
    const { db, store, stages, objects, config, sync } = this;
    return runActionNow(
      { db, store, stages, objects, config, sync, mustLoad: () => this.mustLoad(p, id) },
      p,
      id,
      action,
    );
  }

  /** Actions whose stage is not built in this engine answer 501 after the entry is found. */
  async requestUnbuilt(p: Principal, id: string, action: StageAction): Promise<never> {
    await this.mustLoad(p, id);
    this.requireStage(action);
    throw new TitledError('NOT_IMPLEMENTED', `POST /title/{id}/${action} is not available in this engine`);
  }

  /**
   * Changes `account_status` through its state machine (core/status.ts) and
   * records `title.account_status.<status>` in the outbox. The operation
   * behind the dashboard and the signing flow; on the library and the CLI.
   */
  async setAccountStatus(p: Principal, id: string, status: string, note?: string): Promise<TitleEntry> {
    const to = parse(z.enum(ACCOUNT_STATUSES), status, 'account_status');
    return this.setStatusField(p, id, 'account_status', to, note);
  }

  /** Changes `physical_title_status` (in_transit, received, unavailable, skipped) through its state machine. */
  async setPhysicalTitleStatus(p: Principal, id: string, status: string, note?: string): Promise<TitleEntry> {
    const to = parse(z.enum(PHYSICAL_TITLE_STATUSES), status, 'physical_title_status');
    return this.setStatusField(p, id, 'physical_title_status', to, note);
  }

  private async setStatusField(
    p: Principal,
    id: string,
    field: StatusField,
    to: string,
    note?: string,
  ): Promise<TitleEntry> {
    const entry = await this.db.tx(async (m) => {
      const { entry, version } = await this.mustLoad(p, id, 'ENTRY_NOT_FOUND', m);
      await this.store.setStatus(m, p.org.id, entry, field, to, { by: p.userId, ...(note ? { note } : {}) });
      await this.store.save(m, p.org.id, entry, version);
      return entry;
    });
    return this.present(entry, undefined, p.org);
  }

  private async enqueueAction(
    p: Principal,
    id: string,
    input: JobInput,
    mutate?: (e: TitleEntry) => void,
  ): Promise<ActionResult> {
    const result = await this.db.tx(async (m) => {
      const { entry } = await this.mustLoad(p, id, 'ENTRY_NOT_FOUND', m);
      await this.store.setJobStatus(m, p.org.id, entry, 'enriching', { trigger: input.reasons[0] });
      mutate?.(entry);
      await this.markRequested(m, p.org.id, entry, input);
      await this.store.save(m, p.org.id, entry);
      await this.queue.enqueue(m, { entryId: entry.entryId, orgId: p.org.id, input, initialStatus: 'enriching' });
      return { entryId: entry.entryId, job_status: 'enriching' as JobStatus };
    });
    this.queue.wake();
    return result;
  }
}
