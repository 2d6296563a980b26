/**
 * Outbound carrier labels of MAIL packets (`plugins.submission.mailCarrier`,
 * docs/submission.md "MAIL: the carrier label"). The carrier is the
 * title-collection plugin's (sandbox or http), reached only through
 * COLLABORATORS.titleCollection.shipper(); the shipment and its tracking
 * events live in this plugin's tables. Tracking comes from the carrier
 * webhook (title-collection forwards the events of numbers it does not know,
 * COLLABORATORS.carrierEvents), a leased poll, or the sandbox simulation;
 * `delivered` moves the submission PENDING -> SUBMITTED (account_status
 * filing_en_route through the Lifecycle, with its webhook); `return_to_sender`
 * and `failure` leave it where it is with a history note (it needs an
 * operator). A canceled submission's label not yet scanned is voided at the
 * carrier (at once, else by the poll's next rounds).
 */
import type { EntityManager } from 'typeorm';
import type { DependencyContainer } from 'tsyringe';
import {
  COLLABORATORS,
  EntryObjects,
  SUBMISSION_FINAL_STATUSES,
  TitledError,
  isUniqueViolation,
  type CarrierEventSink,
  type Database,
  type Logger,
  type ObjectStore,
  type Shipper,
  type ShipperAddress,
  type ShipperTrackingEvent,
  type ShipperVoid,
  type TitleCollectionService,
  type TitleEntry,
} from '../../core/plugin-api.js';
import type { Lifecycle } from './lifecycle.js';
import type { Submission } from './model.js';
import type { MailCarrierOptions } from './options.js';
import type { Office } from './packet.js';

export type TrackingStatus = ShipperTrackingEvent['status'];
export const TRACKING_STATUSES: readonly TrackingStatus[] = [
  'pre_transit',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'return_to_sender',
  'failure',
];
/** The shipment's statuses: the carrier's tracking statuses, and `voided` (its label voided after a cancel). */
export const SHIPMENT_STATUSES: readonly string[] = [...TRACKING_STATUSES, 'voided'];
/** Statuses after which the shipment moves no more. */
const TERMINAL: ReadonlySet<string> = new Set(['delivered', 'return_to_sender', 'failure', 'voided']);
/** The packet did not reach the office: the submission needs an operator. */
const UNDELIVERED: ReadonlySet<string> = new Set(['return_to_sender', 'failure']);

export interface ShipmentRow {
  submissionId: string;
  orgId: string;
  entryId: string;
  /**
   * open (tracked) | delivered (the submission's move is due) | void (the submission was canceled before a
   * scan: the label's void is due, retried by the poll) | done (no more tracking)
   */
  state: 'open' | 'delivered' | 'void' | 'done';
  provider: string;
  mode: string;
  carrier: string;
  service: string;
  shipmentId: string;
  trackingNumber: string;
  trackingUrl: string | null;
  labelKey: string;
  toAddress: ShipperAddress;
  status: string;
  nextPollAt: number;
  createdAt: number;
  updatedAt: number;
}

export interface ShipmentEvent {
  eventId: string;
  status: string;
  source: string;
  occurredAt: number;
  description: string | null;
  location: string | null;
}

function toRow(r: Record<string, unknown>): ShipmentRow {
  return {
    submissionId: String(r.submissionId),
    orgId: String(r.orgId),
    entryId: String(r.entryId),
    state: String(r.state) as ShipmentRow['state'],
    provider: String(r.provider),
    mode: String(r.mode),
    carrier: String(r.carrier),
    service: String(r.service),
    shipmentId: String(r.shipmentId),
    trackingNumber: String(r.trackingNumber),
    trackingUrl: r.trackingUrl === null || r.trackingUrl === undefined ? null : String(r.trackingUrl),
    labelKey: String(r.labelKey),
    toAddress: JSON.parse(String(r.toAddress)) as ShipperAddress,
    status: String(r.status),
    nextPollAt: Number(r.nextPollAt),
    createdAt: Number(r.createdAt),
    updatedAt: Number(r.updatedAt),
  };
}

/** The shipment tables (raw SQL on both dialects). */
export class ShipmentRecords {
  constructor(private readonly db: Database) {}

