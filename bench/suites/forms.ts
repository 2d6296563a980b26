import { fork } from 'node:child_process';
import { join } from 'node:path';
import { parseFormsOptions } from '../../plugins/forms/options.js';
import { TemplateStore } from '../../plugins/forms/pdf/template.js';
import { renderPlan } from '../../plugins/forms/render.js';
import { planForms } from '../../plugins/forms/select.js';
import type { TitleEntry } from '../../core/model/entry.js';
import { loadStatePlugins } from '../../states/registry.js';
import type { StatePlugin } from '../../states/types.js';
import { packetForms, renderWithPdfLib, workload } from '../lib/forms-workload.js';
import type { Metric, Suite, SuiteContext } from '../lib/types.js';

const ROUNDS = 3;
const TARGET_DRAWN_PER_S = 50;
const RSS_PACKETS = 1000;
const TARGET_RSS_MB = 256;
const MB = 1024;

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
/** How many entries have each number of forms. */
const spread = (forms: number[]) =>
  Object.fromEntries([...new Set(forms)].sort((a, b) => a - b).map((n) => [n, forms.filter((x) => x === n).length]));

/** Packets per second over `entries`, in whole passes, for about `seconds`; `perCpuS` counts this process's CPU time instead of the wall clock. */
async function measure(
  entries: readonly TitleEntry[],
  seconds: number,
  one: (e: TitleEntry) => Promise<unknown>,
): Promise<{ perS: number; perCpuS: number; n: number }> {
  let n = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  do {
    for (const e of entries) {
      await one(e);
      n++;
      if (performance.now() > until && n >= 3) break;
    }
  } while (performance.now() < until);
  const cpu = process.cpuUsage(cpu0);
  return { perS: n / ((performance.now() - t0) / 1000), perCpuS: n / ((cpu.user + cpu.system) / 1e6), n };
}

