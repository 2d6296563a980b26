/**
 * Tables of the submission plugin. Migrations for both dialects are generated
 * from these with core/db/gen-migration.ts (see ./schema.ts).
 */
import 'reflect-metadata';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

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

export const SUBMISSION_ENTITIES = [SubmissionRecord];
