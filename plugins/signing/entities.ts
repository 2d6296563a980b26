/**
 * Tables of the signing plugin. Migrations for both dialects are generated
 * from these with core/db/gen-migration.ts (see ./schema.ts).
 */
import 'reflect-metadata';
import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

const epoch = {
  to: (v: number | null | undefined) => v,
  from: (v: string | number | null) => (v === null || v === undefined ? null : Number(v)),
};

/**
 * A signature request of one entry. `openKey` holds the entry id while the
 * request is open (DRAFT, SENT, PARTIALLY_SIGNED) and NULL once it is final:
 * its unique index keeps one open request per entry under concurrent calls.
 */
@Entity('signing_requests')
@Index('uq_signing_requests_open', ['openKey'], { unique: true })
@Index('ix_signing_requests_entry', ['orgId', 'entryId', 'createdAt'])
@Index('ix_signing_requests_due', ['status', 'nextReminderAt'])
class SigningRequestRecord {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { length: 36 }) orgId!: string;
  @Column('varchar', { length: 36 }) entryId!: string;
  @Column('varchar', { length: 36, nullable: true }) openKey!: string | null;
  @Column('varchar', { length: 20 }) status!: string;
  /** E_SIGN | WET_SIGN | RON */
  @Column('varchar', { length: 12 }) type!: string;
  /** JSON: redirect_url, requester_email, instructions, metadata, title_collection, outputs (object keys), flags. */
  @Column('text') doc!: string;
  /** Scheme, host and port the signers' links start with. */
  @Column('varchar', { length: 500 }) linkBase!: string;
  @Column('bigint', { transformer: epoch }) createdAt!: number;
  @Column('bigint', { transformer: epoch }) updatedAt!: number;
  @Column('bigint', { nullable: true, transformer: epoch }) sentAt!: number | null;
  @Column('bigint', { nullable: true, transformer: epoch }) expiresAt!: number | null;
  @Column('bigint', { nullable: true, transformer: epoch }) nextReminderAt!: number | null;
  @Column('integer', { default: 0 }) remindersSent!: number;
  @Column('bigint', { nullable: true, transformer: epoch }) lastBumpAt!: number | null;
  @Column('bigint', { nullable: true, transformer: epoch }) completedAt!: number | null;
}

/** A signer of a request; his link's token is stored only as its SHA-256. */
@Entity('signing_signers')
@Index('uq_signing_signers_token', ['tokenHash'], { unique: true })
@Index('ix_signing_signers_request', ['requestId', 'position'])
class SigningSignerRecord {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { length: 36 }) requestId!: string;
  @Column('integer') position!: number;
  /** The person's id as the forms name it (`signer_id`). */
  @Column('varchar', { length: 200 }) signerId!: string;
  @Column('varchar', { length: 300 }) name!: string;
  /** JSON: the Person (spec) without the link. */
  @Column('text') person!: string;
  @Column('varchar', { length: 64 }) tokenHash!: string;
  @Column('bigint', { transformer: epoch }) tokenExpiresAt!: number;
  /** pending | viewed | signed | declined */
  @Column('varchar', { length: 12 }) status!: string;
  @Column('bigint', { nullable: true, transformer: epoch }) viewedAt!: number | null;
  @Column('bigint', { nullable: true, transformer: epoch }) consentAt!: number | null;
  @Column('bigint', { nullable: true, transformer: epoch }) signedAt!: number | null;
  @Column('varchar', { length: 64, nullable: true }) ip!: string | null;
  @Column('varchar', { length: 500, nullable: true }) userAgent!: string | null;
  /** JSON {kind: typed|drawn, text?, png? (base64)}. */
  @Column('text', { nullable: true }) signature!: string | null;
  /** JSON: the driver license read from the photo and the match against the owner. */
  @Column('text', { nullable: true }) dlid!: string | null;
  @Column('bigint', { nullable: true, transformer: epoch }) lastNotifiedAt!: number | null;
}

/** A document of a request: the form it comes from, its hashes and its signed copy. */
@Entity('signing_documents')
@Index('ix_signing_documents_request', ['requestId', 'position'])
class SigningDocumentRecord {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { length: 36 }) requestId!: string;
  @Column('integer') position!: number;
  /** The entry member it comes from (`forms_poa`, `form_title_application`) or `upload`. */
  @Column('varchar', { length: 100 }) name!: string;
  @Column('varchar', { length: 300 }) filename!: string;
  /** Object key of the document as sent (the unsigned PDF). */
  @Column('varchar', { length: 1024 }) sourceKey!: string;
  /** JSON array of signer ids. */
  @Column('text') signerIds!: string;
  /** JSON array of signature boxes {page, x, y, width, height, signer_id} (PDF points, bottom-left origin). */
  @Column('text') boxes!: string;
  @Column('varchar', { length: 64 }) sha256Before!: string;
  /** Pages of the document as sent (the signing page shows each). */
  @Column('integer', { default: 0 }) pages!: number;
  @Column('varchar', { length: 1024, nullable: true }) signedKey!: string | null;
  @Column('varchar', { length: 64, nullable: true }) sha256After!: string | null;
}

/**
 * The audit log: append-only, one chain per request. Each event's `hash` is
 * SHA-256 over the previous event's hash and this event's fields; the unique
 * (requestId, seq) index keeps the chain linear under concurrent writers.
 */
@Entity('signing_events')
@Index('uq_signing_events_seq', ['requestId', 'seq'], { unique: true })
class SigningEventRecord {
  @PrimaryGeneratedColumn('increment', { type: 'integer' }) id!: number;
  @Column('varchar', { length: 36 }) requestId!: string;
  @Column('integer') seq!: number;
  @Column('bigint', { transformer: epoch }) at!: number;
  @Column('varchar', { length: 40 }) type!: string;
  @Column('varchar', { length: 300 }) actor!: string;
  @Column('text') data!: string;
  @Column('varchar', { length: 64 }) prevHash!: string;
  @Column('varchar', { length: 64 }) hash!: string;
}

export const SIGNING_ENTITIES = [SigningRequestRecord, SigningSignerRecord, SigningDocumentRecord, SigningEventRecord];
