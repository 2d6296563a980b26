/**
 * Tables of the webhook plugin. Migrations for both dialects are generated
 * from these with core/db/gen-migration.ts (see ./schema.ts).
 */
import 'reflect-metadata';
import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

const epoch = {
  to: (v: number | null | undefined) => v,
  from: (v: string | number | null) => (v === null || v === undefined ? null : Number(v)),
};

/** The spec's `webhook_profile`: an organization's endpoint, its subscriptions and outbound authentication. */
@Entity('webhook_profiles')
@Index('uq_webhook_profiles_org_url', ['orgId', 'url'], { unique: true })
class WebhookProfileRecord {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { length: 36 }) orgId!: string;
  @Column('varchar', { length: 2048 }) url!: string;
  /** JSON array of subscribed event names (exact names and `title.account_status.*`). */
  @Column('text') events!: string;
  /** basic | bearer | none */
  @Column('varchar', { length: 16 }) authScheme!: string;
  /** JSON {username, password} or {token, partnerKey}; never logged, never listed. */
  @Column('text', { default: '{}' }) authSecrets!: string;
  /** Standard Webhooks signing secret, `whsec_<base64>`. */
  @Column('varchar', { length: 100 }) signingSecret!: string;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
  @Column('bigint', { transformer: epoch }) updatedAt!: number;
}

/**
 * One delivery: the events of one change of one entry, for one profile.
 * Sent in `seq` order per (profile, entry); claimed with a lease.
 */
@Entity('webhook_deliveries')
@Index('ix_webhook_deliveries_claim', ['status', 'nextAttemptAt'])
@Index('ix_webhook_deliveries_order', ['profileId', 'entryId', 'seq'])
@Index('ix_webhook_deliveries_org', ['orgId', 'createdAt'])
class WebhookDeliveryRecord {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { length: 36 }) profileId!: string;
  @Column('varchar', { length: 36 }) orgId!: string;
  @Column('varchar', { length: 36 }) entryId!: string;
  /** JSON array: the webhook_events of the body. */
  @Column('text') events!: string;
  /** JSON array of the outbox event ids behind it. */
  @Column('text') outboxIds!: string;
  /** Order among the deliveries of one (profile, entry): the id of the change's last outbox event. */
  @Column('integer') seq!: number;
  /** pending | delivering | delivered | failed | canceled */
  @Column('varchar', { length: 16 }) status!: string;
  @Column('integer', { default: 0 }) attempts!: number;
  @Column('bigint', { transformer: epoch }) nextAttemptAt!: number;
  @Column('varchar', { length: 100, nullable: true }) leaseOwner!: string | null;
  @Column('bigint', { nullable: true, transformer: epoch }) leaseExpiresAt!: number | null;
  @Column('integer', { nullable: true }) lastStatusCode!: number | null;
  @Column('text', { nullable: true }) lastError!: string | null;
  /** The delivery this one re-sends (`webhooks replay`). */
  @Column('varchar', { length: 36, nullable: true }) replayOf!: string | null;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
  @Column('bigint', { transformer: epoch }) updatedAt!: number;
  @Column('bigint', { nullable: true, transformer: epoch }) deliveredAt!: number | null;
}

/** Every attempt of a delivery: status code, latency, error, and when the next one is due. */
@Entity('webhook_attempts')
@Index('ix_webhook_attempts_delivery', ['deliveryId', 'attempt'])
class WebhookAttemptRecord {
  @PrimaryGeneratedColumn('increment', { type: 'integer' }) id!: number;
  @Column('varchar', { length: 36 }) deliveryId!: string;
  @Column('integer') attempt!: number;
  @Column('bigint', { transformer: epoch }) startedAt!: number;
  @Column('integer', { nullable: true }) statusCode!: number | null;
  @Column('integer') latencyMs!: number;
  @Column('text', { nullable: true }) error!: string | null;
  /** delivered | retry | failed */
  @Column('varchar', { length: 16 }) outcome!: string;
  @Column('bigint', { nullable: true, transformer: epoch }) nextAttemptAt!: number | null;
  /** The process that made the attempt (host:pid:id). */
  @Column('varchar', { length: 100, nullable: true }) worker!: string | null;
}

/**
 * The outbox dispatcher's claim: one row per dispatcher. Each dispatch
 * transaction first locks it (an UPDATE), so processes sharing a database
 * turn outbox events into deliveries one at a time and a change is never
 * dispatched twice; a process that dies mid-way has its transaction rolled
 * back and holds nothing. `owner` and `lastOutboxId` (the highest outbox
 * event handled) say who dispatched last and how far.
 */
@Entity('webhook_dispatcher')
class WebhookDispatcherRecord {
  @PrimaryColumn('varchar', { length: 32 }) name!: string;
  @Column('varchar', { length: 100, nullable: true }) owner!: string | null;
  @Column('integer', { default: 0 }) lastOutboxId!: number;
  @Column('bigint', { transformer: epoch }) updatedAt!: number;
}

export const WEBHOOK_ENTITIES = [
  WebhookProfileRecord,
  WebhookDeliveryRecord,
  WebhookAttemptRecord,
  WebhookDispatcherRecord,
];
