/**
 * The TypeORM values core uses, each from its own file of the package (its `exports` map publishes every `./*.js`).
 * `import ... from 'typeorm'` would make node read and scan the package's index and the ~300 files it re-exports
 * for their export names (cjs-module-lexer: some 7 MB of allocations at start-up), and the index loads 61 modules
 * (relation, tree and listener decorators, find operators, EntitySchema, ...) core never uses (docs/operations.md,
 * "Memory"). Plugins that import `typeorm` get the same classes: a file is loaded once.
 */
import { createRequire } from 'node:module';
import type * as TypeOrm from 'typeorm';

const require = createRequire(import.meta.url);
const typeorm = <T>(file: string) => require(`typeorm/${file}.js`) as T;

export const { DataSource } = typeorm<Pick<typeof TypeOrm, 'DataSource'>>('data-source/DataSource');
export const { QueryFailedError } = typeorm<Pick<typeof TypeOrm, 'QueryFailedError'>>('error/QueryFailedError');
export const { Column } = typeorm<Pick<typeof TypeOrm, 'Column'>>('decorator/columns/Column');
export const { Entity } = typeorm<Pick<typeof TypeOrm, 'Entity'>>('decorator/entity/Entity');
export const { Index } = typeorm<Pick<typeof TypeOrm, 'Index'>>('decorator/Index');
export const { PrimaryColumn } = typeorm<Pick<typeof TypeOrm, 'PrimaryColumn'>>('decorator/columns/PrimaryColumn');
export const { PrimaryGeneratedColumn } = typeorm<Pick<typeof TypeOrm, 'PrimaryGeneratedColumn'>>(
  'decorator/columns/PrimaryGeneratedColumn',
);
export type DataSource = TypeOrm.DataSource;
export type QueryFailedError = TypeOrm.QueryFailedError;
