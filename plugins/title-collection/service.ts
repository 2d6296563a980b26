/**
 * The title collection service (COLLABORATORS.titleCollection): creates an
 * entry's collection at most once, applies carrier events and facility
 * actions, and moves `physical_title_status` through core's status machine.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  EntryObjects, TitledError, isUniqueViolation, personName,
  type CompleteAddress, type Database, type Entries, type Logger, type ObjectStore, type Organizations, type TitleCollectionService,
  type TitleCollectionView, type TitleEntry,
} from '../../core/plugin-api.js';
import { titleReturnNeed } from '../../states/title-return.js';
import type { CarrierAddress, CarrierProvider, TrackingEvent, TrackingStatus } from './carrier.js';
import { oneLine } from './carrier.js';
import { decodeImage } from './decode.js';
import type { TitleCollectionOptions } from './options.js';
import { CollectionRecords, assetsOf, storedOf, type CollectionRow } from './records.js';
import { isEnrolled, receivingAddressOf } from './settings.js';
import { presentCollection } from './view.js';

const LABEL = 'title-collection/return-label.pdf';
const QR = 'title-collection/dropoff-qr.png';
const STALE_CLAIM_MS = 120_000;
/** Carrier statuses that mean the carrier has accepted and scanned the package. */
const SCANNED: ReadonlySet<TrackingStatus> = new Set(['in_transit', 'out_for_delivery']);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function toCarrierAddress(a: CompleteAddress, fallbackName: string): CarrierAddress {
  return {
    name: a.recipient_name ?? fallbackName, street1: a.street1, ...(a.street2 ? { street2: a.street2 } : {}),
    city: a.city, state: a.state, zip: a.zip, country: 'US',
  };
}

/** The borrower's mailing address (the first borrower of the loan, else the title's first owner). */
export function borrowerAddress(entry: Readonly<TitleEntry>): CarrierAddress | null {
  const ad = entry.account_data ?? {};
  const people = [...(ad.loan?.borrower ?? []), ...(ad.vehicle?.title?.owners ?? [])];
  for (const p of people) {
    const a = p?.addr_mailing ?? p?.addr;
    if (a?.street1 && a.city && a.state && a.zip) {
      return {
        name: personName(p) || entry.Borrower || 'Borrower', street1: a.street1, ...(a.street2 ? { street2: a.street2 } : {}),
        city: a.city, state: a.state, zip: a.zip, country: 'US',
      };
    }
  }
  return null;
}

export class CollectionService implements TitleCollectionService {
  readonly records: CollectionRecords;

  constructor(
    private readonly db: Database,
    private readonly entries: Entries,
    private readonly orgs: Organizations,
    private readonly objects: ObjectStore,
    readonly carrier: CarrierProvider,
    private readonly o: TitleCollectionOptions,
    private readonly log: Logger,
  ) {
    this.records = new CollectionRecords(db);
  }

  private async loadEntry(orgId: string, entryId: string): Promise<TitleEntry> {
    const stored = await this.entries.load(orgId, entryId);
    if (!stored) throw new TitledError('ENTRY_NOT_FOUND', `entry ${entryId} not found`);
    return stored.entry;
  }

  view(row: CollectionRow, storeIndex: string): TitleCollectionView {
    return presentCollection(storedOf(row), assetsOf(row), storeIndex, this.objects);
  }

  async get(orgId: string, entryId: string): Promise<TitleCollectionView | undefined> {
    const entry = await this.loadEntry(orgId, entryId);
    const row = await this.records.byEntry(entry.entryId);
    return row && row.state !== 'creating' ? this.view(row, entry.storeIndex) : undefined;
  }

  async ensure(orgId: string, entryId: string): Promise<TitleCollectionView | undefined> {
    const org = await this.orgs.byId(orgId);
    if (!org) throw new TitledError('NOT_FOUND', `no organization ${orgId}`);
    const entry = await this.loadEntry(orgId, entryId);
    const existing = await this.records.byEntry(entry.entryId);
    if (existing && existing.state !== 'creating') return this.view(existing, entry.storeIndex);
    if (!isEnrolled(org)) return undefined;
    const need = titleReturnNeed(entry);
    if (need.need === 'electronic') {
      await this.moveStatus(orgId, entry.entryId, 'skipped', { reason: `electronic title (${need.state})` }, true);
      return undefined;
    }
    if (need.need === 'none') return undefined;
    const facility = receivingAddressOf(org) ?? this.o.receivingAddress;
    if (!facility) throw new TitledError('CONFLICT', `organization ${org.name} has no receiving address (titled orgs set ${org.name} --receiving-address ...)`);
    const from = borrowerAddress(entry);
    if (!from) throw new TitledError('CONFLICT', 'the entry has no complete borrower mailing address (account_data.loan.borrower[0].addr)');
    const to = toCarrierAddress(facility, org.name);
    return this.create(org.id, entry, from, to, need.state);
  }

