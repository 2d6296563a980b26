import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795214126610 implements MigrationInterface {
  name = 'Init1795214126610';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "organizations" ("id" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(200) NOT NULL, "settings" text NOT NULL DEFAULT (\'{}\'), "createdAt" bigint NOT NULL)',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_organizations_name" ON "organizations" ("name") ');
    await queryRunner.query(
      'CREATE TABLE "api_keys" ("id" varchar(40) PRIMARY KEY NOT NULL, "orgId" varchar(36) NOT NULL, "secretHash" varchar(64) NOT NULL, "groups" text, "label" varchar(200), "createdAt" bigint NOT NULL, "revokedAt" bigint)',
    );
    await queryRunner.query('CREATE INDEX "ix_api_keys_org" ON "api_keys" ("orgId") ');
    await queryRunner.query(
      'CREATE TABLE "entries" ("id" varchar(36) PRIMARY KEY NOT NULL, "orgId" varchar(36) NOT NULL, "vin" varchar(17), "state" varchar(8) NOT NULL DEFAULT (\'\'), "groupId" varchar(200), "jobStatus" varchar(32) NOT NULL, "accountStatus" varchar(32) NOT NULL, "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL, "version" integer NOT NULL DEFAULT (1), "doc" text NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "ix_entries_org_group" ON "entries" ("orgId", "groupId") ');
    await queryRunner.query('CREATE INDEX "ix_entries_org_account_status" ON "entries" ("orgId", "accountStatus") ');
    await queryRunner.query('CREATE INDEX "ix_entries_org_job_status" ON "entries" ("orgId", "jobStatus") ');
    await queryRunner.query('CREATE INDEX "ix_entries_org_state" ON "entries" ("orgId", "state") ');
    await queryRunner.query('CREATE INDEX "ix_entries_org_created" ON "entries" ("orgId", "createdAt", "id") ');
    await queryRunner.query('CREATE UNIQUE INDEX "uq_entries_org_vin" ON "entries" ("orgId", "vin") ');
    await queryRunner.query(
      'CREATE TABLE "duplicate_pointers" ("id" varchar(36) PRIMARY KEY NOT NULL, "orgId" varchar(36) NOT NULL, "canonicalId" varchar(36) NOT NULL, "userId" varchar(200) NOT NULL, "createdAt" bigint NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "ix_duplicate_pointers_canonical" ON "duplicate_pointers" ("canonicalId") ');
    await queryRunner.query(
      'CREATE TABLE "jobs" ("id" varchar(36) PRIMARY KEY NOT NULL, "entryId" varchar(36) NOT NULL, "orgId" varchar(36) NOT NULL, "status" varchar(16) NOT NULL, "input" text NOT NULL, "stagesDone" text NOT NULL DEFAULT (\'[]\'), "attempts" integer NOT NULL DEFAULT (0), "leaseOwner" varchar(100), "leaseExpiresAt" bigint, "runAfter" bigint NOT NULL, "lastError" text, "initialStatus" varchar(32) NOT NULL, "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "ix_jobs_entry" ON "jobs" ("entryId", "status") ');
    await queryRunner.query('CREATE INDEX "ix_jobs_claim" ON "jobs" ("status", "runAfter") ');
    await queryRunner.query(
      'CREATE TABLE "outbox" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "orgId" varchar(36) NOT NULL, "entryId" varchar(36) NOT NULL, "name" varchar(200) NOT NULL, "payload" text NOT NULL DEFAULT (\'{}\'), "createdAt" bigint NOT NULL, "dispatchedAt" bigint)',
    );
    await queryRunner.query('CREATE INDEX "ix_outbox_entry" ON "outbox" ("entryId", "id") ');
    await queryRunner.query('CREATE INDEX "ix_outbox_pending" ON "outbox" ("dispatchedAt", "id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "ix_outbox_pending"');
    await queryRunner.query('DROP INDEX "ix_outbox_entry"');
    await queryRunner.query('DROP TABLE "outbox"');
    await queryRunner.query('DROP INDEX "ix_jobs_claim"');
    await queryRunner.query('DROP INDEX "ix_jobs_entry"');
    await queryRunner.query('DROP TABLE "jobs"');
    await queryRunner.query('DROP INDEX "ix_duplicate_pointers_canonical"');
    await queryRunner.query('DROP TABLE "duplicate_pointers"');
    await queryRunner.query('DROP INDEX "uq_entries_org_vin"');
    await queryRunner.query('DROP INDEX "ix_entries_org_created"');
    await queryRunner.query('DROP INDEX "ix_entries_org_state"');
    await queryRunner.query('DROP INDEX "ix_entries_org_job_status"');
    await queryRunner.query('DROP INDEX "ix_entries_org_account_status"');
    await queryRunner.query('DROP INDEX "ix_entries_org_group"');
    await queryRunner.query('DROP TABLE "entries"');
    await queryRunner.query('DROP INDEX "ix_api_keys_org"');
    await queryRunner.query('DROP TABLE "api_keys"');
    await queryRunner.query('DROP INDEX "uq_organizations_name"');
    await queryRunner.query('DROP TABLE "organizations"');
  }
}
