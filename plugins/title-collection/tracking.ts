/**
 * What happens to a collection after it is made: carrier events (webhook,
 * polling, sandbox simulation) and the receiving facility's actions, each
 * recorded once and moving `physical_title_status` through core's machine.
 */
import {
  TitledError,
  isUniqueViolation,
  type Database,
  type Logger,
  type TitleCollectionView,
} from '../../core/plugin-api.js';
import type { TrackingEvent, TrackingStatus } from './carrier.js';
import type { TitleCollectionOptions } from './options.js';
import type { CollectionRow } from './records.js';
import { matchReceivedTitle } from './receive.js';
import type { CollectionService } from './service.js';

/** Carrier statuses that mean the carrier has accepted and scanned the package. */
const SCANNED: ReadonlySet<TrackingStatus> = new Set(['in_transit', 'out_for_delivery']);

export class CollectionTracking {
  constructor(
    private readonly s: CollectionService,
    private readonly db: Database,
    private readonly o: TitleCollectionOptions,
    private readonly log: Logger,
  ) {}

  /**
   * Applies a carrier event once (by its id): records it, and moves
   * `physical_title_status` to `in_transit` on an acceptance scan. Label
   * creation (pre_transit) and delivery move nothing. False for an event seen before.
   */
  async applyEvent(row: CollectionRow, e: TrackingEvent, source: string): Promise<boolean> {
    const now = Date.now();
    try {
      await this.db.tx(async (m) => {
        await this.s.records.addEvent(m, {
          collectionId: row.id,
          eventId: e.event_id,
          status: e.status,
          source,
          occurredAt: Date.parse(e.occurred_at) || now,
          description: e.description ?? null,
          now,
        });
        const reopened = SCANNED.has(e.status) && row.state === 'lost';
        await this.s.records.setState(
          m,
          row.id,
          { carrierStatus: e.status, ...(reopened ? { state: 'open' } : {}) },
          now,
        );
        if (SCANNED.has(e.status) && (row.state === 'open' || row.state === 'lost')) {
          await this.s.moveStatus(
            row.orgId,
            row.entryId,
            'in_transit',
            { carrier_event: e.status, tracking_number: e.tracking_number },
            true,
            m,
          );
        }
      });
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
    this.log.info(
      { code: 'TITLE_COLLECTION_EVENT', entryId: row.entryId, collectionId: row.id, status: e.status, source },
      'carrier event applied',
    );
    return true;
  }

  /** Plays a carrier event on a sandbox collection. */
  async simulate(
    orgId: string,
    entryId: string,
    status: TrackingStatus,
  ): Promise<{ applied: boolean; event: TrackingEvent }> {
    const { row } = await this.s.mustRow(orgId, entryId);
    if (row.provider !== 'sandbox')
      throw new TitledError('CONFLICT', 'simulate plays events of the sandbox carrier only; this collection is LIVE');
    const n = (await this.s.records.events(row.id)).length + 1;
    const event: TrackingEvent = {
      event_id: `sim-${n}-${status}`,
      tracking_number: row.trackingNumber ?? '',
      status,
      occurred_at: new Date().toISOString(),
      description: `simulated ${status}`,
    };
    return { applied: await this.applyEvent(row, event, 'simulate'), event };
  }

  /** The receiving facility logged the paper title: matched against the entry's VIN and title number. */
  async receive(
    orgId: string,
    entryId: string,
    got: { vin?: string; title_number?: string },
    by: string,
  ): Promise<TitleCollectionView> {
    const { row, entry } = await this.s.mustRow(orgId, entryId);
    const matched = matchReceivedTitle(entry, got);
    if (row.state !== 'received') await this.facilityEvent(row, 'received', 'received', { by, matched });
    return this.s.view((await this.s.records.byEntry(row.entryId))!, entry.storeIndex);
  }

  /** The original is lost: `unavailable` (a duplicate-title path follows). */
  async lost(orgId: string, entryId: string, by: string): Promise<void> {
    const { row } = await this.s.mustRow(orgId, entryId);
    if (row.state === 'received') throw new TitledError('CONFLICT', 'the title was received; it cannot be lost');
    if (row.state !== 'lost') await this.facilityEvent(row, 'lost', 'unavailable', { by });
  }

  private async facilityEvent(
    row: CollectionRow,
    state: 'received' | 'lost',
    status: string,
    payload: Record<string, unknown>,
  ): Promise<void> {
    const now = Date.now();
    await this.db.tx(async (m) => {
      await this.s.records.addEvent(m, {
        collectionId: row.id,
        eventId: `facility-${state}-${now}`,
        status: state,
        source: 'facility',
        occurredAt: now,
        now,
      });
      await this.s.records.setState(m, row.id, { state }, now);
      await this.s.moveStatus(row.orgId, row.entryId, status, payload, false, m);
    });
    this.log.info(
      { code: 'TITLE_COLLECTION_EVENT', entryId: row.entryId, collectionId: row.id, status: state, source: 'facility' },
      'facility action applied',
    );
  }

  /** One polling round: open collections, least recently polled first. */
  async pollOnce(): Promise<{ polled: number; applied: number }> {
    let applied = 0;
    const rows = await this.s.records.toPoll(this.o.pollBatch);
    for (const row of rows) {
      if (!(await this.s.entryExists(row.orgId, row.entryId))) {
        await this.db.tx((m) => this.s.records.setState(m, row.id, { state: 'deleted' }, Date.now()));
        continue;
      }
      try {
        for (const e of await this.s.carrier.track(row.trackingNumber!))
          if (await this.applyEvent(row, e, 'poll')) applied++;
      } catch (err) {
        this.log.warn(
          { code: 'TITLE_COLLECTION_POLL_FAILED', collectionId: row.id, err: (err as Error).message },
          'carrier poll failed',
        );
      }
      await this.s.records.polled(row.id, Date.now());
    }
    return { polled: rows.length, applied };
  }
}