  private instructions(to: CarrierAddress, state: string): string[] {
    return [
      `${state} needs the original paper title to record the lien: send it back; keep no copy.`,
      'Sign nothing on the title unless the enclosed instructions say so.',
      'Put the title in an envelope, print the label and attach it, or show the QR code at the drop-off counter.',
      `The title goes to ${oneLine(to)}.`,
    ];
  }

  /** Creates the collection (one caller wins the unique index; the others wait for its result). */
  private async create(orgId: string, entry: TitleEntry, from: CarrierAddress, to: CarrierAddress, state: string): Promise<TitleCollectionView> {
    const now = Date.now();
    const id = randomUUID();
    try {
      await this.records.claim({
        id, orgId, entryId: entry.entryId, provider: this.carrier.name, mode: this.carrier.mode, service: this.o.service,
        returnAddress: oneLine(to), instructions: this.instructions(to, state), assetsExpiresAt: now + this.o.assetsTtlSeconds * 1000, now,
      });
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      return this.awaitCreated(orgId, entry, from, to, state);
    }
    return this.build(id, orgId, entry, from, to);
  }

  /** Another call holds the claim: wait until it is open; take over a claim whose creator stopped. */
  private async awaitCreated(orgId: string, entry: TitleEntry, from: CarrierAddress, to: CarrierAddress, state: string): Promise<TitleCollectionView> {
    for (let i = 0; i < 1200; i++) {
      const row = await this.records.byEntry(entry.entryId);
      if (!row) return this.create(orgId, entry, from, to, state);
      if (row.state !== 'creating') return this.view(row, entry.storeIndex);
      if (Date.now() - row.updatedAt > STALE_CLAIM_MS && (await this.records.takeOver(row.id, row.updatedAt, Date.now()))) {
        return this.build(row.id, orgId, entry, from, to);
      }
      await sleep(50);
    }
    throw new TitledError('UNAVAILABLE', 'the title collection is still being created; try again');
  }

  /** Holder of the claim: the carrier shipment, the stored label and QR, the entry's copy. */
  private async build(id: string, orgId: string, entry: TitleEntry, from: CarrierAddress, to: CarrierAddress): Promise<TitleCollectionView> {
    let row: CollectionRow;
    try {
      const s = await this.carrier.createReturnShipment({
        from_address: from, to_address: to, parcel: this.o.parcel, service: this.o.service, reference: id,
        qr_code: this.o.qrCode, idempotency_key: id,
      });
      const objects = new EntryObjects(this.objects, entry.storeIndex);
      await objects.put(LABEL, s.label_pdf);
      if (s.qr_png) await objects.put(QR, s.qr_png);
      const qrVerified = !!(s.qr_png && s.qr_payload && (await decodeImage(s.qr_png, 'QRCode')).includes(s.qr_payload));
      await this.records.open(id, {
        carrier: s.carrier, shipmentId: s.shipment_id, trackingNumber: s.tracking_number, trackingUrl: s.tracking_url,
        labelName: LABEL, qrName: s.qr_png ? QR : null, qrVerified, now: Date.now(),
      });
      row = (await this.records.byEntry(entry.entryId))!;
    } catch (e) {
      await this.records.release(id);
      throw e;
    }
    await this.writeEntry(orgId, entry.entryId, row);
    this.log.info({ code: 'TITLE_COLLECTION_CREATED', entryId: entry.entryId, collectionId: id, provider: this.carrier.name }, 'title collection created');
    return this.view(row, entry.storeIndex);
  }

