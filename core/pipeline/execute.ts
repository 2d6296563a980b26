/**
 * Running one stage on a draft of an entry: shared by the pipeline runner
 * (`run`, inside a job) and the title service (`runNow`, a synchronous
 * action such as POST /title/{id}/forms).
 */
import { isTitledError, PermanentStageFailure } from '../errors.js';
import { changedKeys, reloaded } from '../merge.js';
import { AccountBook } from '../model/account-book.js';
import type { TitleEntry } from '../model/entry.js';
import type { EntityManager } from 'typeorm';
import { moveStatus, type StoredEntry } from '../store/entry-store.js';
import type { StageContext, StagePlugin } from './stage.js';

export interface StageEvent {
  name: string;
  payload?: Record<string, unknown>;
}

/** The parts of a StageContext the caller supplies (the draft, its account, events, status moves and progress are made here). */
type StageContextParts = Omit<StageContext, 'entry' | 'account' | 'signal' | 'emit' | 'setStatus' | 'progress'>;

/** Writes a stage's progress to the stored entry (the runner's; absent in synchronous actions). */
type ProgressWriter = (patch: Partial<TitleEntry>) => Promise<void>;

/**
 * Runs `stage[method]` on a draft of `base` (a copy of its entry as a reload
 * would show it: core/merge.ts `reloaded`), aborting its signal and rejecting
 * at `timeoutMs` or when `stopSignal` aborts. Returns the draft and the events
 * the stage emitted (status moves included); the caller writes them.
 */
