import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The counters of the rate limiter's PostgreSQL store (core/http/rate-limit.ts; the table rate-limiter-flexible's
 * RateLimiterPostgres expects). PostgreSQL only: on SQLite the counters are in memory.
 */
export class RateLimits1795623790000 implements MigrationInterface {
  name = 'RateLimits1795623790000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "rate_limits" ' +
        '("key" varchar(255) PRIMARY KEY, "points" integer NOT NULL DEFAULT 0, "expire" bigint)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "rate_limits"');
  }
}
