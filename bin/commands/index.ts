/**
 * Every CLI command, in help order. A new command group is one file in this
 * folder exporting a `Command` or `CommandGroup`, plus one line here.
 */
import type { CommandEntry } from '../command.js';
import { collections } from './collections.js';
import { entries } from './entries.js';
import { extract } from './extract.js';
import { fees } from './fees.js';
import { importCommand } from './import.js';
import { keys } from './keys.js';
import { migrate } from './migrate.js';
import { orgs } from './orgs.js';
import { prune } from './prune.js';
import { serve } from './serve.js';
import { submissions } from './submissions.js';
import { sign } from './sign.js';
import { templates } from './templates.js';
import { webhooks } from './webhooks.js';

export const COMMANDS: readonly CommandEntry[] = [
  serve,
  migrate,
  orgs,
  keys,
  webhooks,
  entries,
  collections,
  submissions,
  importCommand,
  sign,
  fees,
  extract,
  templates,
  prune,
];
