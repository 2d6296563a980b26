import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795214126610 implements MigrationInterface {
  name = 'Init1795214126610';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "organizations" ("id" character varying(36) NOT NULL, "name" character varying(200) NOT NULL, "settings" text NOT NULL DEFAULT \'{}\', "createdAt" bigint NOT NULL, CONSTRAINT "PK_6b031fcd0863e3f6b44230163f9" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_organizations_name" ON "organizations"  ("name") ');
    await queryRunner.query(
      'CREATE TABLE "api_keys" ("id" character varying(40) NOT NULL, "orgId" character varying(36) NOT NULL, "secretHash" character varying(64) NOT NULL, "groups" text, "label" character varying(200), "createdAt" bigint NOT NULL, "revokedAt" bigint, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "ix_api_keys_org" ON "api_keys"  ("orgId") ');
    await queryRunner.query(
      'CREATE TABLE "entries" ("id" character varying(36) NOT NULL, "orgId" character varying(36) NOT NULL, "vin" character varying(17), "state" character varying(8) NOT NULL DEFAULT \'\', "groupId" character varying(200), "jobStatus" character varying(32) NOT NULL, "accountStatus" character varying(32) NOT NULL, "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL, "version" integer NOT NULL DEFAULT \'1\', "doc" text NOT NULL, CONSTRAINT "PK_23d4e7e9b58d9939f113832915b" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "ix_entries_org_group" ON "entries"  ("orgId", "groupId") ');
    await queryRunner.query('CREATE INDEX "ix_entries_org_account_status" ON "entries"  ("orgId", "accountStatus") ');
    await queryRunner.query('CREATE INDEX "ix_entries_org_job_status" ON "entries"  ("orgId", "jobStatus") ');
    await queryRunner.query('CREATE INDEX "ix_entries_org_state" ON "entries"  ("orgId", "state") ');
    await queryRunner.query('CREATE INDEX "ix_entries_org_created" ON "entries"  ("orgId", "createdAt", "id") ');
    await queryRunner.query('CREATE UNIQUE INDEX "uq_entries_org_vin" ON "entries"  ("orgId", "vin") ');
    await queryRunner.query(
      'CREATE TABLE "duplicate_pointers" ("id" character varying(36) NOT NULL, "orgId" character varying(36) NOT NULL, "canonicalId" character varying(36) NOT NULL, "userId" character varying(200) NOT NULL, "createdAt" bigint NOT NULL, CONSTRAINT "PK_0194174af3a30cabae1c6a50fd8" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "ix_duplicate_pointers_canonical" ON "duplicate_pointers"  ("canonicalId") ');
    await queryRunner.query(
      'CREATE TABLE "jobs" ("id" character varying(36) NOT NULL, "entryId" character varying(36) NOT NULL, "orgId" character varying(36) NOT NULL, "status" character varying(16) NOT NULL, "input" text NOT NULL, "stagesDone" text NOT NULL DEFAULT \'[]\', "attempts" integer NOT NULL DEFAULT \'0\', "leaseOwner" character varying(100), "leaseExpiresAt" bigint, "runAfter" bigint NOT NULL, "lastError" text, "initialStatus" character varying(32) NOT NULL, "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL, CONSTRAINT "PK_cf0a6c42b72fcc7f7c237def345" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "ix_jobs_entry" ON "jobs"  ("entryId", "status") ');
    await queryRunner.query('CREATE INDEX "ix_jobs_claim" ON "jobs"  ("status", "runAfter") ');
    await queryRunner.query(
      'CREATE TABLE "outbox" ("id" SERIAL NOT NULL, "orgId" character varying(36) NOT NULL, "entryId" character varying(36) NOT NULL, "name" character varying(200) NOT NULL, "payload" text NOT NULL DEFAULT \'{}\', "createdAt" bigint NOT NULL, "dispatchedAt" bigint, CONSTRAINT "PK_340ab539f309f03bdaa14aa7649" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "ix_outbox_entry" ON "outbox"  ("entryId", "id") ');
    await queryRunner.query('CREATE INDEX "ix_outbox_pending" ON "outbox"  ("dispatchedAt", "id") ');
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
