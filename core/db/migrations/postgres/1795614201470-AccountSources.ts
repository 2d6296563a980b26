import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AccountSources1795614201470 implements MigrationInterface {
  name = 'AccountSources1795614201470';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "entries" ADD "sources" text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "entries" DROP COLUMN "sources"');
  }
}