async function executeStage(
  stage: StagePlugin,
  method: 'run' | 'runNow',
  base: StoredEntry,
  parts: StageContextParts,
  o: { timeoutMs: number; stopSignal?: AbortSignal; writeProgress?: ProgressWriter },
): Promise<{ draft: TitleEntry; events: StageEvent[] }> {
  const draft = reloaded(base.entry);
  const account = new AccountBook(draft);
  const accountBefore = JSON.stringify(draft.account_data);
  const events: StageEvent[] = [];
  const controller = new AbortController();
  const onStop = () => controller.abort(o.stopSignal!.reason);
  o.stopSignal?.addEventListener('abort', onStop);
  let timer: NodeJS.Timeout | undefined;
  let progressing: Promise<void> = Promise.resolve();
  try {
    await Promise.race([
      stage[method]!({
        ...parts,
        entry: draft,
        account,
        signal: controller.signal,
        emit: (name, payload) => void events.push({ name, payload }),
        setStatus: (field, to, payload) => {
          const event = moveStatus(draft, field, to, payload);
          if (event) events.push(event);
        },
        progress: (patch) => {
          const copy = JSON.parse(JSON.stringify(patch)) as Partial<TitleEntry>;
          Object.assign(draft, JSON.parse(JSON.stringify(patch)));
          if (!o.writeProgress) return Promise.resolve();
          // one write after another, in the order asked; a failed write does not stop the next
          const write = progressing
            .catch(() => undefined)
            .then(() => {
              controller.signal.throwIfAborted();
              return o.writeProgress!(copy);
            });
          progressing = write;
          return write;
        },
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const err = new Error(`timed out after ${o.timeoutMs} ms`);
          controller.abort(err);
          reject(err);
        }, o.timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    o.stopSignal?.removeEventListener('abort', onStop);
  }
  // a progress write still in flight lands before the checkpoint reads the version
  await progressing.catch(() => undefined);
  settleAccount(stage, draft, account, accountBefore);
  return { draft, events };
}

/** The checkpoint's one merge of account data, when the stage contributed or withdrew a source. */
function settleAccount(stage: StagePlugin, draft: TitleEntry, account: AccountBook, before: string): void {
  if (!account.dirty) {
    if (JSON.stringify(draft.account_data) !== before) {
      throw new PermanentStageFailure(
        `stage '${stage.name}' changed account_data directly; stages contribute through ctx.account`,
      );
    }
    return;
  }
  try {
    account.commit();
  } catch (e) {
    if (isTitledError(e)) throw new PermanentStageFailure(e.message);
    throw e;
  }
}

/**
 * The entry to save after a stage when someone else wrote it meanwhile:
 * `current` with the top-level members the stage changed (`mine`) taken from
 * `draft`; or null when the other writer changed one of those members too
 * (the caller then runs the stage again on the fresh entry).
 */
function mergeStageChanges(
  snapshot: TitleEntry,
  draft: TitleEntry,
  current: TitleEntry,
  mine: readonly string[],
  allowConflict: boolean,
): TitleEntry | null {
  if (!allowConflict && changedKeys(snapshot, current).some((k) => mine.includes(k))) return null;
  for (const k of mine) {
    if (k in draft) current[k] = draft[k];
    else delete current[k];
  }
  return current;
}

/** How a caller reads and writes the entry around a stage's checkpoint (the runner's job, or a synchronous action). */
export interface CheckpointIO<R> {
  /** The entry to run the stage on (as last held, or read now). */
  read(): Promise<StoredEntry>;
  /** Runs `fn` in one transaction. */
  tx<T>(fn: (m: EntityManager) => Promise<T>): Promise<T>;
  /** In the transaction: the stored version of the entry now (null: it is gone). */
  versionOf(m: EntityManager): Promise<number | null>;
  /** In the transaction: the entry as stored now (null: it is gone). */
  load(m: EntityManager): Promise<StoredEntry | null>;
  /** The entry is gone (deleted meanwhile): throws the caller's error. */
  gone(): never;
  /** In the transaction: writes `entry` (the stage's draft, merged with others' changes) and the stage's events. */
  commit(m: EntityManager, entry: TitleEntry, events: StageEvent[], changed: readonly string[]): Promise<R>;
}

/**
 * The one stage executor: runs `stage[method]` on the entry and writes its
 * checkpoint once. If someone else wrote the entry while the stage ran, the
 * top-level members the stage changed are laid over the fresh entry; if the
 * other writer changed one of them too, the stage runs again on the fresh
 * entry (after `maxReplays` replays, the stage's changes win). Used by the
 * pipeline runner and by synchronous actions (POST /title/{id}/forms).
 */
export async function runToCheckpoint<R>(
  stage: StagePlugin,
  method: 'run' | 'runNow',
  io: CheckpointIO<R>,
  o: {
    parts(snapshot: TitleEntry): StageContextParts;
    timeoutMs: number;
    stopSignal?: AbortSignal;
    maxReplays: number;
    /** Writes a stage's progress; gets the version it read, returns the version it wrote when nobody else wrote between. */
    progress?: (patch: Partial<TitleEntry>, version: number) => Promise<number>;
    /** Wraps what the stage threw (the runner names the stage and entry). */
    failed?: (e: unknown) => unknown;
    /** Told when the stage runs again on the fresh entry. */
    onReplay?: () => void;
  },
): Promise<{ result: R; changed: string[] }> {
  for (let replay = 0; ; replay++) {
    const base = await io.read();
    const snapshot = base.entry;
    let version = base.version;
    const writeProgress: ProgressWriter | undefined =
      o.progress &&
      (async (patch) => {
        version = await o.progress!(patch, version);
        Object.assign(snapshot, JSON.parse(JSON.stringify(patch)));
      });
    let draft: TitleEntry;
    let events: StageEvent[];
    try {
      ({ draft, events } = await executeStage(stage, method, base, o.parts(snapshot), {
        timeoutMs: o.timeoutMs,
        stopSignal: o.stopSignal,
        writeProgress,
      }));
    } catch (e) {
      throw o.failed ? o.failed(e) : e;
    }
    const changed = changedKeys(snapshot, draft);
    const saved = await io.tx(async (m): Promise<{ result: R } | null> => {
      // the document is read again only when someone else wrote the entry since the stage's snapshot
      const stored = await io.versionOf(m);
      if (stored === null) io.gone();
      let target = draft;
      if (stored !== version) {
        const current = await io.load(m);
        if (!current) io.gone();
        const merged = mergeStageChanges(snapshot, draft, current.entry, changed, replay >= o.maxReplays);
        if (!merged) return null;
        target = merged;
      }
      return { result: await io.commit(m, target, events, changed) };
    });
    if (saved) return { result: saved.result, changed };
    o.onReplay?.();
  }
}
