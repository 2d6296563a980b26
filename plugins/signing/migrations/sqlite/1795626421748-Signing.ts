import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Signing1795626421748 implements MigrationInterface {
  name = 'Signing1795626421748';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "signing_requests" ("id" varchar(36) PRIMARY KEY NOT NULL, "orgId" varchar(36) NOT NULL, "entryId" varchar(36) NOT NULL, "openKey" varchar(36), "status" varchar(20) NOT NULL, "type" varchar(12) NOT NULL, "doc" text NOT NULL, "linkBase" varchar(500) NOT NULL, "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL, "sentAt" bigint, "expiresAt" bigint, "nextReminderAt" bigint, "remindersSent" integer NOT NULL DEFAULT (0), "lastBumpAt" bigint, "completedAt" bigint)',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_signing_requests_due" ON "signing_requests" ("status", "nextReminderAt") ',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_signing_requests_entry" ON "signing_requests" ("orgId", "entryId", "createdAt") ',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_signing_requests_open" ON "signing_requests" ("openKey") ');
    await queryRunner.query(
      'CREATE TABLE "signing_signers" ("id" varchar(36) PRIMARY KEY NOT NULL, "requestId" varchar(36) NOT NULL, "position" integer NOT NULL, "signerId" varchar(200) NOT NULL, "name" varchar(300) NOT NULL, "person" text NOT NULL, "tokenHash" varchar(64) NOT NULL, "tokenExpiresAt" bigint NOT NULL, "status" varchar(12) NOT NULL, "viewedAt" bigint, "consentAt" bigint, "signedAt" bigint, "ip" varchar(64), "userAgent" varchar(500), "signature" text, "dlid" text, "lastNotifiedAt" bigint)',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_signing_signers_request" ON "signing_signers" ("requestId", "position") ',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_signing_signers_token" ON "signing_signers" ("tokenHash") ');
    await queryRunner.query(
      'CREATE TABLE "signing_documents" ("id" varchar(36) PRIMARY KEY NOT NULL, "requestId" varchar(36) NOT NULL, "position" integer NOT NULL, "name" varchar(100) NOT NULL, "filename" varchar(300) NOT NULL, "sourceKey" varchar(1024) NOT NULL, "signerIds" text NOT NULL, "boxes" text NOT NULL, "sha256Before" varchar(64) NOT NULL, "pages" integer NOT NULL DEFAULT (0), "signedKey" varchar(1024), "sha256After" varchar(64))',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_signing_documents_request" ON "signing_documents" ("requestId", "position") ',
    );
    await queryRunner.query(
      'CREATE TABLE "signing_events" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "requestId" varchar(36) NOT NULL, "seq" integer NOT NULL, "at" bigint NOT NULL, "type" varchar(40) NOT NULL, "actor" varchar(300) NOT NULL, "data" text NOT NULL, "prevHash" varchar(64) NOT NULL, "hash" varchar(64) NOT NULL)',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_signing_events_seq" ON "signing_events" ("requestId", "seq") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "uq_signing_events_seq"');
    await queryRunner.query('DROP TABLE "signing_events"');
    await queryRunner.query('DROP INDEX "ix_signing_documents_request"');
    await queryRunner.query('DROP TABLE "signing_documents"');
    await queryRunner.query('DROP INDEX "uq_signing_signers_token"');
    await queryRunner.query('DROP INDEX "ix_signing_signers_request"');
    await queryRunner.query('DROP TABLE "signing_signers"');
    await queryRunner.query('DROP INDEX "uq_signing_requests_open"');
    await queryRunner.query('DROP INDEX "ix_signing_requests_entry"');
    await queryRunner.query('DROP INDEX "ix_signing_requests_due"');
    await queryRunner.query('DROP TABLE "signing_requests"');
  }
}
