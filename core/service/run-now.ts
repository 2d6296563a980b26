/**
 * Synchronous actions: a POST /title/{id}/<action> served at once through the
 * `runNow` hook of the stage that handles it, instead of a queued job.
 */
import { randomUUID } from 'node:crypto';
import type { DependencyContainer } from 'tsyringe';
import type { Principal } from '../auth/authenticator.js';
import type { TitledConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { TitledError } from '../errors.js';
import type { Logger } from '../logger.js';
import { runToCheckpoint, type CheckpointIO } from '../pipeline/execute.js';
import type { StageRegistry } from '../pipeline/registry.js';
import type { StageAction } from '../pipeline/stage.js';
import type { EntryStore, StoredEntry } from '../store/entry-store.js';
import type { Outbox } from '../store/outbox.js';
import { EntryObjects, type ObjectStore } from '../storage/object-store.js';

/** What a stage's `runNow` needs beyond the service's own parts (synchronous actions). */
export interface SyncParts {
  log?: Logger;
  outbox?: Outbox;
  container?: DependencyContainer;
}

/** The title service's parts a synchronous action uses. */
export interface RunNowParts {
  db: Database;
  store: EntryStore;
  stages: StageRegistry;
  objects: ObjectStore;
  config: Readonly<TitledConfig>;
  sync: SyncParts;
  /** Loads the canonical entry for the id as the principal may see it, or throws ENTRY_NOT_FOUND. */
  mustLoad: () => Promise<StoredEntry>;
}

/**
 * Serves an action synchronously through the `runNow` of the stage that
 * handles it: the stage gets the context a pipeline run gets, and its draft
 * is saved the way the runner checkpoints a stage (members someone else
 * changed meanwhile are kept; if they changed the same members, the stage
 * runs again on the fresh entry, up to 3 times). job_status is not changed.
 * The caller has checked that the entry is there and the action's stage enabled.
 */
export async function runActionNow(
  s: RunNowParts,
  p: Principal,
  id: string,
  action: StageAction,
): Promise<{ entryId: string }> {
  const stage = s.stages.list().find((st) => st.handles?.includes(action) && typeof st.runNow === 'function');
  const { log, outbox, container } = s.sync;
  if (!stage || !log || !outbox || !container)
    throw new TitledError('NOT_IMPLEMENTED', `POST /title/{id}/${action} cannot run synchronously in this engine`);
  const gone: () => never = () => {
    throw new TitledError('ENTRY_NOT_FOUND', `entry ${id} not found`);
  };
  let entryId = id;
  const io: CheckpointIO<void> = {
    read: async () => {
      const found = await s.mustLoad();
      entryId = found.entry.entryId;
      return found;
    },
    tx: (fn) => s.db.tx(fn),
    versionOf: async (m) => (await s.store.load(p.org.id, id, m))?.version ?? null,
    load: (m) => s.store.load(p.org.id, id, m),
    gone,
    commit: async (m, target, events) => {
      await s.store.save(m, p.org.id, target);
      for (const ev of events) {
        await outbox.append(m, {
          orgId: p.org.id,
          entryId: target.entryId,
          name: ev.name,
          payload: { stage: stage.name, action, ...ev.payload },
        });
      }
    },
  };
  await runToCheckpoint(stage, 'runNow', io, {
    parts: (snapshot) => ({
      job: { reasons: [action] },
      jobId: `now-${randomUUID()}`,
      attempt: 1,
      org: p.org,
      config: s.config,
      options: s.config.plugins[stage.name],
      log: log.child({ entryId: snapshot.entryId, stage: stage.name, action }),
      objects: new EntryObjects(s.objects, snapshot.storeIndex),
      container,
    }),
    timeoutMs: stage.timeoutMs ?? s.config.stageTimeoutMs,
    maxReplays: 3,
    failed: (e) => {
      if (e instanceof TitledError) return e;
      log.error(
        { err: e, code: 'STAGE_FAILED', stage: stage.name, hook: 'runNow', entryId, action },
        'synchronous action failed',
      );
      return new TitledError('INTERNAL', `stage '${stage.name}' failed`, { cause: e });
    },
  });
  return { entryId };
}
