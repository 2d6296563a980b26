import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Shipments1795655216615 implements MigrationInterface {
  name = 'Shipments1795655216615';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "submission_shipments" ("submissionId" character varying(36) NOT NULL, "orgId" character varying(36) NOT NULL, "entryId" character varying(36) NOT NULL, "state" character varying(16) NOT NULL, "provider" character varying(16) NOT NULL, "mode" character varying(8) NOT NULL, "carrier" character varying(100) NOT NULL, "service" character varying(100) NOT NULL, "shipmentId" character varying(200) NOT NULL, "trackingNumber" character varying(100) NOT NULL, "trackingUrl" character varying(2048), "labelKey" character varying(512) NOT NULL, "toAddress" text NOT NULL, "status" character varying(32) NOT NULL, "nextPollAt" bigint NOT NULL, "leaseOwner" character varying(100), "leaseExpiresAt" bigint, "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL, CONSTRAINT "PK_df751e77890bf333749c93c0c11" PRIMARY KEY ("submissionId"))',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_submission_shipments_poll" ON "submission_shipments"  ("state", "nextPollAt") ',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_submission_shipments_tracking" ON "submission_shipments"  ("trackingNumber") ',
    );
    await queryRunner.query(
      'CREATE TABLE "submission_shipment_events" ("id" SERIAL NOT NULL, "submissionId" character varying(36) NOT NULL, "eventId" character varying(200) NOT NULL, "status" character varying(32) NOT NULL, "source" character varying(16) NOT NULL, "occurredAt" bigint NOT NULL, "description" text, "location" character varying(200), "recordedAt" bigint NOT NULL, CONSTRAINT "PK_a6ceca0cb68bc78cf253aa70dda" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_submission_shipment_events" ON "submission_shipment_events"  ("submissionId", "eventId") ',
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