  async get(submissionId: string, m?: EntityManager): Promise<ShipmentRow | null> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM submission_shipments WHERE "submissionId" = ?',
      [submissionId],
      m,
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  async byTracking(trackingNumber: string): Promise<ShipmentRow | null> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM submission_shipments WHERE "trackingNumber" = ? ORDER BY "createdAt" DESC',
      [trackingNumber],
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  async insert(r: ShipmentRow, m?: EntityManager): Promise<void> {
    const row: Record<string, unknown> = { ...r, toAddress: JSON.stringify(r.toAddress) };
    const cols = Object.keys(row);
    await this.db.exec(
      `INSERT INTO submission_shipments (${cols.map((c) => `"${c}"`).join(', ')}) ` +
        `VALUES (${cols.map(() => '?').join(', ')})`,
      cols.map((c) => row[c]),
      m,
    );
  }

  async update(
    submissionId: string,
    patch: { state?: string; status?: string; nextPollAt?: number },
    m?: EntityManager,
  ): Promise<void> {
    const sets = ['"updatedAt" = ?'];
    const params: unknown[] = [Date.now()];
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) continue;
      sets.push(`"${k}" = ?`);
      params.push(v);
    }
    await this.db.exec(
      `UPDATE submission_shipments SET ${sets.join(', ')} WHERE "submissionId" = ?`,
      [...params, submissionId],
      m,
    );
  }

  /** Records an event once; throws a unique violation for an event id seen before. */
  async addEvent(m: EntityManager, submissionId: string, e: ShipperTrackingEvent, source: string): Promise<void> {
    await this.db.exec(
      'INSERT INTO submission_shipment_events ("submissionId", "eventId", status, source, "occurredAt", ' +
        'description, location, "recordedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [
        submissionId,
        e.event_id,
        e.status,
        source,
        Date.parse(e.occurred_at) || Date.now(),
        e.description ?? null,
        e.location ?? null,
        Date.now(),
      ],
      m,
    );
  }

  /** The newest event that is not `pre_transit` (the carrier has scanned the packet), if any. */
  async scanned(submissionId: string, m?: EntityManager): Promise<string | null> {
    const rows = await this.db.query<{ status: string }>(
      'SELECT status FROM submission_shipment_events WHERE "submissionId" = ? AND status <> ? ORDER BY id DESC LIMIT 1',
      [submissionId, 'pre_transit'],
      m,
    );
    return rows[0]?.status ?? null;
  }

  async events(submissionId: string): Promise<ShipmentEvent[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM submission_shipment_events WHERE "submissionId" = ? ORDER BY id',
      [submissionId],
    );
    const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
    return rows.map((r) => ({
      eventId: String(r.eventId),
      status: String(r.status),
      source: String(r.source),
      occurredAt: Number(r.occurredAt),
      description: s(r.description),
      location: s(r.location),
    }));
  }

  /** Claims up to `n` due shipments with work left (open, delivered with the move due, void due) for `leaseMs`. */
  async claim(owner: string, n: number, leaseMs: number): Promise<ShipmentRow[]> {
    const now = Date.now();
    const due = await this.db.query<Record<string, unknown>>(
      "SELECT * FROM submission_shipments WHERE state IN ('open', 'delivered', 'void') AND \"nextPollAt\" <= ? " +
        'AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ?) ORDER BY "nextPollAt" LIMIT ?',
      [now, now, n],
    );
    const out: ShipmentRow[] = [];
    for (const r of due) {
      const res = await this.db.exec(
        'UPDATE submission_shipments SET "leaseOwner" = ?, "leaseExpiresAt" = ? ' +
          'WHERE "submissionId" = ? AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ?)',
        [owner, now + leaseMs, r.submissionId, now],
      );
      if (res.affected) out.push(toRow(r));
    }
    return out;
  }

  /** Takes the lease of one shipment (whether due or not); false when another holder has it. */
  async lease(submissionId: string, owner: string, leaseMs: number): Promise<boolean> {
    const now = Date.now();
    const res = await this.db.exec(
      'UPDATE submission_shipments SET "leaseOwner" = ?, "leaseExpiresAt" = ? ' +
        'WHERE "submissionId" = ? AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ?)',
      [owner, now + leaseMs, submissionId, now],
    );
    return res.affected > 0;
  }

  async release(submissionId: string, owner: string, nextPollAt: number): Promise<void> {
    await this.db.exec(
      'UPDATE submission_shipments SET "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "nextPollAt" = ? ' +
        'WHERE "submissionId" = ? AND "leaseOwner" = ?',
      [nextPollAt, submissionId, owner],
    );
  }
}

