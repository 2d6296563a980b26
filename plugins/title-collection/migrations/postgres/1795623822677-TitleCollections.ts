import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TitleCollections1795623822677 implements MigrationInterface {
  name = 'TitleCollections1795623822677';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "title_collections" ("id" character varying(36) NOT NULL, "orgId" character varying(36) NOT NULL, "entryId" character varying(36) NOT NULL, "state" character varying(16) NOT NULL, "provider" character varying(16) NOT NULL, "mode" character varying(8) NOT NULL, "carrier" character varying(100), "service" character varying(100) NOT NULL, "shipmentId" character varying(200), "trackingNumber" character varying(100), "trackingUrl" character varying(2048), "returnAddress" text NOT NULL, "instructions" text NOT NULL, "labelName" character varying(200), "qrName" character varying(200), "qrVerified" integer NOT NULL DEFAULT \'0\', "carrierStatus" character varying(32), "assetsExpiresAt" bigint NOT NULL, "createdAt" bigint NOT NULL, "updatedAt" bigint NOT NULL, "lastPolledAt" bigint, CONSTRAINT "PK_f1802180dab47a0ee864c2c932c" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_title_collections_poll" ON "title_collections"  ("state", "lastPolledAt") ',
    );
    await queryRunner.query('CREATE INDEX "ix_title_collections_tracking" ON "title_collections"  ("trackingNumber") ');
    await queryRunner.query('CREATE UNIQUE INDEX "uq_title_collections_entry" ON "title_collections"  ("entryId") ');
    await queryRunner.query(
      'CREATE TABLE "title_collection_events" ("id" SERIAL NOT NULL, "collectionId" character varying(36) NOT NULL, "eventId" character varying(200) NOT NULL, "status" character varying(32) NOT NULL, "source" character varying(16) NOT NULL, "occurredAt" bigint NOT NULL, "description" text, "recordedAt" bigint NOT NULL, CONSTRAINT "PK_c8614ca11ce9aa69a5090c54efd" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_title_collection_events" ON "title_collection_events"  ("collectionId", "eventId") ',
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
