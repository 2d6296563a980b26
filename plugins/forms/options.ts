/** The forms plugin's options (config `plugins.forms`), validated once. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { definePluginOptions, packageRoot } from '../../core/plugin-api.js';

const FormsOptionsDef = definePluginOptions('forms', {
  /**
   * Folders searched for the states' official templates, in order (a
   * template is named by its path under a folder, e.g. `tx/130-U.pdf`).
   * Relative folders are relative to the package root. Default:
   * `../shared/forms` relative to the package root, when that folder exists;
   * otherwise none, and every form is drawn.
   */
  templateDirs: z.array(z.string().min(1)).optional(),
  /** Regenerations kept in each `form_updates` metadata file's history. */
  historyLimit: z.number().int().min(0).max(1000).default(20),
});
export const FormsOptionsSchema = FormsOptionsDef.schema;

export interface FormsOptions {
  templateDirs: string[];
  historyLimit: number;
}

const DEFAULT_TEMPLATE_DIR = '../shared/forms';

export function parseFormsOptions(raw: unknown): FormsOptions {
  const o = FormsOptionsDef.parse(raw);
  const fallback = resolve(packageRoot, DEFAULT_TEMPLATE_DIR);
  const templateDirs = o.templateDirs
    ? o.templateDirs.map((d) => resolve(packageRoot, d))
    : existsSync(fallback)
      ? [fallback]
      : [];
  return { templateDirs, historyLimit: o.historyLimit };
}
