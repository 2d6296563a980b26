/**
 * The plugin API: everything a plugin author needs from core, in one module.
 * Built-in plugins import core only through here, as an outside plugin does
 * (test/core/plugin-api.test.ts fails on any other import of core from
 * plugins/ or states/). Contracts carry their TSDoc where they are defined.
 */
import 'reflect-metadata';

// --- contracts: plugins, stages, routes ---------------------------------------
export type {
  ConsoleAction,
  EnginePlugin,
  EnginePluginClass,
  RouteHelpers,
  StageAction,
  StageContext,
  StagePlugin,
  StagePluginClass,
} from './pipeline/stage.js';
export { definePluginOptions, type PluginOptionsSchema } from './pipeline/options.js';
export type { PluginSchema } from './db/database.js';
/** tsyringe's decorators, so a plugin and the engine share one container implementation. */
export { inject, injectable } from 'tsyringe';
export type { PluginCatalog, PluginCatalogEntry } from './engine.js';
export type { JobInput } from './jobs/job-queue.js';

// --- the model, statuses and errors: core/plugin-api-model.ts (importable on its own: states/, the forms renderer)
export * from './plugin-api-model.js';
export type { StatusField } from './store/entry-store.js';

// --- services a plugin may inject ------------------------------------------------------
export type { TitledConfig } from './config.js';
export { TOKENS } from './tokens.js';
export type { Logger } from './logger.js';
export { Database, isUniqueViolation, type Dialect } from './db/database.js';
export { Entries, type EntryPresenter } from './service/entries.js';
/** The title API on behalf of a caller (what the /title routes call): for plugins that serve another interface onto it (legacy). */
export { TitleService, type ActionResult } from './service/title-service.js';
export { Outbox, toEvent, type OutboxEvent } from './store/outbox.js';
export { deleteInBatches, type Retention } from './store/pruner.js';
export { Organizations, type Organization } from './auth/organizations.js';
export type { Principal } from './auth/authenticator.js';
export { ObjectStore, EntryObjects, contentTypeOf } from './storage/object-store.js';
export { UrlGuard, UrlBlockedError } from './net/url-guard.js';
export {
  ref as openApiRef,
  json as openApiJson,
  op as openApiOperation,
  pathParam as openApiPathParam,
  idParam as openApiEntryIdParam,
  type OpenApiContribution,
  type PathItem,
  type Op as OpenApiOp,
} from './http/openapi.js';
export { Metrics } from './metrics.js';
export {
  COLLABORATORS,
  type TitleCollectionService,
  type TitleCollectionView,
  type SigningService,
  type SignedDocument,
  type SubmissionService,
  type DocumentExtractionService,
  type ExtractedDocument,
  type Shipper,
  type ShipperAddress,
  type ShipperLabel,
  type ShipperTrackingEvent,
  type ShipperVoid,
  type CarrierEventSink,
} from './service/collaborators.js';
