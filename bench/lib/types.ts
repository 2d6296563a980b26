/**
 * The bench's vocabulary: a suite measures metrics; a metric may carry a
 * baseline measured in the same run (then its target applies to the ratio
 * value / baseline, never to wall-clock time) or an absolute target for
 * resource figures such as memory.
 */

/** A bound a metric must meet: `>= value` or `<= value`, on the metric's value or on its ratio to the baseline. */
export interface Target {
  op: '>=' | '<=';
  value: number;
  /** What the bound applies to: `ratio` (value / baseline) or `value` (the metric itself, for resource figures). */
  on: 'ratio' | 'value';
}

export interface Metric {
  /** Stable machine name, e.g. `get_title_rps`. */
  name: string;
  /** One line for the table. */
  label: string;
  value: number | null;
  unit: string;
  /** The same measurement on a reference implementation in this run, when there is one. */
  baseline?: { label: string; value: number | null };
  /** value / baseline.value (computed by the runner when there is a baseline). */
  ratio?: number | null;
  target?: Target;
  /** Computed by the runner from the target; null when the metric has no target or no value. */
  pass?: boolean | null;
  /** Extra figures worth keeping (latencies, counts, errors). */
  detail?: Record<string, unknown>;
}

export interface SuiteContext {
  /** Folder of the compiled bench (dist/bench or dist-bench/bench): children are spawned from here. */
  benchDir: string;
  /** The package root (config/default.json, bench/results.json). */
  root: string;
  /** Scales durations (env BENCH_SCALE or --scale; 1 = the documented durations). */
  scale: number;
  /** Node flags for the servers under test (`--profile <dir>` adds `--cpu-prof --cpu-prof-dir=<dir>`). */
  execArgv: string[];
  /** Progress line on stderr. */
  log(msg: string): void;
  /** A fresh temp folder, removed when the run ends (unless --keep). */
  tmpDir(prefix: string): string;
}

export interface Suite {
  /** Short name (`foundation`, `ocr`, ...), used by `--only`. */
  name: string;
  description: string;
  run(ctx: SuiteContext): Promise<Metric[]>;
}
