import type { Suite } from '../lib/types.js';
import { consoleSuite } from './console.js';
import { enrichment } from './enrichment.js';
import { fees } from './fees.js';
import { foundation } from './foundation.js';
import { forms } from './forms.js';
import { ocr } from './ocr.js';
import { titleCollection } from './title-collection.js';
import { submission } from './submission.js';
import { signing } from './signing.js';
import { webhooks } from './webhooks.js';

/**
 * Every suite, run in this order by `npm run bench` (`--only a,b` picks some).
 * A new suite is one file in this folder exporting a `Suite`, listed here.
 */
export const SUITES: Suite[] = [
  foundation,
  fees,
  enrichment,
  webhooks,
  forms,
  ocr,
  titleCollection,
  submission,
  consoleSuite,
  signing,
];
