import type { MigrationInterface, QueryRunner } from 'typeorm';

/** API key roles (docs/console.md): operator (default), viewer (read-only), host (operator of every organization). */
export class KeyRoles1795700000000 implements MigrationInterface {
  name = 'KeyRoles1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "api_keys" ADD COLUMN "role" varchar(20)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "api_keys" DROP COLUMN "role"');
  }
}
