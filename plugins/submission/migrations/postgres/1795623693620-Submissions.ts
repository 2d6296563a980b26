import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Submissions1795623693620 implements MigrationInterface {
  name = 'Submissions1795623693620';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "submissions" ("id" character varying(36) NOT NULL, "orgId" character varying(36) NOT NULL, "entryId" character varying(36) NOT NULL, "status" character varying(24) NOT NULL, "method" character varying(16), "intakeMode" character varying(16), "applicationNumber" character varying(100), "confirmationKey" character varying(512), "packetKey" character varying(512), "error" text, "feedbackMessage" text, "rounds" text NOT NULL DEFAULT \'[]\', "ledger" text NOT NULL DEFAULT \'{}\', "history" text NOT NULL DEFAULT \'[]\', "request" text NOT NULL DEFAULT \'{}\', "attempts" integer NOT NULL DEFAULT \'0\', "nextAttemptAt" bigint NOT NULL, "leaseOwner" character varying(100), "leaseExpiresAt" bigint, "statusSince" bigint NOT NULL, "delayed" integer NOT NULL DEFAULT \'0\', "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL, CONSTRAINT "PK_10b3be95b8b2fb1e482e07d706b" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "ix_submissions_claim" ON "submissions"  ("status", "nextAttemptAt") ');
    await queryRunner.query('CREATE INDEX "ix_submissions_entry" ON "submissions"  ("orgId", "entryId", "createdAt") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "ix_submissions_entry"');
    await queryRunner.query('DROP INDEX "ix_submissions_claim"');
    await queryRunner.query('DROP TABLE "submissions"');
  }
}
