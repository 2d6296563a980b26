/**
 * TypeORM entities. Entries keep indexed columns for what is queried and one
 * JSON document (`doc`) for the rest, so the spec's loose fields survive round
 * trips unchanged. Epoch-millisecond columns are bigint (PostgreSQL returns
 * bigint as text: the transformer turns it back into a number).
 */
import 'reflect-metadata';
import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from './typeorm.js';

const epoch = {
  to: (v: number | null | undefined) => v,
  from: (v: string | number | null) => (v === null || v === undefined ? null : Number(v)),
};

@Entity('organizations')
class OrganizationRecord {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Index('uq_organizations_name', { unique: true })
  @Column('varchar', { length: 200 })
  name!: string;
  /** JSON: per-organization switches (preview features, physical title events, ...). */
  @Column('text', { default: '{}' }) settings!: string;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
}

@Entity('api_keys')
class ApiKeyRecord {
  @PrimaryColumn('varchar', { length: 40 }) id!: string;
  @Index('ix_api_keys_org')
  @Column('varchar', { length: 36 })
  orgId!: string;
  /** SHA-256 (hex) of the key's secret part; the secret itself is never stored. */
  @Column('varchar', { length: 64 }) secretHash!: string;
  /** JSON array of group ids the key is restricted to; null = no group restriction. */
  @Column('text', { nullable: true }) groups!: string | null;
  @Column('varchar', { length: 200, nullable: true }) label!: string | null;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
  @Column('bigint', { nullable: true, transformer: epoch }) revokedAt!: number | null;
  /** operator (null), viewer or host (docs/console.md). */
  @Column('varchar', { length: 20, nullable: true }) role!: string | null;
}

@Entity('entries')
@Index('uq_entries_org_vin', ['orgId', 'vin'], { unique: true })
@Index('ix_entries_org_created', ['orgId', 'createdAt', 'id'])
@Index('ix_entries_org_state', ['orgId', 'state'])
@Index('ix_entries_org_job_status', ['orgId', 'jobStatus'])
@Index('ix_entries_org_account_status', ['orgId', 'accountStatus'])
@Index('ix_entries_org_group', ['orgId', 'groupId'])
class EntryRecord {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { length: 36 }) orgId!: string;
  /** Normalized VIN; null until known (a documents-only entry before extraction). */
  @Column('varchar', { length: 17, nullable: true }) vin!: string | null;
  @Column('varchar', { length: 8, default: '' }) state!: string;
  @Column('varchar', { length: 200, nullable: true }) groupId!: string | null;
  @Column('varchar', { length: 32 }) jobStatus!: string;
  @Column('varchar', { length: 32 }) accountStatus!: string;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
  @Column('bigint', { transformer: epoch }) updatedAt!: number;
  /** Incremented on every write; the pipeline uses it to detect concurrent changes. */
  @Column('integer', { default: 1 }) version!: number;
  @Column('text') doc!: string;
  /**
   * JSON: the sources behind `account_data` (core/model/account.ts), never
   * shown to clients; kept out of `doc` so the stored document is exactly
   * what GET answers.
   */
  @Column('text', { nullable: true }) sources!: string | null;
}

/** A duplicate pointer entry: a create for a VIN the organization already had. */
@Entity('duplicate_pointers')
class DuplicatePointerRecord {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { length: 36 }) orgId!: string;
  @Index('ix_duplicate_pointers_canonical')
  @Column('varchar', { length: 36 })
  canonicalId!: string;
  @Column('varchar', { length: 200 }) userId!: string;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
}

