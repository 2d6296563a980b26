/**
 * Child process of the `forms` bench suite: generates BENCH_PACKETS drawn
 * packets (forms, per-signer variants and packet, in memory, as the forms
 * stage renders them) and reports its peak RSS over IPC.
 */
import { renderPlan } from '../plugins/forms/render.js';
import { planForms } from '../plugins/forms/select.js';
import { loadStatePlugins } from '../states/registry.js';
import { workload } from './lib/forms-workload.js';

const n = Number(process.env.BENCH_PACKETS ?? 1000);
const states = loadStatePlugins();
const { entries } = workload(states, false);
const startRss = process.memoryUsage().rss;
const t0 = performance.now();
let bytes = 0;
for (let i = 0; i < n; i++) {
  const r = await renderPlan(planForms(entries[i % entries.length]!, states), null);
  bytes += r.packet!.pdf.byteLength;
}
const seconds = (performance.now() - t0) / 1000;
process.send!({
  type: 'done',
  packets: n,
  seconds,
  bytes,
  startRssKb: Math.round(startRss / 1024),
  maxRssKb: process.resourceUsage().maxRSS,
  heapUsedMb: process.memoryUsage().heapUsed / 1024 / 1024,
});
