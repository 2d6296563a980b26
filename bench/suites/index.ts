import type { Suite } from '../lib/types.js';

/**
 * Every suite, run in this order by `npm run bench` (`--only a,b` picks some).
 * A new suite is one file in this folder exporting a `Suite`, listed here.
 * Each is loaded only in the process that runs it (bench/run.ts runs every
 * suite in a process of its own).
 */
export const SUITES: { name: string; load: () => Promise<Suite> }[] = [
  { name: 'foundation', load: async () => (await import('./foundation.js')).foundation },
  { name: 'fees', load: async () => (await import('./fees.js')).fees },
  { name: 'enrichment', load: async () => (await import('./enrichment.js')).enrichment },
  { name: 'webhooks', load: async () => (await import('./webhooks.js')).webhooks },
  { name: 'forms', load: async () => (await import('./forms.js')).forms },
  { name: 'ocr', load: async () => (await import('./ocr.js')).ocr },
  { name: 'title-collection', load: async () => (await import('./title-collection.js')).titleCollection },
  { name: 'submission', load: async () => (await import('./submission.js')).submission },
  { name: 'console', load: async () => (await import('./console.js')).consoleSuite },
  { name: 'signing', load: async () => (await import('./signing.js')).signing },
];
