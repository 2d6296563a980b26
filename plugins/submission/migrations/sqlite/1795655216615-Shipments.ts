import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Shipments1795655216615 implements MigrationInterface {
  name = 'Shipments1795655216615';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "submission_shipments" ("submissionId" varchar(36) PRIMARY KEY NOT NULL, "orgId" varchar(36) NOT NULL, "entryId" varchar(36) NOT NULL, "state" varchar(16) NOT NULL, "provider" varchar(16) NOT NULL, "mode" varchar(8) NOT NULL, "carrier" varchar(100) NOT NULL, "service" varchar(100) NOT NULL, "shipmentId" varchar(200) NOT NULL, "trackingNumber" varchar(100) NOT NULL, "trackingUrl" varchar(2048), "labelKey" varchar(512) NOT NULL, "toAddress" text NOT NULL, "status" varchar(32) NOT NULL, "nextPollAt" bigint NOT NULL, "leaseOwner" varchar(100), "leaseExpiresAt" bigint, "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL)',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_submission_shipments_poll" ON "submission_shipments" ("state", "nextPollAt") ',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_submission_shipments_tracking" ON "submission_shipments" ("trackingNumber") ',
    );
    await queryRunner.query(
      'CREATE TABLE "submission_shipment_events" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "submissionId" varchar(36) NOT NULL, "eventId" varchar(200) NOT NULL, "status" varchar(32) NOT NULL, "source" varchar(16) NOT NULL, "occurredAt" bigint NOT NULL, "description" text, "location" varchar(200), "recordedAt" bigint NOT NULL)',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_submission_shipment_events" ON "submission_shipment_events" ("submissionId", "eventId") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "uq_submission_shipment_events"');
    await queryRunner.query('DROP TABLE "submission_shipment_events"');
    await queryRunner.query('DROP INDEX "ix_submission_shipments_tracking"');
    await queryRunner.query('DROP INDEX "ix_submission_shipments_poll"');
    await queryRunner.query('DROP TABLE "submission_shipments"');
  }
}
