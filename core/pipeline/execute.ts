/**
 * Running one stage on a draft of an entry: shared by the pipeline runner
 * (`run`, inside a job) and the title service (`runNow`, a synchronous
 * action such as POST /title/{id}/forms).
 */
import { isTitledError } from '../errors.js';
import { PermanentStageFailure } from '../errors.js';
import { changedKeys } from '../merge.js';
import { AccountBook } from '../model/account-book.js';
import type { TitleEntry } from '../model/entry.js';
import { moveStatus } from '../store/entry-store.js';
import type { StageContext, StagePlugin } from './stage.js';

export interface StageEvent { name: string; payload?: Record<string, unknown> }

/** The parts of a StageContext the caller supplies (the draft, its account, events, status moves and progress are made here). */
export type StageContextParts = Omit<StageContext, 'entry' | 'account' | 'signal' | 'emit' | 'setStatus' | 'progress'>;

/** Writes a stage's progress to the stored entry (the runner's; absent in synchronous actions). */
export type ProgressWriter = (patch: Partial<TitleEntry>) => Promise<void>;

/**
 * Runs `stage[method]` on a draft parsed from `doc`, aborting its signal and
 * rejecting at `timeoutMs` or when `stopSignal` aborts. Returns the draft and
 * the events the stage emitted (status moves included); the caller writes them.
 */
export async function executeStage(
  stage: StagePlugin, method: 'run' | 'runNow', doc: string, parts: StageContextParts, o: { timeoutMs: number; stopSignal?: AbortSignal; writeProgress?: ProgressWriter },
): Promise<{ draft: TitleEntry; events: StageEvent[] }> {
  const draft = JSON.parse(doc) as TitleEntry;
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
        ...parts, entry: draft, account, signal: controller.signal,
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
          const write = progressing.catch(() => undefined).then(() => {
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
      throw new PermanentStageFailure(`stage '${stage.name}' changed account_data directly; stages contribute through ctx.account`);
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
export function mergeStageChanges(snapshot: TitleEntry, draft: TitleEntry, current: TitleEntry, mine: readonly string[], allowConflict: boolean): TitleEntry | null {
  if (!allowConflict && changedKeys(snapshot, current).some((k) => mine.includes(k))) return null;
  for (const k of mine) {
    if (k in draft) current[k] = draft[k];
    else delete current[k];
  }
  return current;
}