/** `street1, street2, city, ST zip` on one line. */
export function oneLine(a: ShipperAddress): string {
  return [a.company || a.name, a.street1, a.street2, `${a.city}, ${a.state} ${a.zip}`].filter(Boolean).join(', ');
}

/** The filing office as a carrier address. */
export function officeAddress(office: Office): ShipperAddress {
  const a = office.address;
  return {
    name: office.payable_to,
    street1: a.street1,
    ...(a.street2 ? { street2: a.street2 } : {}),
    city: a.city,
    state: a.state,
    zip: a.zip,
    country: 'US',
  };
}

export class MailShipping implements CarrierEventSink {
  readonly records: ShipmentRecords;

  constructor(
    private readonly db: Database,
    private readonly objects: ObjectStore,
    private readonly life: Lifecycle,
    private readonly container: DependencyContainer,
    private readonly o: MailCarrierOptions,
    private readonly leaseMs: number,
    private readonly log: Logger,
    /** Lease owner of this process (the poll's, and a cancel's void). */
    private readonly owner: string,
  ) {
    this.records = new ShipmentRecords(db);
  }

  /** When a shipment released now is due again (the poll's interval, at least a second). */
  private nextRound(): number {
    return Date.now() + Math.max(this.o.pollIntervalMs, 1000);
  }

  /** The title-collection plugin's carrier (CONFLICT when that plugin is not enabled). */
  shipper(): Shipper {
    const token = COLLABORATORS.titleCollection;
    const tc = this.container.isRegistered(token, true)
      ? this.container.resolve<TitleCollectionService>(token)
      : undefined;
    if (!tc?.shipper)
      throw new TitledError(
        'CONFLICT',
        'plugins.submission.mailCarrier needs the title-collection plugin (its carrier): add it to the stages',
      );
    return tc.shipper();
  }

  /** The sender: `mailCarrier.fromAddress`, else the entry's new lienholder's complete address. */
  sender(entry: TitleEntry): ShipperAddress {
    const f = this.o.fromAddress;
    if (f) return { name: f.recipient_name ?? entry.website, ...withoutRecipient(f), country: 'US' };
    const holder = (entry.account_data as { loan?: { new_lienholder?: Record<string, any> } }).loan?.new_lienholder;
    const a = holder?.addr as Record<string, string | undefined> | undefined;
    if (a?.street1 && a.city && a.state && a.zip)
      return {
        name: String(holder?.name ?? entry.website),
        street1: a.street1,
        ...(a.street2 ? { street2: a.street2 } : {}),
        city: a.city,
        state: a.state,
        zip: a.zip,
        country: 'US',
      };
    throw new TitledError(
      'CONFLICT',
      'no sender for the MAIL label: set plugins.submission.mailCarrier.fromAddress, ' +
        "or give the entry's account_data.loan.new_lienholder.addr",
    );
  }

  /**
   * The submission's label: the one bought before (a managed submission marked ready twice), or a new one
   * from the sender to the filing office, stored beside the packet. The row is written by `insert`.
   */
  async buy(s: Submission, entry: TitleEntry, office: Office): Promise<ShipmentRow> {
    const existing = await this.records.get(s.id);
    if (existing) return existing;
    const shipper = this.shipper();
    const to = officeAddress(office);
    const label = await shipper.ship({
      from: this.sender(entry),
      to,
      reference: s.id,
      service: this.o.service,
      parcel: this.o.parcel,
    });
    const labelKey = await new EntryObjects(this.objects, entry.storeIndex).put(
      `submissions/${s.id}/outbound-label.pdf`,
      label.label_pdf,
    );
    const now = Date.now();
    this.log.info(
      {
        code: 'SUBMISSION_LABEL_CREATED',
        submissionId: s.id,
        entryId: s.entryId,
        provider: label.provider,
        trackingNumber: label.tracking_number,
      },
      'MAIL packet label bought',
    );
    return {
      submissionId: s.id,
      orgId: s.orgId,
      entryId: s.entryId,
      state: 'open',
      provider: label.provider,
      mode: label.mode,
      carrier: label.carrier,
      service: label.service,
      shipmentId: label.shipment_id,
      trackingNumber: label.tracking_number,
      trackingUrl: label.tracking_url || null,
      labelKey,
      toAddress: to,
      status: 'pre_transit',
      nextPollAt: now + this.o.pollIntervalMs,
      createdAt: now,
      updatedAt: now,
    };
  }

