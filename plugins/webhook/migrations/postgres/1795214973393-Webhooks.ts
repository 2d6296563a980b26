import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1795214973393 implements MigrationInterface {
  name = 'Webhooks1795214973393';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "webhook_profiles" ("id" character varying(36) NOT NULL, "orgId" character varying(36) NOT NULL, "url" character varying(2048) NOT NULL, "events" text NOT NULL, "authScheme" character varying(16) NOT NULL, "authSecrets" text NOT NULL DEFAULT \'{}\', "signingSecret" character varying(100) NOT NULL, "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL, CONSTRAINT "PK_0d61ce33f7355ae329b64ad2df2" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_webhook_profiles_org_url" ON "webhook_profiles"  ("orgId", "url") ',
    );
    await queryRunner.query(
      'CREATE TABLE "webhook_deliveries" ("id" character varying(36) NOT NULL, "profileId" character varying(36) NOT NULL, "orgId" character varying(36) NOT NULL, "entryId" character varying(36) NOT NULL, "events" text NOT NULL, "outboxIds" text NOT NULL, "seq" integer NOT NULL, "status" character varying(16) NOT NULL, "attempts" integer NOT NULL DEFAULT \'0\', "nextAttemptAt" bigint NOT NULL, "leaseOwner" character varying(100), "leaseExpiresAt" bigint, "lastStatusCode" integer, "lastError" text, "replayOf" character varying(36), "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL, "deliveredAt" bigint, CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_webhook_deliveries_org" ON "webhook_deliveries"  ("orgId", "createdAt") ',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_webhook_deliveries_order" ON "webhook_deliveries"  ("profileId", "entryId", "seq") ',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_webhook_deliveries_claim" ON "webhook_deliveries"  ("status", "nextAttemptAt") ',
    );
    await queryRunner.query(
      'CREATE TABLE "webhook_attempts" ("id" SERIAL NOT NULL, "deliveryId" character varying(36) NOT NULL, "attempt" integer NOT NULL, "startedAt" bigint NOT NULL, "statusCode" integer, "latencyMs" integer NOT NULL, "error" text, "outcome" character varying(16) NOT NULL, "nextAttemptAt" bigint, "worker" character varying(100), CONSTRAINT "PK_2de7e7887ad97de459adab62638" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_webhook_attempts_delivery" ON "webhook_attempts"  ("deliveryId", "attempt") ',
    );
    await queryRunner.query(
      'CREATE TABLE "webhook_dispatcher" ("name" character varying(32) NOT NULL, "owner" character varying(100), "lastOutboxId" integer NOT NULL DEFAULT \'0\', "updatedAt" bigint NOT NULL, CONSTRAINT "PK_acba046cba835a009b620e77207" PRIMARY KEY ("name"))',
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
