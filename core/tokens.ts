/**
 * tsyringe tokens for what is not a class. Classes (Database, EntryStore,
 * ObjectStore, ...) are injected by type: the project compiles with tsc and
 * `emitDecoratorMetadata` (docs/decisions.md), so `constructor(db: Database)`
 * in an `@injectable()` class is enough.
 */
export const TOKENS = {
  Config: Symbol.for('titled.Config'),
  Logger: Symbol.for('titled.Logger'),
  /** The engine's dependency container itself (a plugin that registers a collaborator service, e.g. COLLABORATORS.signing). */
  Container: Symbol.for('titled.Container'),
} as const;
