/**
 * Tables of the submission plugin. Migrations for both dialects are generated
 * from these with core/db/gen-migration.ts (see ./schema.ts).
 */
import 'reflect-metadata';
import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

const epoch = {
  to: (v: number | null | undefined) => v,
  from: (v: string | number | null) => (v === null || v === undefined ? null : Number(v)),
};

/** One filing of an entry with the state (the spec's Submission), with the worker's lease and ledger. */
@Entity('submissions')
@Index('ix_submissions_entry', ['orgId', 'entryId', 'createdAt'])
@Index('ix_submissions_claim', ['status', 'nextAttemptAt'])
class SubmissionRecord {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { length: 36 }) orgId!: string;
  @Column('varchar', { length: 36 }) entryId!: string;
  /** core/status.ts SUBMISSION_STATUSES */
  @Column('varchar', { length: 24 }) status!: string;
  /** MAIL | ONLINE_PORTAL; null on a managed submission until the operator picks one */
  @Column('varchar', { length: 16, nullable: true }) method!: string | null;
  /** MANAGED or null */
  @Column('varchar', { length: 16, nullable: true }) intakeMode!: string | null;
  @Column('varchar', { length: 100, nullable: true }) applicationNumber!: string | null;
  /** Object key of the portal's confirmation screenshot (PNG). */
  @Column('varchar', { length: 512, nullable: true }) confirmationKey!: string | null;
  /** Object key of the mail packet (PDF). */
  @Column('varchar', { length: 512, nullable: true }) packetKey!: string | null;
  @Column('text', { nullable: true }) error!: string | null;
  @Column('text', { nullable: true }) feedbackMessage!: string | null;
  /** JSON array of follow-up rounds. */
  @Column('text', { default: '[]' }) rounds!: string;
  /** JSON object: the portal steps completed (step -> result), so a retry never files twice. */
  @Column('text', { default: '{}' }) ledger!: string;
  /** JSON array: every status move {from, to, at, by, note}. */
  @Column('text', { default: '[]' }) history!: string;
  /** JSON object: what the client asked for beyond method and intake mode. */
  @Column('text', { default: '{}' }) request!: string;
  @Column('integer', { default: 0 }) attempts!: number;
  @Column('bigint', { transformer: epoch }) nextAttemptAt!: number;
  @Column('varchar', { length: 100, nullable: true }) leaseOwner!: string | null;
  @Column('bigint', { nullable: true, transformer: epoch }) leaseExpiresAt!: number | null;
  /** When the current status was entered (lien_delay counts from UNDER_REVIEW's). */
  @Column('bigint', { transformer: epoch }) statusSince!: number;
  /** 1 once lien_delay was recorded for the current review. */
  @Column('integer', { default: 0 }) delayed!: number;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
  @Column('bigint', { transformer: epoch }) updatedAt!: number;
}

/**
 * The outbound shipment of a MAIL packet (when `mailCarrier` is set): one per
 * submission, bought through the title-collection plugin's carrier; polled
 * for tracking with a lease (several daemons share the table).
 */
@Entity('submission_shipments')
@Index('ix_submission_shipments_tracking', ['trackingNumber'])
@Index('ix_submission_shipments_poll', ['state', 'nextPollAt'])
class SubmissionShipmentRecord {
  @PrimaryColumn('varchar', { length: 36 }) submissionId!: string;
  @Column('varchar', { length: 36 }) orgId!: string;
  @Column('varchar', { length: 36 }) entryId!: string;
  /** open (tracked) | delivered (the submission's move is due) | done (no more tracking) */
  @Column('varchar', { length: 16 }) state!: string;
  /** sandbox | http */
  @Column('varchar', { length: 16 }) provider!: string;
  /** STUB | LIVE */
  @Column('varchar', { length: 8 }) mode!: string;
  @Column('varchar', { length: 100 }) carrier!: string;
  @Column('varchar', { length: 100 }) service!: string;
  @Column('varchar', { length: 200 }) shipmentId!: string;
  @Column('varchar', { length: 100 }) trackingNumber!: string;
  @Column('varchar', { length: 2048, nullable: true }) trackingUrl!: string | null;
  /** Object key of the label PDF (beside the packet). */
  @Column('varchar', { length: 512 }) labelKey!: string;
  /** JSON: the filing office the label is addressed to (a carrier address). */
  @Column('text') toAddress!: string;
  /** The last carrier status (pre_transit ... failure). */
  @Column('varchar', { length: 32 }) status!: string;
  @Column('bigint', { transformer: epoch }) nextPollAt!: number;
  @Column('varchar', { length: 100, nullable: true }) leaseOwner!: string | null;
  @Column('bigint', { nullable: true, transformer: epoch }) leaseExpiresAt!: number | null;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
  @Column('bigint', { transformer: epoch }) updatedAt!: number;
}

/** Tracking events of a MAIL packet's shipment, applied once per (submission, event id). */
@Entity('submission_shipment_events')
@Index('uq_submission_shipment_events', ['submissionId', 'eventId'], { unique: true })
class SubmissionShipmentEventRecord {
  @PrimaryGeneratedColumn('increment', { type: 'integer' }) id!: number;
  @Column('varchar', { length: 36 }) submissionId!: string;
  @Column('varchar', { length: 200 }) eventId!: string;
  @Column('varchar', { length: 32 }) status!: string;
  /** webhook | poll | simulate */
  @Column('varchar', { length: 16 }) source!: string;
  @Column('bigint', { transformer: epoch }) occurredAt!: number;
  @Column('text', { nullable: true }) description!: string | null;
  @Column('varchar', { length: 200, nullable: true }) location!: string | null;
  @Column('bigint', { transformer: epoch }) recordedAt!: number;
}

export const SUBMISSION_ENTITIES = [SubmissionRecord, SubmissionShipmentRecord, SubmissionShipmentEventRecord];
