/** Reading and writing the plugin's tables (raw SQL on both dialects). */
import type { EntityManager } from 'typeorm';
import type { Database } from '../../core/plugin-api.js';
import type { CollectionAssets, StoredCollection } from './view.js';

export interface CollectionRow {
  id: string;
  orgId: string;
  entryId: string;
  state: 'creating' | 'open' | 'received' | 'lost' | 'deleted';
  provider: string;
  mode: 'STUB' | 'LIVE';
  carrier: string | null;
  service: string;
  shipmentId: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  returnAddress: string;
  instructions: string[];
  labelName: string | null;
  qrName: string | null;
  qrVerified: boolean;
  carrierStatus: string | null;
  assetsExpiresAt: number;
  createdAt: number;
  updatedAt: number;
  lastPolledAt: number | null;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const strOrNull = (v: unknown) => (v === null || v === undefined ? null : String(v));

export function toRow(r: Record<string, unknown>): CollectionRow {
  return {
    id: String(r.id),
    orgId: String(r.orgId),
    entryId: String(r.entryId),
    state: String(r.state) as CollectionRow['state'],
    provider: String(r.provider),
    mode: String(r.mode) as CollectionRow['mode'],
    carrier: strOrNull(r.carrier),
    service: String(r.service),
    shipmentId: strOrNull(r.shipmentId),
    trackingNumber: strOrNull(r.trackingNumber),
    trackingUrl: strOrNull(r.trackingUrl),
    returnAddress: String(r.returnAddress),
    instructions: JSON.parse(String(r.instructions)) as string[],
    labelName: strOrNull(r.labelName),
    qrName: strOrNull(r.qrName),
    qrVerified: Number(r.qrVerified) === 1,
    carrierStatus: strOrNull(r.carrierStatus),
    assetsExpiresAt: Number(r.assetsExpiresAt),
    createdAt: Number(r.createdAt),
    updatedAt: Number(r.updatedAt),
    lastPolledAt: num(r.lastPolledAt),
  };
}

export function storedOf(r: CollectionRow): StoredCollection {
  return {
    collection_id: r.id,
    mode: r.mode,
    carrier: r.carrier ?? '',
    service: r.service,
    return_address: r.returnAddress,
    instructions: r.instructions,
    created_at: new Date(r.createdAt).toISOString(),
    tracking_number: r.trackingNumber,
    qr_verified: r.qrVerified,
    assets_expires_at: new Date(r.assetsExpiresAt).toISOString(),
  };
}

export const assetsOf = (r: CollectionRow): CollectionAssets => ({ label: r.labelName, qr: r.qrName });

export class CollectionRecords {
  constructor(private readonly db: Database) {}

  async byEntry(entryId: string, m?: EntityManager): Promise<CollectionRow | null> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM title_collections WHERE "entryId" = ?',
      [entryId],
      m,
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  async byTracking(trackingNumber: string): Promise<CollectionRow | null> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM title_collections WHERE "trackingNumber" = ?',
      [trackingNumber],
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** Claims the entry's collection: inserts a `creating` row; throws a unique violation when one exists. */
  async claim(c: {
    id: string;
    orgId: string;
    entryId: string;
    provider: string;
    mode: string;
    service: string;
    returnAddress: string;
    instructions: string[];
    assetsExpiresAt: number;
    now: number;
  }): Promise<void> {
    await this.db.exec(
      'INSERT INTO title_collections (id, "orgId", "entryId", state, provider, mode, service, "returnAddress", ' +
        'instructions, "qrVerified", "assetsExpiresAt", "createdAt", "updatedAt") ' +
        "VALUES (?, ?, ?, 'creating', ?, ?, ?, ?, ?, 0, ?, ?, ?)",
      [
        c.id,
        c.orgId,
        c.entryId,
        c.provider,
        c.mode,
        c.service,
        c.returnAddress,
        JSON.stringify(c.instructions),
        c.assetsExpiresAt,
        c.now,
        c.now,
      ],
    );
  }

  /** Takes over a claim whose creator stopped (no update since `staleBefore`); true when this caller has it now. */
  async takeOver(id: string, updatedAt: number, now: number): Promise<boolean> {
    const r = await this.db.exec(
      'UPDATE title_collections SET "updatedAt" = ? WHERE id = ? AND state = \'creating\' AND "updatedAt" = ?',
      [now, id, updatedAt],
    );
    return r.affected === 1;
  }

  async release(id: string): Promise<void> {
    await this.db.exec("DELETE FROM title_collections WHERE id = ? AND state = 'creating'", [id]);
  }

  async open(
    id: string,
    s: {
      carrier: string;
      shipmentId: string;
      trackingNumber: string;
      trackingUrl: string;
      labelName: string;
      qrName: string | null;
      qrVerified: boolean;
      now: number;
    },
  ): Promise<void> {
    await this.db.exec(
      'UPDATE title_collections SET state = \'open\', carrier = ?, "shipmentId" = ?, "trackingNumber" = ?, ' +
        '"trackingUrl" = ?, "labelName" = ?, "qrName" = ?, "qrVerified" = ?, "updatedAt" = ? WHERE id = ?',
      [
        s.carrier,
        s.shipmentId,
        s.trackingNumber,
        s.trackingUrl,
        s.labelName,
        s.qrName,
        s.qrVerified ? 1 : 0,
        s.now,
        id,
      ],
    );
  }

  async setState(
    m: EntityManager,
    id: string,
    patch: { state?: string; carrierStatus?: string },
    now: number,
  ): Promise<void> {
    const sets: string[] = ['"updatedAt" = ?'];
    const params: unknown[] = [now];
    if (patch.state) {
      sets.push('state = ?');
      params.push(patch.state);
    }
    if (patch.carrierStatus) {
      sets.push('"carrierStatus" = ?');
      params.push(patch.carrierStatus);
    }
    await this.db.exec(`UPDATE title_collections SET ${sets.join(', ')} WHERE id = ?`, [...params, id], m);
  }

  /** Records an event once; throws a unique violation for an event id seen before. */
  async addEvent(
    m: EntityManager,
    e: {
      collectionId: string;
      eventId: string;
      status: string;
      source: string;
      occurredAt: number;
      description?: string | null;
      now: number;
    },
  ): Promise<void> {
    await this.db.exec(
      'INSERT INTO title_collection_events ("collectionId", "eventId", status, source, "occurredAt", description, ' +
        '"recordedAt") VALUES (?, ?, ?, ?, ?, ?, ?)',
      [e.collectionId, e.eventId, e.status, e.source, e.occurredAt, e.description ?? null, e.now],
      m,
    );
  }

  async events(
    collectionId: string,
  ): Promise<{ eventId: string; status: string; source: string; occurredAt: number; description: string | null }[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM title_collection_events WHERE "collectionId" = ? ORDER BY id',
      [collectionId],
    );
    return rows.map((r) => ({
      eventId: String(r.eventId),
      status: String(r.status),
      source: String(r.source),
      occurredAt: Number(r.occurredAt),
      description: strOrNull(r.description),
    }));
  }

  /** Collections still on their way (open, or lost: a late scan recovers them), least recently polled first. */
  async toPoll(limit: number): Promise<CollectionRow[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      "SELECT * FROM title_collections WHERE state IN ('open', 'lost') AND \"trackingNumber\" IS NOT NULL " +
        'ORDER BY COALESCE("lastPolledAt", 0), id LIMIT ?',
      [limit],
    );
    return rows.map(toRow);
  }

  async polled(id: string, now: number): Promise<void> {
    await this.db.exec('UPDATE title_collections SET "lastPolledAt" = ? WHERE id = ?', [now, id]);
  }
}
