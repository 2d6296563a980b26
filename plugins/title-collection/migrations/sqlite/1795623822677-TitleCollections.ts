import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TitleCollections1795623822677 implements MigrationInterface {
  name = 'TitleCollections1795623822677';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "title_collections" ("id" varchar(36) PRIMARY KEY NOT NULL, "orgId" varchar(36) NOT NULL, "entryId" varchar(36) NOT NULL, "state" varchar(16) NOT NULL, "provider" varchar(16) NOT NULL, "mode" varchar(8) NOT NULL, "carrier" varchar(100), "service" varchar(100) NOT NULL, "shipmentId" varchar(200), "trackingNumber" varchar(100), "trackingUrl" varchar(2048), "returnAddress" text NOT NULL, "instructions" text NOT NULL, "labelName" varchar(200), "qrName" varchar(200), "qrVerified" integer NOT NULL DEFAULT (0), "carrierStatus" varchar(32), "assetsExpiresAt" bigint NOT NULL, "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL, "lastPolledAt" bigint)',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_title_collections_poll" ON "title_collections" ("state", "lastPolledAt") ',
    );
    await queryRunner.query('CREATE INDEX "ix_title_collections_tracking" ON "title_collections" ("trackingNumber") ');
    await queryRunner.query('CREATE UNIQUE INDEX "uq_title_collections_entry" ON "title_collections" ("entryId") ');
    await queryRunner.query(
      'CREATE TABLE "title_collection_events" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "collectionId" varchar(36) NOT NULL, "eventId" varchar(200) NOT NULL, "status" varchar(32) NOT NULL, "source" varchar(16) NOT NULL, "occurredAt" bigint NOT NULL, "description" text, "recordedAt" bigint NOT NULL)',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_title_collection_events" ON "title_collection_events" ("collectionId", "eventId") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "uq_title_collection_events"');
    await queryRunner.query('DROP TABLE "title_collection_events"');
    await queryRunner.query('DROP INDEX "uq_title_collections_entry"');
    await queryRunner.query('DROP INDEX "ix_title_collections_tracking"');
    await queryRunner.query('DROP INDEX "ix_title_collections_poll"');
    await queryRunner.query('DROP TABLE "title_collections"');
  }
}
