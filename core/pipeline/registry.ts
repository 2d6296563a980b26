import { EngineConfigError } from '../errors.js';
import { JOB_PHASE_ORDER } from '../status.js';
import type { StageAction, StagePlugin } from './stage.js';

/**
 * The enabled stages, sorted once at start-up and frozen. Order: the config's
 * `stages` list, with each stage moved after the stages named in its `after`
 * (stable topological sort); phases must not go backwards.
 */
export class StageRegistry {
  private readonly stages: StagePlugin[] = [];
  private frozen = false;

  register(stage: StagePlugin): void {
    if (this.frozen) throw new EngineConfigError(`cannot register stage '${stage.name}': the engine has already started`);
    if (this.stages.some((s) => s.name === stage.name)) throw new EngineConfigError(`stage '${stage.name}' is registered twice`);
    this.stages.push(stage);
  }

  /** Sorts by `order` (the config list) and dependencies, checks them, and freezes the registry. */
  freeze(order: readonly string[]): readonly StagePlugin[] {
    if (this.frozen) return this.sorted;
    const byName = new Map(this.stages.map((s) => [s.name, s]));
    for (const s of this.stages) {
      for (const dep of s.after ?? []) {
        if (!byName.has(dep)) throw new EngineConfigError(`stage '${s.name}' needs '${dep}', which is not enabled`);
      }
    }
    const rank = new Map(order.map((n, i) => [n, i]));
    const pending = [...this.stages].sort((a, b) => (rank.get(a.name) ?? 1e9) - (rank.get(b.name) ?? 1e9));
    const out: StagePlugin[] = [];
    const placed = new Set<string>();
    while (pending.length) {
      const i = pending.findIndex((s) => (s.after ?? []).every((d) => placed.has(d)));
      if (i < 0) throw new EngineConfigError(`stages ${pending.map((s) => `'${s.name}'`).join(', ')} depend on each other in a cycle`);
      const [s] = pending.splice(i, 1);
      out.push(s!);
      placed.add(s!.name);
    }
    for (let i = 1; i < out.length; i++) {
      const prev = out[i - 1]!;
      const cur = out[i]!;
      if (JOB_PHASE_ORDER[cur.phase] < JOB_PHASE_ORDER[prev.phase]) {
        throw new EngineConfigError(`stage '${cur.name}' (phase ${cur.phase}) would run after '${prev.name}' (phase ${prev.phase}); reorder the config's stages`);
      }
    }
    this.sorted = Object.freeze(out);
    this.frozen = true;
    return this.sorted;
  }

  private sorted: readonly StagePlugin[] = [];

  get isFrozen(): boolean {
    return this.frozen;
  }

  list(): readonly StagePlugin[] {
    return this.frozen ? this.sorted : this.stages;
  }

  handles(action: StageAction): boolean {
    return this.list().some((s) => s.handles?.includes(action));
  }
}
