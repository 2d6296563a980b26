import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PiiKeysIdempotency1795623780483 implements MigrationInterface {
  name = 'PiiKeysIdempotency1795623780483';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "data_keys" ("orgId" character varying(36) NOT NULL, "version" integer NOT NULL, "wrapped" text NOT NULL, "masterKeyId" character varying(200) NOT NULL, "state" character varying(16) NOT NULL, "createdAt" bigint NOT NULL, CONSTRAINT "PK_b5f9d29c86fffd507faebc48152" PRIMARY KEY ("orgId", "version"))',
    );
    await queryRunner.query(
      'CREATE TABLE "idempotency_keys" ("orgId" character varying(36) NOT NULL, "key" character varying(300) NOT NULL, "fingerprint" character varying(64) NOT NULL, "state" character varying(16) NOT NULL, "status" integer, "headers" text, "body" text, "createdAt" bigint NOT NULL, "expiresAt" bigint NOT NULL, CONSTRAINT "PK_07e7f40b4fcfa99e499fb02e166" PRIMARY KEY ("orgId", "key"))',
    );
    await queryRunner.query('CREATE INDEX "ix_idempotency_expires" ON "idempotency_keys"  ("expiresAt") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "ix_idempotency_expires"');
    await queryRunner.query('DROP TABLE "idempotency_keys"');
    await queryRunner.query('DROP TABLE "data_keys"');
  }
}
