/**
 * Tables of the title-collection plugin. Migrations for both dialects are
 * generated from these with core/db/gen-migration.ts (see ./schema.ts).
 */
import 'reflect-metadata';
import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

const epoch = {
  to: (v: number | null | undefined) => v,
  from: (v: string | number | null) => (v === null || v === undefined ? null : Number(v)),
};

/**
 * One title collection per entry (the unique index on `entryId` holds it
 * under concurrent calls): the carrier's return shipment, the stored label
 * and QR, and where the paper title is.
 */
@Entity('title_collections')
@Index('uq_title_collections_entry', ['entryId'], { unique: true })
@Index('ix_title_collections_tracking', ['trackingNumber'])
@Index('ix_title_collections_poll', ['state', 'lastPolledAt'])
class TitleCollectionRecord {
  /** The spec's `collection_id`. */
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { length: 36 }) orgId!: string;
  @Column('varchar', { length: 36 }) entryId!: string;
  /** creating | open | received | lost | deleted (the entry was deleted) */
  @Column('varchar', { length: 16 }) state!: string;
  /** sandbox | http */
  @Column('varchar', { length: 16 }) provider!: string;
  /** STUB | LIVE */
  @Column('varchar', { length: 8 }) mode!: string;
  @Column('varchar', { length: 100, nullable: true }) carrier!: string | null;
  @Column('varchar', { length: 100 }) service!: string;
  @Column('varchar', { length: 200, nullable: true }) shipmentId!: string | null;
  @Column('varchar', { length: 100, nullable: true }) trackingNumber!: string | null;
  @Column('varchar', { length: 2048, nullable: true }) trackingUrl!: string | null;
  /** The receiving facility, one line (the spec's `return_address`). */
  @Column('text') returnAddress!: string;
  /** JSON array of strings. */
  @Column('text') instructions!: string;
  /** Object names under the entry's storeIndex. */
  @Column('varchar', { length: 200, nullable: true }) labelName!: string | null;
  @Column('varchar', { length: 200, nullable: true }) qrName!: string | null;
  @Column('integer', { default: 0 }) qrVerified!: number;
  /** The last carrier status seen (pre_transit ... failure). */
  @Column('varchar', { length: 32, nullable: true }) carrierStatus!: string | null;
  @Column('bigint', { transformer: epoch }) assetsExpiresAt!: number;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
  @Column('bigint', { transformer: epoch }) updatedAt!: number;
  @Column('bigint', { nullable: true, transformer: epoch }) lastPolledAt!: number | null;
}

/** Every carrier event and facility action of a collection, applied once per (collection, event id). */
@Entity('title_collection_events')
@Index('uq_title_collection_events', ['collectionId', 'eventId'], { unique: true })
class TitleCollectionEventRecord {
  @PrimaryGeneratedColumn('increment', { type: 'integer' }) id!: number;
  @Column('varchar', { length: 36 }) collectionId!: string;
  @Column('varchar', { length: 200 }) eventId!: string;
  /** A carrier status, or received | lost (facility actions). */
  @Column('varchar', { length: 32 }) status!: string;
  /** webhook | poll | simulate | facility */
  @Column('varchar', { length: 16 }) source!: string;
  @Column('bigint', { transformer: epoch }) occurredAt!: number;
  @Column('text', { nullable: true }) description!: string | null;
  @Column('bigint', { transformer: epoch }) recordedAt!: number;
}

export const TITLE_COLLECTION_ENTITIES = [TitleCollectionRecord, TitleCollectionEventRecord];
