import { EngineConfigError } from '../errors.js';
import { JOB_PHASE_ORDER } from '../status.js';
import { isStagePlugin, type EnginePlugin, type StageAction, type StagePlugin } from './stage.js';

/**
 * The enabled plugins, checked and sorted once at start-up, then frozen.
 * Pipeline order: the config's `stages` list, with each stage moved after the
 * plugins named in its `after` (stable topological sort); phases must not go
 * backwards.
 */
export class StageRegistry {
  private readonly all: EnginePlugin[] = [];
  private sorted: readonly StagePlugin[] = [];
  private frozen = false;

  register(plugin: EnginePlugin): void {
    if (this.frozen)
      throw new EngineConfigError(`cannot register stage '${plugin.name}': the engine has already started`);
    if (this.all.some((s) => s.name === plugin.name))
      throw new EngineConfigError(`stage '${plugin.name}' is registered twice`);
    this.all.push(plugin);
  }

  /** Sorts by `order` (the config list) and dependencies, checks them, and freezes the registry. */
  freeze(order: readonly string[]): readonly StagePlugin[] {
    if (this.frozen) return this.sorted;
    const names = new Set(this.all.map((s) => s.name));
    for (const s of this.all) {
      for (const dep of s.after ?? []) {
        if (!names.has(dep)) throw new EngineConfigError(`stage '${s.name}' needs '${dep}', which is not enabled`);
      }
    }
    const rank = new Map(order.map((n, i) => [n, i]));
    const pending = [...this.all].sort((a, b) => (rank.get(a.name) ?? 1e9) - (rank.get(b.name) ?? 1e9));
    const out: EnginePlugin[] = [];
    const placed = new Set<string>();
    while (pending.length) {
      const i = pending.findIndex((s) => (s.after ?? []).every((d) => placed.has(d)));
      if (i < 0)
        throw new EngineConfigError(
          `stages ${pending.map((s) => `'${s.name}'`).join(', ')} depend on each other in a cycle`,
        );
      const [s] = pending.splice(i, 1);
      out.push(s!);
      placed.add(s!.name);
    }
    const stages = out.filter(isStagePlugin);
    // a `pending`-phase stage never moves job_status, so it may run anywhere (vin-decode after ocr)
    const phased = stages.filter((s) => s.phase !== 'pending');
    for (let i = 1; i < phased.length; i++) {
      const prev = phased[i - 1]!;
      const cur = phased[i]!;
      if (JOB_PHASE_ORDER[cur.phase] < JOB_PHASE_ORDER[prev.phase]) {
        throw new EngineConfigError(
          `stage '${cur.name}' (phase ${cur.phase}) would run after '${prev.name}' (phase ${prev.phase}); reorder the config's stages`,
        );
      }
    }
    this.all.splice(0, this.all.length, ...out);
    this.sorted = Object.freeze(stages);
    this.frozen = true;
    return this.sorted;
  }

  get isFrozen(): boolean {
    return this.frozen;
  }

  /** The pipeline stages (sorted once frozen). */
  list(): readonly StagePlugin[] {
    return this.frozen ? this.sorted : this.all.filter(isStagePlugin);
  }

  /** Every enabled plugin, stages and background plugins. */
  plugins(): readonly EnginePlugin[] {
    return this.all;
  }

  handles(action: StageAction): boolean {
    return this.list().some((s) => s.handles?.includes(action));
  }
}