function peakRss(ctx: SuiteContext): Promise<{
  packets: number;
  seconds: number;
  bytes: number;
  startRssKb: number;
  maxRssKb: number;
  heapUsedMb: number;
}> {
  return new Promise((res, rej) => {
    const child = fork(join(ctx.benchDir, 'forms-rss.js'), [], {
      env: { ...process.env, BENCH_PACKETS: String(RSS_PACKETS) },
      execArgv: ctx.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let done = false;
    child.on('message', (m: { type?: string }) => {
      if (m?.type === 'done') {
        done = true;
        res(m as never);
      }
    });
    child.on('exit', (code) => {
      if (!done) rej(new Error(`forms-rss exited with ${code} before reporting`));
    });
  });
}

const TARGET_OFFICIAL_PER_S = 25;

/** The official templates a state fills (attached forms included) that the template folders hold. */
function presentTemplates(state: StatePlugin, templates: TemplateStore): string[] {
  return Object.values(state.templates)
    .flatMap((t) => [t!, ...(t!.attach ?? [])])
    .map((t) => t.file)
    .filter((f) => templates.locate(f));
}

/**
 * Official-template packets per second, per template state (its 20 entries,
 * about a second each), and over all of them: the rate of making one packet of
 * every state in turn (the harmonic mean of the states' rates, so each state
 * counts alike whatever its speed), with the drawn packets of the same run as
 * the baseline. Every template is parsed in a warm-up pass first: the figures
 * are the steady state with each parsed template cached in the process.
 */
async function officialMetrics(
  ctx: SuiteContext,
  entries: readonly TitleEntry[],
  states: ReadonlyMap<string, StatePlugin>,
  templates: TemplateStore,
  ours: (e: TitleEntry) => Promise<unknown>,
  drawnPerS: number,
): Promise<Metric[]> {
  const byState = new Map<string, TitleEntry[]>();
  for (const e of entries) {
    const code = planForms(e, states).state!.code;
    if (presentTemplates(states.get(code)!, templates).length) byState.set(code, [...(byState.get(code) ?? []), e]);
  }
  if (!byState.size)
    return [
      {
        name: 'forms_official_packets_per_s',
        label: 'official-template packets/s (templates not found: skipped)',
        value: null,
        unit: 'packets/s',
      },
    ];
  const perState: Metric[] = [];
  const rates: Record<string, number> = {};
  const cpuRates: Record<string, number> = {};
  for (const [code, list] of [...byState].sort(([a], [b]) => a.localeCompare(b))) {
    for (const e of list) await ours(e);
    const r = await measure(list, Math.max(1, ctx.scale), ours);
    const files = presentTemplates(states.get(code)!, templates);
    rates[code] = Math.round(r.perS * 10) / 10;
    cpuRates[code] = Math.round(r.perCpuS * 10) / 10;
    ctx.log(
      `official ${code}: ${r.perS.toFixed(1)} packets/s, ${r.perCpuS.toFixed(1)} per CPU second (${files.join(', ')})`,
    );
    perState.push({
      name: `forms_official_packets_per_s_${code.toLowerCase()}`,
      label: `official-template packets/s, ${code} (${files.join(', ')}), ${list.length} entries`,
      value: rates[code]!,
      unit: 'packets/s',
      detail: {
        packets: r.n,
        per_cpu_second: cpuRates[code],
        templates: files,
        forms_per_packet: spread(list.map((e) => packetForms(planForms(e, states)))),
      },
    });
  }
  const harmonic = (xs: Record<string, number>) => byState.size / Object.values(xs).reduce((sum, r) => sum + 1 / r, 0);
  const overall = harmonic(rates);
  // on a busy machine the wall clock counts other processes' turns too; this process's CPU time does not
  const overallCpu = harmonic(cpuRates);
  ctx.log(
    `official, all ${byState.size} template states: ${overall.toFixed(2)} packets/s, ${overallCpu.toFixed(1)} per CPU second (harmonic means)`,
  );
  return [
    {
      name: 'forms_official_packets_per_s',
      label: `official-template packets/s, 4-8 forms each, one packet of each of the ${byState.size} template states in turn (target >= ${TARGET_OFFICIAL_PER_S}/s on a quiet machine)`,
      value: Math.round(overall * 100) / 100,
      unit: 'packets/s',
      baseline: { label: 'drawn packets/s in this run (median)', value: Math.round(drawnPerS * 10) / 10 },
      target: { op: '>=', value: TARGET_OFFICIAL_PER_S, on: 'value' },
      detail: {
        per_state: rates,
        per_cpu_second: Math.round(overallCpu * 10) / 10,
        per_state_per_cpu_second: cpuRates,
      },
    },
    ...perState,
  ];
}

/**
 * Form generation: packets per second for entries whose packets hold 4 to 8
 * forms (planning, values, every form with its per-signer variants, the
 * packet; storage not included), drawn against the same pages rendered with
 * pdf-lib's drawing API; with official templates (reported); peak RSS of a
 * process generating 1,000 packets.
 */
export const forms: Suite = {
  name: 'forms',
  description:
    'drawn and official form packets per second (4-8 forms each) vs plain pdf-lib drawing, peak RSS over 1,000 packets',
  async run(ctx: SuiteContext): Promise<Metric[]> {
    const states = loadStatePlugins();
    const templates = new TemplateStore(parseFormsOptions({}).templateDirs);
    const drawn = workload(states, false);
    const official = workload(states, true);
    const seconds = Math.max(1, 3 * ctx.scale);
    const ours = (e: TitleEntry) => renderPlan(planForms(e, states), templates);
    const base = (e: TitleEntry) => renderWithPdfLib(planForms(e, states));
    ctx.log(
      `drawn: ${drawn.entries.length} entries, forms per packet ${JSON.stringify(spread(drawn.forms))}; official: ${official.entries.length}, ${JSON.stringify(spread(official.forms))}`,
    );
    await measure(drawn.entries, 1, ours);
    await measure(drawn.entries, 1, base);
    const runs = { ours: [] as number[], base: [] as number[], cpu: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      const a = await measure(drawn.entries, seconds, ours);
      const b = await measure(drawn.entries, seconds, base);
      runs.ours.push(a.perS);
      runs.base.push(b.perS);
      runs.cpu.push(a.perCpuS);
      ctx.log(
        `round ${r + 1}: ${a.perS.toFixed(1)} drawn packets/s, ${a.perCpuS.toFixed(1)} per CPU second (pdf-lib drawing ${b.perS.toFixed(1)}/s)`,
      );
    }
    const metrics: Metric[] = [
      {
        name: 'forms_drawn_packets_per_s',
        label: `drawn packets/s, 4-8 forms each, ${drawn.entries.length} entries of ${new Set(drawn.entries.map((e) => e.account_data.sale?.state)).size} states (target >= ${TARGET_DRAWN_PER_S}/s)`,
        value: Math.round(median(runs.ours) * 10) / 10,
        unit: 'packets/s',
        baseline: {
          label: 'the same pages drawn and merged with pdf-lib',
          value: Math.round(median(runs.base) * 10) / 10,
        },
        target: { op: '>=', value: TARGET_DRAWN_PER_S, on: 'value' },
        detail: {
          per_cpu_second: Math.round(median(runs.cpu) * 10) / 10,
          rounds: runs.ours.map((x) => Math.round(x * 10) / 10),
          baseline_rounds: runs.base.map((x) => Math.round(x * 10) / 10),
          forms_per_packet: spread(drawn.forms),
        },
      },
    ];

    metrics.push(...(await officialMetrics(ctx, official.entries, states, templates, ours, median(runs.ours))));

    ctx.log(`peak RSS: ${RSS_PACKETS} drawn packets in a child process`);
    const rss = await peakRss(ctx);
    metrics.push({
      name: 'forms_peak_rss_mb',
      label: `peak RSS generating ${RSS_PACKETS.toLocaleString('en-US')} drawn packets (one process)`,
      value: Math.round((rss.maxRssKb / MB) * 10) / 10,
      unit: 'MB',
      target: { op: '<=', value: TARGET_RSS_MB, on: 'value' },
      detail: {
        start_rss_mb: Math.round((rss.startRssKb / MB) * 10) / 10,
        seconds: Math.round(rss.seconds * 10) / 10,
        packets_per_s: Math.round((rss.packets / rss.seconds) * 10) / 10,
        packet_mb_total: Math.round(rss.bytes / 1024 / 1024),
        heap_used_end_mb: Math.round(rss.heapUsedMb),
      },
    });
    return metrics;
  },
};