@Entity('jobs')
@Index('ix_jobs_claim', ['status', 'runAfter'])
@Index('ix_jobs_entry', ['entryId', 'status'])
class JobRecord {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { length: 36 }) entryId!: string;
  @Column('varchar', { length: 36 }) orgId!: string;
  /** queued | running | done | failed */
  @Column('varchar', { length: 16 }) status!: string;
  /** JSON JobInput: what the requests asked for (account data, attachments, sync flags, reasons). */
  @Column('text') input!: string;
  /** JSON array of the stage names finished (the checkpoint). */
  @Column('text', { default: '[]' }) stagesDone!: string;
  @Column('integer', { default: 0 }) attempts!: number;
  @Column('varchar', { length: 100, nullable: true }) leaseOwner!: string | null;
  @Column('bigint', { nullable: true, transformer: epoch }) leaseExpiresAt!: number | null;
  @Column('bigint', { transformer: epoch }) runAfter!: number;
  @Column('text', { nullable: true }) lastError!: string | null;
  /** The job_status the request set; restored when this job is still queued after an earlier one ends. */
  @Column('varchar', { length: 32 }) initialStatus!: string;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
  @Column('bigint', { transformer: epoch }) updatedAt!: number;
}

/** Every status change, written in the same transaction as the change (the webhook stage delivers them). */
@Entity('outbox')
@Index('ix_outbox_pending', ['dispatchedAt', 'id'])
@Index('ix_outbox_entry', ['entryId', 'id'])
class OutboxRecord {
  /** integer (SQLite allows AUTOINCREMENT only on INTEGER): 2^31 events per database. */
  @PrimaryGeneratedColumn('increment', { type: 'integer' }) id!: number;
  @Column('varchar', { length: 36 }) orgId!: string;
  @Column('varchar', { length: 36 }) entryId!: string;
  /** Event name, e.g. `title.job_status.complete`. */
  @Column('varchar', { length: 200 }) name!: string;
  /** JSON: what changed ({from, to} for a status). */
  @Column('text', { default: '{}' }) payload!: string;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
  @Column('bigint', { nullable: true, transformer: epoch }) dispatchedAt!: number | null;
}

/**
 * A login session (the session cookie): the cookie is a signed token naming
 * this row, which ends it server-side: logout sets `revokedAt`, and a session
 * never outlives `expiresAt` (at most the credential it was minted from).
 */
@Entity('sessions')
class SessionRecord {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { length: 36 }) orgId!: string;
  /** The API key that logged in (a revoked key ends its sessions); null for a JWT login. */
  @Column('varchar', { length: 40, nullable: true }) keyId!: string | null;
  @Index('ix_sessions_expires')
  @Column('bigint', { transformer: epoch })
  expiresAt!: number;
  @Column('bigint', { nullable: true, transformer: epoch }) revokedAt!: number | null;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
}

/** A data key of an organization, wrapped by a master key (core/crypto/data-keys.ts). */
@Entity('data_keys')
class DataKeyRecord {
  @PrimaryColumn('varchar', { length: 36 }) orgId!: string;
  @PrimaryColumn('integer') version!: number;
  /** The data key sealed by the master key `masterKeyId` (base64url). */
  @Column('text') wrapped!: string;
  @Column('varchar', { length: 200 }) masterKeyId!: string;
  /** active | retired */
  @Column('varchar', { length: 16 }) state!: string;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
}

/** A request's `Idempotency-Key` and the response it got (core/http/idempotency.ts). */
@Entity('idempotency_keys')
@Index('ix_idempotency_expires', ['expiresAt'])
class IdempotencyRecord {
  @PrimaryColumn('varchar', { length: 36 }) orgId!: string;
  @PrimaryColumn('varchar', { length: 300 }) key!: string;
  /** SHA-256 (hex) of method, path and body: a different request with the same key is refused. */
  @Column('varchar', { length: 64 }) fingerprint!: string;
  /** running | done */
  @Column('varchar', { length: 16 }) state!: string;
  @Column('integer', { nullable: true }) status!: number | null;
  /** JSON: the response headers replayed. */
  @Column('text', { nullable: true }) headers!: string | null;
  @Column('text', { nullable: true }) body!: string | null;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
  @Column('bigint', { transformer: epoch }) expiresAt!: number;
}

export const CORE_ENTITIES = [
  OrganizationRecord,
  ApiKeyRecord,
  EntryRecord,
  DuplicatePointerRecord,
  JobRecord,
  OutboxRecord,
  SessionRecord,
  DataKeyRecord,
  IdempotencyRecord,
];
