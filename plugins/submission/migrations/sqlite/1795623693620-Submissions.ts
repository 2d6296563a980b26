import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Submissions1795623693620 implements MigrationInterface {
  name = 'Submissions1795623693620';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "submissions" ("id" varchar(36) PRIMARY KEY NOT NULL, "orgId" varchar(36) NOT NULL, "entryId" varchar(36) NOT NULL, "status" varchar(24) NOT NULL, "method" varchar(16), "intakeMode" varchar(16), "applicationNumber" varchar(100), "confirmationKey" varchar(512), "packetKey" varchar(512), "error" text, "feedbackMessage" text, "rounds" text NOT NULL DEFAULT (\'[]\'), "ledger" text NOT NULL DEFAULT (\'{}\'), "history" text NOT NULL DEFAULT (\'[]\'), "request" text NOT NULL DEFAULT (\'{}\'), "attempts" integer NOT NULL DEFAULT (0), "nextAttemptAt" bigint NOT NULL, "leaseOwner" varchar(100), "leaseExpiresAt" bigint, "statusSince" bigint NOT NULL, "delayed" integer NOT NULL DEFAULT (0), "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "ix_submissions_claim" ON "submissions" ("status", "nextAttemptAt") ');
    await queryRunner.query('CREATE INDEX "ix_submissions_entry" ON "submissions" ("orgId", "entryId", "createdAt") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "ix_submissions_entry"');
    await queryRunner.query('DROP INDEX "ix_submissions_claim"');
    await queryRunner.query('DROP TABLE "submissions"');
  }
}
