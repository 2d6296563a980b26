/**
 * The title collection service (COLLABORATORS.titleCollection): creates an
 * entry's collection at most once (carrier shipment, label, QR, the entry's
 * copy); ./tracking.ts applies what happens to it afterwards.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  EntryObjects,
  TitledError,
  isUniqueViolation,
  type Database,
  type Entries,
  type Logger,
  type ObjectStore,
  type Organizations,
  type Shipper,
  type TitleCollectionService,
  type TitleCollectionView,
  type TitleEntry,
} from '../../core/plugin-api.js';
import { titleReturnNeed } from '../../states/title-return.js';
import { borrowerAddress, toCarrierAddress } from './addresses.js';
import type { CarrierAddress, CarrierProvider } from './carrier.js';
import { oneLine } from './carrier.js';
import { decodeImage } from './decode.js';
import type { TitleCollectionOptions } from './options.js';
import { CollectionRecords, assetsOf, storedOf, type CollectionRow } from './records.js';
import { isEnrolled, receivingAddressOf } from './settings.js';
import { CollectionTracking } from './tracking.js';
import { presentCollection } from './view.js';

const LABEL = 'title-collection/return-label.pdf';
const QR = 'title-collection/dropoff-qr.png';
const STALE_CLAIM_MS = 120_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a collection is made from: the entry, the two addresses, the state whose rule applies. */
interface Plan {
  orgId: string;
  entry: TitleEntry;
  from: CarrierAddress;
  to: CarrierAddress;
  state: string;
}

