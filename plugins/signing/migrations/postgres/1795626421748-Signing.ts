import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Signing1795626421748 implements MigrationInterface {
  name = 'Signing1795626421748';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "signing_requests" ("id" character varying(36) NOT NULL, "orgId" character varying(36) NOT NULL, "entryId" character varying(36) NOT NULL, "openKey" character varying(36), "status" character varying(20) NOT NULL, "type" character varying(12) NOT NULL, "doc" text NOT NULL, "linkBase" character varying(500) NOT NULL, "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL, "sentAt" bigint, "expiresAt" bigint, "nextReminderAt" bigint, "remindersSent" integer NOT NULL DEFAULT \'0\', "lastBumpAt" bigint, "completedAt" bigint, CONSTRAINT "PK_9bb00f7da7f2cb267cf8eeebc3c" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_signing_requests_due" ON "signing_requests"  ("status", "nextReminderAt") ',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_signing_requests_entry" ON "signing_requests"  ("orgId", "entryId", "createdAt") ',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_signing_requests_open" ON "signing_requests"  ("openKey") ');
    await queryRunner.query(
      'CREATE TABLE "signing_signers" ("id" character varying(36) NOT NULL, "requestId" character varying(36) NOT NULL, "position" integer NOT NULL, "signerId" character varying(200) NOT NULL, "name" character varying(300) NOT NULL, "person" text NOT NULL, "tokenHash" character varying(64) NOT NULL, "tokenExpiresAt" bigint NOT NULL, "status" character varying(12) NOT NULL, "viewedAt" bigint, "consentAt" bigint, "signedAt" bigint, "ip" character varying(64), "userAgent" character varying(500), "signature" text, "dlid" text, "lastNotifiedAt" bigint, CONSTRAINT "PK_c8bdc673210274634c64c318bf2" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_signing_signers_request" ON "signing_signers"  ("requestId", "position") ',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_signing_signers_token" ON "signing_signers"  ("tokenHash") ');
    await queryRunner.query(
      'CREATE TABLE "signing_documents" ("id" character varying(36) NOT NULL, "requestId" character varying(36) NOT NULL, "position" integer NOT NULL, "name" character varying(100) NOT NULL, "filename" character varying(300) NOT NULL, "sourceKey" character varying(1024) NOT NULL, "signerIds" text NOT NULL, "boxes" text NOT NULL, "sha256Before" character varying(64) NOT NULL, "pages" integer NOT NULL DEFAULT \'0\', "signedKey" character varying(1024), "sha256After" character varying(64), CONSTRAINT "PK_bdf19c9212fb32cc745bd3a8cc2" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_signing_documents_request" ON "signing_documents"  ("requestId", "position") ',
    );
    await queryRunner.query(
      'CREATE TABLE "signing_events" ("id" SERIAL NOT NULL, "requestId" character varying(36) NOT NULL, "seq" integer NOT NULL, "at" bigint NOT NULL, "type" character varying(40) NOT NULL, "actor" character varying(300) NOT NULL, "data" text NOT NULL, "prevHash" character varying(64) NOT NULL, "hash" character varying(64) NOT NULL, CONSTRAINT "PK_663e3f0182ea1c7b9cef692e306" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_signing_events_seq" ON "signing_events"  ("requestId", "seq") ');
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