  /** Writes a bought label's row (in the submission's transaction); a second write of the same one is a no-op. */
  async insert(row: ShipmentRow, m?: EntityManager): Promise<void> {
    if (await this.records.get(row.submissionId, m)) return;
    await this.records.insert(row, m);
  }

  /**
   * Applies a tracking event once (by its id); false for one seen before. A delivery moves the submission; a
   * return or a failure adds a history note to it (it stays where it is: an operator decides).
   */
  async applyEvent(row: ShipmentRow, e: ShipperTrackingEvent, source: string): Promise<boolean> {
    let undelivered = false;
    try {
      await this.db.tx(async (m) => {
        await this.records.addEvent(m, row.submissionId, e, source);
        const current = (await this.records.get(row.submissionId, m)) ?? row;
        // a late scan does not undo a delivery, a return or a void; a late label-created event does not undo a scan
        if (TERMINAL.has(current.status)) return;
        if (e.status === 'pre_transit' && current.status !== 'pre_transit') return;
        const by = `carrier:${row.provider}`;
        let state: string | undefined;
        if (e.status === 'delivered') state = 'delivered';
        else if (TERMINAL.has(e.status)) state = 'done';
        else if (current.state === 'void' && e.status !== 'pre_transit') {
          // scanned before its void went through (the void failed and waits for a retry): keep tracking it
          state = 'open';
          await this.life.note(
            row.submissionId,
            by,
            `${this.withCarrier(current, e.status)}: the label is not voided and its tracking continues`,
            m,
          );
        }
        await this.records.update(row.submissionId, { status: e.status, state }, m);
        if (UNDELIVERED.has(e.status)) {
          undelivered = true;
          await this.life.note(row.submissionId, by, undeliveredNote(current, e), m);
        }
      });
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
    if (undelivered)
      this.log.warn(
        {
          code: 'SUBMISSION_SHIPMENT_UNDELIVERED',
          submissionId: row.submissionId,
          entryId: row.entryId,
          status: e.status,
          source,
        },
        'MAIL packet not delivered: the submission needs an operator',
      );
    this.log.info(
      {
        code: 'SUBMISSION_SHIPMENT_EVENT',
        submissionId: row.submissionId,
        entryId: row.entryId,
        status: e.status,
        source,
      },
      'MAIL packet tracking event applied',
    );
    await this.settle(row.submissionId);
    return true;
  }

  /**
   * A delivered shipment whose submission is still PENDING moves it to SUBMITTED (once: the shipment is then
   * done). A submission moved meanwhile (an operator recorded it, canceled it) is left where it is.
   */
  async settle(submissionId: string): Promise<void> {
    const row = await this.records.get(submissionId);
    if (!row || row.state !== 'delivered') return;
    const s = await this.life.rows.get(submissionId);
    if (s?.status === 'PENDING') {
      try {
        await this.life.move(s, 'SUBMITTED', {
          by: `carrier:${row.provider}`,
          note: `delivered to ${oneLine(row.toAddress)} (${row.carrier} ${row.trackingNumber})`,
        });
      } catch (e) {
        if (!(e instanceof TitledError && e.code === 'CONFLICT')) throw e;
      }
    }
    await this.records.update(submissionId, { state: 'done' });
  }

  /** COLLABORATORS.carrierEvents: an event of the title-collection carrier webhook. */
  async carrierEvent(e: ShipperTrackingEvent, source: 'webhook'): Promise<{ applied: boolean } | undefined> {
    const row = await this.records.byTracking(e.tracking_number);
    return row ? { applied: await this.applyEvent(row, e, source) } : undefined;
  }

  /** Plays a carrier event on a sandbox shipment (docs/submission.md). */
  async simulate(submissionId: string, status: TrackingStatus): Promise<{ applied: boolean; event: unknown }> {
    if (!TRACKING_STATUSES.includes(status))
      throw new TitledError('INVALID_INPUT', `event must be one of ${TRACKING_STATUSES.join(', ')}`);
    const row = await this.records.get(submissionId);
    if (!row) throw new TitledError('NOT_FOUND', `submission ${submissionId} has no carrier shipment`);
    if (row.provider !== 'sandbox')
      throw new TitledError('CONFLICT', 'simulate plays events of the sandbox carrier only; this shipment is LIVE');
    const n = (await this.records.events(submissionId)).length + 1;
    const event: ShipperTrackingEvent = {
      event_id: `sim-${n}-${status}`,
      tracking_number: row.trackingNumber,
      status,
      occurred_at: new Date().toISOString(),
      description: `simulated ${status}`,
    };
    return { applied: await this.applyEvent(row, event, 'simulate'), event };
  }

  /** One polling round: due shipments under a lease, each asked for its events, then settled. */
  async pollOnce(owner: string): Promise<{ polled: number; applied: number }> {
    let applied = 0;
    const rows = await this.records.claim(owner, this.o.pollBatch, this.leaseMs);
    for (const row of rows) {
      try {
        const s = row.state === 'void' ? undefined : await this.life.rows.get(row.submissionId);
        if (row.state === 'void') {
          await this.voidLabel(row);
        } else if (
          !s ||
          (SUBMISSION_FINAL_STATUSES.includes(s.status) && !(s.status === 'CANCELED' && row.state === 'open'))
        ) {
          // a canceled submission's packet already with the carrier is still tracked (it may come back)
          await this.records.update(row.submissionId, { state: 'done' });
        } else if (row.state === 'delivered') {
          await this.settle(row.submissionId);
        } else {
          for (const e of await this.shipper().track(row.trackingNumber))
            if (await this.applyEvent(row, e, 'poll')) applied++;
        }
      } catch (err) {
        this.log.warn(
          { code: 'SUBMISSION_SHIPMENT_POLL_FAILED', submissionId: row.submissionId, err: (err as Error).message },
          'MAIL packet tracking poll failed',
        );
      }
      await this.records.release(row.submissionId, owner, this.nextRound());
    }
    return { polled: rows.length, applied };
  }

  /** `<carrier> <tracking number>` and what the carrier last reported, for history notes. */
  private withCarrier(row: ShipmentRow, status: string): string {
    return `the packet is already with the carrier (${status}; ${row.carrier} ${row.trackingNumber})`;
  }

  /**
   * In the cancel's transaction (Lifecycle.move `within`): a label the carrier has not scanned (no event but
   * `pre_transit`) is marked for its void (`state` void, due now); one already scanned is left to its
   * tracking, and the returned text goes into the cancel's history note. `void`: call `voidAfterCancel`.
   */
  async onCancel(submissionId: string, m: EntityManager): Promise<{ void: boolean; note?: string }> {
    const row = await this.records.get(submissionId, m);
    if (!row || row.state !== 'open') return { void: false };
    const scanned = await this.records.scanned(submissionId, m);
    if (scanned)
      return {
        void: false,
        note: `${this.withCarrier(row, scanned)}: its label is not voided and its tracking continues`,
      };
    await this.records.update(submissionId, { state: 'void', nextPollAt: Date.now() }, m);
    return { void: true };
  }

  /**
   * Right after the cancel: voids the label under the shipment's lease (a poll round holding it does the same).
   * A failure is logged and left to the poll's next rounds; the cancel never fails for it.
   */
  async voidAfterCancel(submissionId: string): Promise<void> {
    if (!(await this.records.lease(submissionId, this.owner, this.leaseMs))) return;
    try {
      const row = await this.records.get(submissionId);
      if (row) await this.voidLabel(row);
    } finally {
      await this.records.release(submissionId, this.owner, this.nextRound());
    }
  }

  /**
   * Voids a label marked `void` (the caller holds its lease): done with status `voided` and a history note when
   * the carrier takes it; back to tracking (open) with a note when the carrier refuses it; left due for the
   * next poll round (logged) when the carrier fails.
   */
  private async voidLabel(claimed: ShipmentRow): Promise<void> {
    const row = await this.records.get(claimed.submissionId);
    if (row?.state !== 'void') return;
    const ids = { submissionId: row.submissionId, entryId: row.entryId, provider: row.provider };
    let r: ShipperVoid;
    try {
      r = await this.shipper().voidLabel(row.shipmentId);
    } catch (err) {
      this.log.warn(
        { code: 'SUBMISSION_LABEL_VOID_FAILED', ...ids, err: (err as Error).message },
        'voiding a MAIL packet label failed; the shipment poll tries again',
      );
      return;
    }
    const by = `carrier:${row.provider}`;
    const label = `${row.carrier} ${row.trackingNumber}`;
    if (r.refund_status === 'rejected') {
      await this.db.tx(async (m) => {
        await this.records.update(row.submissionId, { state: 'open' }, m);
        await this.life.note(
          row.submissionId,
          by,
          `the carrier refused to void the outbound label (${label}): its tracking continues`,
          m,
        );
      });
      this.log.warn(
        { code: 'SUBMISSION_LABEL_VOID_REJECTED', ...ids },
        'the carrier refused to void a MAIL packet label',
      );
      return;
    }
    await this.db.tx(async (m) => {
      await this.records.update(row.submissionId, { state: 'done', status: 'voided' }, m);
      await this.life.note(
        row.submissionId,
        by,
        `outbound label voided at the carrier, refund ${r.refund_status} (${label})`,
        m,
      );
    });
    this.log.info({ code: 'SUBMISSION_LABEL_VOIDED', ...ids, refund: r.refund_status }, 'MAIL packet label voided');
  }

  /**
   * Whether the submission needs an operator: its packet came back (return_to_sender, failure) and nothing moved
   * it since (not final, no status change after the report). Kept equal to the list's NEEDS_ATTENTION_SQL.
   */
  needsAttention(s: Submission, row: ShipmentRow | null): boolean {
    return (
      !!row &&
      UNDELIVERED.has(row.status) &&
      !SUBMISSION_FINAL_STATUSES.includes(s.status) &&
      s.statusSince <= row.updatedAt
    );
  }

  /** The Submission's `shipment` member (label URL presigned for `ttl` seconds), and `needsAttention`. */
  async view(s: Submission, ttl: number): Promise<{ shipment?: Record<string, unknown>; needsAttention: boolean }> {
    const row = await this.records.get(s.id);
    if (!row) return { needsAttention: false };
    const submissionId = s.id;
    const shipment = {
      provider: row.provider,
      mode: row.mode,
      carrier: row.carrier,
      service: row.service,
      shipmentId: row.shipmentId,
      trackingNumber: row.trackingNumber,
      ...(row.trackingUrl ? { trackingUrl: row.trackingUrl } : {}),
      labelUrl: this.objects.presign(row.labelKey, ttl),
      to: oneLine(row.toAddress),
      status: row.status,
      ...(row.state === 'void' ? { voidPending: true } : {}),
      events: (await this.records.events(submissionId)).map((e) => ({
        id: e.eventId,
        status: e.status,
        source: e.source,
        occurredAt: new Date(e.occurredAt).toISOString(),
        ...(e.description ? { description: e.description } : {}),
        ...(e.location ? { location: e.location } : {}),
      })),
    };
    return { shipment, needsAttention: this.needsAttention(s, row) };
  }
}

/** The history note of a return or a failure: the event, the office, the carrier's words. */
function undeliveredNote(row: ShipmentRow, e: ShipperTrackingEvent): string {
  const what =
    e.status === 'return_to_sender'
      ? 'the carrier returns the packet to the sender'
      : 'the carrier reports a delivery failure';
  const detail = [e.description, e.location].filter(Boolean).join(', ');
  return (
    `${e.status}: ${what}; not delivered to ${oneLine(row.toAddress)} (${row.carrier} ${row.trackingNumber}` +
    `${detail ? `: ${detail}` : ''})`
  );
}

function withoutRecipient<T extends { recipient_name?: string; county?: string }>(
  a: T,
): Omit<T, 'recipient_name' | 'county'> {
  const { recipient_name: _r, county: _c, ...rest } = a;
  return rest;
}
