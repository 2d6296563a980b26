/**
 * Outbound carrier labels of MAIL packets (`plugins.submission.mailCarrier`,
 * docs/submission.md "MAIL: the carrier label"). The carrier is the
 * title-collection plugin's (sandbox or http), reached only through
 * COLLABORATORS.titleCollection.shipper(); the shipment and its tracking
 * events live in this plugin's tables. Tracking comes from the carrier
 * webhook (title-collection forwards the events of numbers it does not know,
 * COLLABORATORS.carrierEvents), a leased poll, or the sandbox simulation;
 * `delivered` moves the submission PENDING -> SUBMITTED (account_status
 * filing_en_route through the Lifecycle, with its webhook).
 */
import type { EntityManager } from 'typeorm';
import type { DependencyContainer } from 'tsyringe';
import {
  COLLABORATORS,
  EntryObjects,
  TitledError,
  isUniqueViolation,
  type CarrierEventSink,
  type Database,
  type Logger,
  type ObjectStore,
  type Shipper,
  type ShipperAddress,
  type ShipperTrackingEvent,
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
/** Carrier statuses after which the shipment moves no more. */
const TERMINAL: ReadonlySet<string> = new Set(['delivered', 'return_to_sender', 'failure']);

export interface ShipmentRow {
  submissionId: string;
  orgId: string;
  entryId: string;
  state: 'open' | 'delivered' | 'done';
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

  async update(submissionId: string, patch: { state?: string; status?: string }, m?: EntityManager): Promise<void> {
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

  /** Claims up to `n` due shipments still tracked (open, or delivered with the move due) for `leaseMs`. */
  async claim(owner: string, n: number, leaseMs: number): Promise<ShipmentRow[]> {
    const now = Date.now();
    const due = await this.db.query<Record<string, unknown>>(
      "SELECT * FROM submission_shipments WHERE state IN ('open', 'delivered') AND \"nextPollAt\" <= ? " +
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
  ) {
    this.records = new ShipmentRecords(db);
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

  /** Applies a tracking event once (by its id); false for one seen before. A delivery moves the submission. */
  async applyEvent(row: ShipmentRow, e: ShipperTrackingEvent, source: string): Promise<boolean> {
    try {
      await this.db.tx(async (m) => {
        await this.records.addEvent(m, row.submissionId, e, source);
        const current = (await this.records.get(row.submissionId, m)) ?? row;
        // a late scan does not undo a delivery or a return
        if (TERMINAL.has(current.status)) return;
        const state = e.status === 'delivered' ? 'delivered' : TERMINAL.has(e.status) ? 'done' : undefined;
        await this.records.update(row.submissionId, { status: e.status, state }, m);
      });
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
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
        const s = await this.life.rows.get(row.submissionId);
        if (!s || ['ACCEPTED', 'REJECTED', 'CANCELED', 'ERROR'].includes(s.status)) {
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
      await this.records.release(row.submissionId, owner, Date.now() + Math.max(this.o.pollIntervalMs, 1000));
    }
    return { polled: rows.length, applied };
  }

  /** The Submission's `shipment` member (label URL presigned for `ttl` seconds). */
  async view(submissionId: string, ttl: number): Promise<Record<string, unknown> | undefined> {
    const row = await this.records.get(submissionId);
    if (!row) return undefined;
    return {
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
      events: (await this.records.events(submissionId)).map((e) => ({
        id: e.eventId,
        status: e.status,
        source: e.source,
        occurredAt: new Date(e.occurredAt).toISOString(),
        ...(e.description ? { description: e.description } : {}),
        ...(e.location ? { location: e.location } : {}),
      })),
    };
  }
}

function withoutRecipient<T extends { recipient_name?: string; county?: string }>(
  a: T,
): Omit<T, 'recipient_name' | 'county'> {
  const { recipient_name: _r, county: _c, ...rest } = a;
  return rest;
}