  /** The entry's copy (`title_collection`, its asset names, `tracking_url_provider`), saved with a version check. */
  private async writeEntry(orgId: string, entryId: string, row: CollectionRow): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.db.tx(async (m) => {
          const stored = await this.entries.load(orgId, entryId, m);
          if (!stored) return;
          stored.entry.title_collection = storedOf(row);
          stored.entry.title_collection_assets = assetsOf(row);
          if (row.trackingUrl) stored.entry.tracking_url_provider = row.trackingUrl;
          await this.entries.save(m, orgId, stored.entry, stored.version);
        });
        return;
      } catch (e) {
        if (!(e instanceof TitledError && e.code === 'CONFLICT') || attempt >= 5) throw e;
      }
    }
  }

  /**
   * Moves `physical_title_status` in the transaction `m` (or its own); no
   * event when it is already there. With `lenient`, a move the machine refuses
   * is left alone (a late carrier scan after `received`).
   */
  async moveStatus(orgId: string, entryId: string, to: string, payload: Record<string, unknown>, lenient: boolean, m?: EntityManager): Promise<void> {
    const run = async (tx: EntityManager) => {
      const stored = await this.entries.load(orgId, entryId, tx);
      if (!stored || stored.entry.physical_title_status === to) return;
      try {
        await this.entries.setStatus(tx, orgId, stored.entry, 'physical_title_status', to, payload);
      } catch (e) {
        if (lenient && e instanceof TitledError && e.code === 'CONFLICT') return;
        throw e;
      }
      await this.entries.save(tx, orgId, stored.entry, stored.version);
    };
    if (m) await run(m);
    else await this.db.tx(run);
  }

  /**
   * Applies a carrier event once (by its id): records it, and moves
   * `physical_title_status` to `in_transit` on an acceptance scan. Label
   * creation (pre_transit) and delivery move nothing. False for an event seen before.
   */
  async applyEvent(row: CollectionRow, e: TrackingEvent, source: string): Promise<boolean> {
    const now = Date.now();
    try {
      await this.db.tx(async (m) => {
        await this.records.addEvent(m, {
          collectionId: row.id, eventId: e.event_id, status: e.status, source, occurredAt: Date.parse(e.occurred_at) || now,
          description: e.description ?? null, now,
        });
        const reopened = SCANNED.has(e.status) && row.state === 'lost';
        await this.records.setState(m, row.id, { carrierStatus: e.status, ...(reopened ? { state: 'open' } : {}) }, now);
        if (SCANNED.has(e.status) && (row.state === 'open' || row.state === 'lost')) {
          await this.moveStatus(row.orgId, row.entryId, 'in_transit', { carrier_event: e.status, tracking_number: e.tracking_number }, true, m);
        }
      });
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
    this.log.info({ code: 'TITLE_COLLECTION_EVENT', entryId: row.entryId, collectionId: row.id, status: e.status, source }, 'carrier event applied');
    return true;
  }

  async mustRow(orgId: string, entryId: string): Promise<{ row: CollectionRow; entry: TitleEntry }> {
    const entry = await this.loadEntry(orgId, entryId);
    const row = await this.records.byEntry(entry.entryId);
    if (!row || row.state === 'creating') throw new TitledError('NOT_FOUND', `entry ${entryId} has no title collection`);
    return { row, entry };
  }

  /** Plays a carrier event on a sandbox collection. */
  async simulate(orgId: string, entryId: string, status: TrackingStatus): Promise<{ applied: boolean; event: TrackingEvent }> {
    const { row } = await this.mustRow(orgId, entryId);
    if (row.provider !== 'sandbox') throw new TitledError('CONFLICT', 'simulate plays events of the sandbox carrier only; this collection is LIVE');
    const n = (await this.records.events(row.id)).length + 1;
    const event: TrackingEvent = {
      event_id: `sim-${n}-${status}`, tracking_number: row.trackingNumber ?? '', status, occurred_at: new Date().toISOString(),
      description: `simulated ${status}`,
    };
    return { applied: await this.applyEvent(row, event, 'simulate'), event };
  }

  /** The receiving facility logged the paper title: matched against the entry's VIN and title number. */
  async receive(orgId: string, entryId: string, got: { vin?: string; title_number?: string }, by: string): Promise<TitleCollectionView> {
    const { row, entry } = await this.mustRow(orgId, entryId);
    const vin = got.vin?.trim().toUpperCase();
    const number = got.title_number?.trim();
    if (!vin && !number) throw new TitledError('INVALID_INPUT', 'give the VIN or the title number read from the received title');
    if (vin && vin !== entry.VIN.toUpperCase()) {
      throw new TitledError('TITLE_MISMATCH', `the received title's VIN ${vin} does not match the entry's VIN ${entry.VIN}`);
    }
    const want = String(entry.account_data?.vehicle?.title?.number ?? '').trim();
    if (number && want && number.replace(/[\s-]/g, '').toUpperCase() !== want.replace(/[\s-]/g, '').toUpperCase()) {
      throw new TitledError('TITLE_MISMATCH', `the received title's number ${number} does not match the entry's title number ${want}`);
    }
    if (number && !want && !vin) {
      throw new TitledError('TITLE_MISMATCH', 'the entry has no title number to match; give the VIN read from the received title');
    }
    if (row.state !== 'received') await this.facilityEvent(row, 'received', 'received', { by, matched: [vin ? 'VIN' : '', number && want ? 'title_number' : ''].filter(Boolean) });
    return this.view((await this.records.byEntry(row.entryId))!, entry.storeIndex);
  }

  /** The original is lost: `unavailable` (a duplicate-title path follows). */
  async lost(orgId: string, entryId: string, by: string): Promise<void> {
    const { row } = await this.mustRow(orgId, entryId);
    if (row.state === 'received') throw new TitledError('CONFLICT', 'the title was received; it cannot be lost');
    if (row.state !== 'lost') await this.facilityEvent(row, 'lost', 'unavailable', { by });
  }

  private async facilityEvent(row: CollectionRow, state: 'received' | 'lost', status: string, payload: Record<string, unknown>): Promise<void> {
    const now = Date.now();
    await this.db.tx(async (m) => {
      await this.records.addEvent(m, { collectionId: row.id, eventId: `facility-${state}-${now}`, status: state, source: 'facility', occurredAt: now, now });
      await this.records.setState(m, row.id, { state }, now);
      await this.moveStatus(row.orgId, row.entryId, status, payload, false, m);
    });
    this.log.info({ code: 'TITLE_COLLECTION_EVENT', entryId: row.entryId, collectionId: row.id, status: state, source: 'facility' }, 'facility action applied');
  }

  /** One polling round: open collections, least recently polled first. */
  async pollOnce(): Promise<{ polled: number; applied: number }> {
    let applied = 0;
    const rows = await this.records.toPoll(this.o.pollBatch);
    for (const row of rows) {
      try {
        for (const e of await this.carrier.track(row.trackingNumber!)) if (await this.applyEvent(row, e, 'poll')) applied++;
      } catch (err) {
        this.log.warn({ code: 'TITLE_COLLECTION_POLL_FAILED', collectionId: row.id, err: (err as Error).message }, 'carrier poll failed');
      }
      await this.records.polled(row.id, Date.now());
    }
    return { polled: rows.length, applied };
  }

  /**
   * WET_SIGN packet shipments (for the signing plugin's `physical_tracking`):
   * outbound (facility -> borrower) and return (borrower -> facility), labels
   * stored under the entry; the label members are object keys, presigned on read.
   */
  async wetSignShipment(orgId: string, entryId: string, signatureRequestId: string): Promise<Record<string, unknown> | undefined> {
    const org = await this.orgs.byId(orgId);
    if (!org || !isEnrolled(org)) return undefined;
    const entry = await this.loadEntry(orgId, entryId);
    const facility = receivingAddressOf(org) ?? this.o.receivingAddress;
    const borrower = borrowerAddress(entry);
    if (!facility || !borrower) return undefined;
    const home = toCarrierAddress(facility, org.name);
    const ship = (from: CarrierAddress, to: CarrierAddress, ref: string) => this.carrier.createReturnShipment({
      from_address: from, to_address: to, parcel: this.o.parcel, service: this.o.service, reference: ref, qr_code: false, idempotency_key: ref,
    });
    const [out, ret] = await Promise.all([ship(home, borrower, `${signatureRequestId}-out`), ship(borrower, home, `${signatureRequestId}-ret`)]);
    const objects = new EntryObjects(this.objects, entry.storeIndex);
    const dir = `signing/${signatureRequestId.replace(/[^A-Za-z0-9._-]/g, '_')}`;
    return {
      status: 'label_created', shipment_id: out.shipment_id, tracking_url: out.tracking_url,
      label_url: await objects.put(`${dir}/outbound-label.pdf`, out.label_pdf),
      return_shipment_id: ret.shipment_id, return_tracking_url: ret.tracking_url,
      return_label_url: await objects.put(`${dir}/return-label.pdf`, ret.label_pdf),
    };
  }
}
