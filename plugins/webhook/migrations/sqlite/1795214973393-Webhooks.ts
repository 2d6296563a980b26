import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1795214973393 implements MigrationInterface {
  name = 'Webhooks1795214973393';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "webhook_profiles" ("id" varchar(36) PRIMARY KEY NOT NULL, "orgId" varchar(36) NOT NULL, "url" varchar(2048) NOT NULL, "events" text NOT NULL, "authScheme" varchar(16) NOT NULL, "authSecrets" text NOT NULL DEFAULT (\'{}\'), "signingSecret" varchar(100) NOT NULL, "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL)',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_webhook_profiles_org_url" ON "webhook_profiles" ("orgId", "url") ',
    );
    await queryRunner.query(
      'CREATE TABLE "webhook_deliveries" ("id" varchar(36) PRIMARY KEY NOT NULL, "profileId" varchar(36) NOT NULL, "orgId" varchar(36) NOT NULL, "entryId" varchar(36) NOT NULL, "events" text NOT NULL, "outboxIds" text NOT NULL, "seq" integer NOT NULL, "status" varchar(16) NOT NULL, "attempts" integer NOT NULL DEFAULT (0), "nextAttemptAt" bigint NOT NULL, "leaseOwner" varchar(100), "leaseExpiresAt" bigint, "lastStatusCode" integer, "lastError" text, "replayOf" varchar(36), "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL, "deliveredAt" bigint)',
    );
    await queryRunner.query('CREATE INDEX "ix_webhook_deliveries_org" ON "webhook_deliveries" ("orgId", "createdAt") ');
    await queryRunner.query(
      'CREATE INDEX "ix_webhook_deliveries_order" ON "webhook_deliveries" ("profileId", "entryId", "seq") ',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_webhook_deliveries_claim" ON "webhook_deliveries" ("status", "nextAttemptAt") ',
    );
    await queryRunner.query(
      'CREATE TABLE "webhook_attempts" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "deliveryId" varchar(36) NOT NULL, "attempt" integer NOT NULL, "startedAt" bigint NOT NULL, "statusCode" integer, "latencyMs" integer NOT NULL, "error" text, "outcome" varchar(16) NOT NULL, "nextAttemptAt" bigint, "worker" varchar(100))',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_webhook_attempts_delivery" ON "webhook_attempts" ("deliveryId", "attempt") ',
    );
    await queryRunner.query(
      'CREATE TABLE "webhook_dispatcher" ("name" varchar(32) PRIMARY KEY NOT NULL, "owner" varchar(100), "lastOutboxId" integer NOT NULL DEFAULT (0), "updatedAt" bigint NOT NULL)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "webhook_dispatcher"');
    await queryRunner.query('DROP INDEX "ix_webhook_attempts_delivery"');
    await queryRunner.query('DROP TABLE "webhook_attempts"');
    await queryRunner.query('DROP INDEX "ix_webhook_deliveries_claim"');
    await queryRunner.query('DROP INDEX "ix_webhook_deliveries_order"');
    await queryRunner.query('DROP INDEX "ix_webhook_deliveries_org"');
    await queryRunner.query('DROP TABLE "webhook_deliveries"');
    await queryRunner.query('DROP INDEX "uq_webhook_profiles_org_url"');
    await queryRunner.query('DROP TABLE "webhook_profiles"');
  }
}
