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

/**
 * TypeORM's DataSource, loaded when a database is first opened: its file brings most of the package (drivers, query
 * builders, about 10 MB), which a process that imports core without opening a database (the plugin API in a forms
 * render or `titled extract`) does not need.
 */
export const dataSourceClass = () => typeorm<Pick<typeof TypeOrm, 'DataSource'>>('data-source/DataSource').DataSource;
export const { QueryFailedError } = typeorm<Pick<typeof TypeOrm, 'QueryFailedError'>>('error/QueryFailedError');
/**
 * A decorator of TypeORM's, loaded from its file when first applied: the entities are defined with the first
 * database opened, so importing core (the plugin API) loads none of them.
 */
const decorator =
  <K extends 'Column' | 'Entity' | 'Index' | 'PrimaryColumn' | 'PrimaryGeneratedColumn'>(file: string, name: K) =>
  (...args: unknown[]) =>
    (typeorm<Record<K, (...a: unknown[]) => unknown>>(file)[name] as (...a: unknown[]) => unknown)(...args);
export const Column = decorator('decorator/columns/Column', 'Column') as typeof TypeOrm.Column;
export const Entity = decorator('decorator/entity/Entity', 'Entity') as typeof TypeOrm.Entity;
export const Index = decorator('decorator/Index', 'Index') as typeof TypeOrm.Index;
export const PrimaryColumn = decorator(
  'decorator/columns/PrimaryColumn',
  'PrimaryColumn',
) as typeof TypeOrm.PrimaryColumn;
export const PrimaryGeneratedColumn = decorator(
  'decorator/columns/PrimaryGeneratedColumn',
  'PrimaryGeneratedColumn',
) as typeof TypeOrm.PrimaryGeneratedColumn;
export type DataSource = TypeOrm.DataSource;
export type QueryFailedError = TypeOrm.QueryFailedError;
