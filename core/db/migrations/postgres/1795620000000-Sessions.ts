import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Sessions1795620000000 implements MigrationInterface {
  name = 'Sessions1795620000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "sessions" ("id" character varying(36) NOT NULL, "orgId" character varying(36) NOT NULL, "keyId" character varying(40), "expiresAt" bigint NOT NULL, "revokedAt" bigint, "createdAt" bigint NOT NULL, CONSTRAINT "PK_3238ef96f18b355b671619111bc" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "ix_sessions_expires" ON "sessions"  ("expiresAt") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "ix_sessions_expires"');
    await queryRunner.query('DROP TABLE "sessions"');
  }
}
