/**
 * tsyringe tokens for what is not a class. Classes (Database, EntryStore,
 * ObjectStore, ...) are injected by type: the project compiles with tsc and
 * `emitDecoratorMetadata` (docs/decisions.md), so `constructor(db: Database)`
 * in an `@injectable()` class is enough.
 */
export const TOKENS = {
  Config: Symbol.for('titled.Config'),
  Logger: Symbol.for('titled.Logger'),
  /** The engine's own dependency container (a plugin registers a collaborator service in it: COLLABORATORS). */
  Container: Symbol.for('titled.Container'),
} as const;