export class CollectionService implements TitleCollectionService {
  readonly records: CollectionRecords;
  readonly tracking: CollectionTracking;

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
    this.tracking = new CollectionTracking(this, db, o, log);
  }

  /** False once the entry was deleted (its collection is no longer polled). */
  async entryExists(orgId: string, entryId: string): Promise<boolean> {
    return !!(await this.entries.load(orgId, entryId));
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
    if (existing && existing.state !== 'creating') {
      // the entry's copy is written after the row opens: a creator that failed in between left none
      if (!entry.title_collection) await this.writeEntry(orgId, entry.entryId, existing);
      return this.view(existing, entry.storeIndex);
    }
    if (!isEnrolled(org)) return undefined;
    const need = titleReturnNeed(entry);
    if (need.need === 'electronic') {
      await this.moveStatus(orgId, entry.entryId, 'skipped', { reason: `electronic title (${need.state})` }, true);
      return undefined;
    }
    if (need.need === 'none') return undefined;
    const facility = receivingAddressOf(org) ?? this.o.receivingAddress;
    if (!facility)
      throw new TitledError(
        'CONFLICT',
        `organization ${org.name} has no receiving address (titled orgs set ${org.name} --receiving-address ...)`,
      );
    const from = borrowerAddress(entry);
    if (!from)
      throw new TitledError(
        'CONFLICT',
        'the entry has no complete borrower mailing address (account_data.loan.borrower[0].addr)',
      );
    const to = toCarrierAddress(facility, org.name);
    return this.create({ orgId: org.id, entry, from, to, state: need.state });
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
  private async create(plan: Plan): Promise<TitleCollectionView> {
    const { orgId, entry, to, state } = plan;
    const now = Date.now();
    const id = randomUUID();
    try {
      await this.records.claim({
        id,
        orgId,
        entryId: entry.entryId,
        provider: this.carrier.name,
        mode: this.carrier.mode,
        service: this.o.service,
        returnAddress: oneLine(to),
        instructions: this.instructions(to, state),
        assetsExpiresAt: now + this.o.assetsTtlSeconds * 1000,
        now,
      });
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      return this.awaitCreated(plan);
    }
    return this.build(id, plan);
  }

  /** Another call holds the claim: wait until it is open; take over a claim whose creator stopped. */
  private async awaitCreated(plan: Plan): Promise<TitleCollectionView> {
    const { entry } = plan;
    for (let i = 0; i < 1200; i++) {
      const row = await this.records.byEntry(entry.entryId);
      if (!row) return this.create(plan);
      if (row.state !== 'creating') return this.view(row, entry.storeIndex);
      if (
        Date.now() - row.updatedAt > STALE_CLAIM_MS &&
        (await this.records.takeOver(row.id, row.updatedAt, Date.now()))
      ) {
        return this.build(row.id, plan);
      }
      await sleep(50);
    }
    throw new TitledError('UNAVAILABLE', 'the title collection is still being created; try again');
  }

  /** Holder of the claim: the carrier shipment, the stored label and QR, the entry's copy. */
  private async build(id: string, { orgId, entry, from, to }: Plan): Promise<TitleCollectionView> {
    let row: CollectionRow;
    try {
      const s = await this.carrier.createReturnShipment({
        from_address: from,
        to_address: to,
        parcel: this.o.parcel,
        service: this.o.service,
        reference: id,
        qr_code: this.o.qrCode,
        idempotency_key: id,
      });
      const objects = new EntryObjects(this.objects, entry.storeIndex);
      await objects.put(LABEL, s.label_pdf);
      if (s.qr_png) await objects.put(QR, s.qr_png);
      const qrVerified = !!(s.qr_png && s.qr_payload && (await decodeImage(s.qr_png, 'QRCode')).includes(s.qr_payload));
      await this.records.open(id, {
        carrier: s.carrier,
        shipmentId: s.shipment_id,
        trackingNumber: s.tracking_number,
        trackingUrl: s.tracking_url,
        labelName: LABEL,
        qrName: s.qr_png ? QR : null,
        qrVerified,
        now: Date.now(),
      });
      row = (await this.records.byEntry(entry.entryId))!;
    } catch (e) {
      await this.records.release(id);
      throw e;
    }
    await this.writeEntry(orgId, entry.entryId, row);
    this.log.info(
      { code: 'TITLE_COLLECTION_CREATED', entryId: entry.entryId, collectionId: id, provider: this.carrier.name },
      'title collection created',
    );
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
  async moveStatus(
    orgId: string,
    entryId: string,
    to: string,
    payload: Record<string, unknown>,
    lenient: boolean,
    m?: EntityManager,
  ): Promise<void> {
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

  async mustRow(orgId: string, entryId: string): Promise<{ row: CollectionRow; entry: TitleEntry }> {
    const entry = await this.loadEntry(orgId, entryId);
    const row = await this.records.byEntry(entry.entryId);
    if (!row || row.state === 'creating')
      throw new TitledError('NOT_FOUND', `entry ${entryId} has no title collection`);
    return { row, entry };
  }

  /** The configured carrier for another plugin's outbound shipments (the submission plugin's MAIL packets). */
  shipper(): Shipper {
    const carrier = this.carrier;
    return {
      provider: carrier.name,
      mode: carrier.mode,
      async ship(req) {
        const s = await carrier.createReturnShipment({
          from_address: req.from,
          to_address: req.to,
          parcel: req.parcel,
          service: req.service,
          reference: req.reference,
          qr_code: false,
          idempotency_key: req.reference,
        });
        return {
          provider: carrier.name,
          mode: carrier.mode,
          shipment_id: s.shipment_id,
          carrier: s.carrier,
          service: s.service,
          tracking_number: s.tracking_number,
          tracking_url: s.tracking_url,
          label_pdf: s.label_pdf,
        };
      },
      track: (trackingNumber) => carrier.track(trackingNumber),
      voidLabel: (shipmentId) => carrier.voidShipment(shipmentId),
    };
  }

  /**
   * WET_SIGN packet shipments (for the signing plugin's `physical_tracking`):
   * outbound (facility -> borrower) and return (borrower -> facility), labels
   * stored under the entry; the label members are object keys, presigned on read.
   */
  async wetSignShipment(
    orgId: string,
    entryId: string,
    signatureRequestId: string,
  ): Promise<Record<string, unknown> | undefined> {
    const org = await this.orgs.byId(orgId);
    if (!org || !isEnrolled(org)) return undefined;
    const entry = await this.loadEntry(orgId, entryId);
    const facility = receivingAddressOf(org) ?? this.o.receivingAddress;
    const borrower = borrowerAddress(entry);
    if (!facility || !borrower) return undefined;
    const home = toCarrierAddress(facility, org.name);
    const ship = (from: CarrierAddress, to: CarrierAddress, ref: string) =>
      this.carrier.createReturnShipment({
        from_address: from,
        to_address: to,
        parcel: this.o.parcel,
        service: this.o.service,
        reference: ref,
        qr_code: false,
        idempotency_key: ref,
      });
    const [out, ret] = await Promise.all([
      ship(home, borrower, `${signatureRequestId}-out`),
      ship(borrower, home, `${signatureRequestId}-ret`),
    ]);
    const objects = new EntryObjects(this.objects, entry.storeIndex);
    const dir = `signing/${signatureRequestId.replace(/[^A-Za-z0-9._-]/g, '_')}`;
    return {
      status: 'label_created',
      shipment_id: out.shipment_id,
      tracking_url: out.tracking_url,
      label_url: await objects.put(`${dir}/outbound-label.pdf`, out.label_pdf),
      return_shipment_id: ret.shipment_id,
      return_tracking_url: ret.tracking_url,
      return_label_url: await objects.put(`${dir}/return-label.pdf`, ret.label_pdf),
    };
  }
}
