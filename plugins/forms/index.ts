/**
 * forms: decides an entry's forms from its filing state's plugin and its
 * transactions, fills the official templates found in the template folders,
 * draws the rest, combines them into the final packet, and writes the form
 * members of the entry (docs/forms.md). Runs in the pipeline
 * (`generating_forms`, after intake) and synchronously for
 * POST /title/{id}/forms (`runNow`). Counts downloads of its files.
 */
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import {
  type TitledConfig,
  Database,
  EngineConfigError,
  type TitleEntry,
  type StageContext,
  type StagePlugin,
  type FormsStatus,
  Entries,
  ObjectStore,
  TOKENS,
} from '../../core/plugin-api.js';
import { loadStatePlugins } from '../../states/registry.js';
import type { StatePlugin } from '../../states/types.js';
import { applyRender, OWNED_KEYS } from './apply.js';
import { DownloadCounter } from './downloads.js';
import { FormsOptionsSchema, parseFormsOptions, type FormsOptions } from './options.js';
import { TemplateStore } from './pdf/template.js';
import { renderPlan } from './render.js';
import { planForms } from './select.js';

@injectable()
export class FormsStage implements StagePlugin {
  static readonly options = FormsOptionsSchema;
  readonly name = 'forms';
  readonly phase = 'generating_forms' as const;
  readonly after = ['intake'];
  readonly handles = ['forms'] as const;
  readonly timeoutMs = 60_000;
  readonly options: FormsOptions;
  readonly states: ReadonlyMap<string, StatePlugin>;
  readonly templates: TemplateStore;
  readonly downloads: DownloadCounter;
  private readonly stopListening: () => void;

  constructor(
    @inject(TOKENS.Config) config: Readonly<TitledConfig>,
    @inject(TOKENS.Logger) log: Logger,
    objects: ObjectStore,
    entries: Entries,
    db: Database,
  ) {
    this.options = parseFormsOptions(config.plugins.forms);
    try {
      this.states = loadStatePlugins(config.states);
    } catch (e) {
      throw new EngineConfigError((e as Error).message);
    }
    this.templates = new TemplateStore(this.options.templateDirs);
    this.downloads = new DownloadCounter(db, entries, log.child({ plugin: 'forms' }));
    this.stopListening = objects.onRead(this.downloads.onRead);
  }

  /** Every job regenerates the forms: whatever it changed (account data, enrichment) may change them. */
  appliesTo(_entry: Readonly<TitleEntry>): boolean {
    return true;
  }

  run(ctx: StageContext): Promise<void> {
    return this.generate(ctx);
  }

  /** POST /title/{id}/forms: the same generation, inside the request. */
  runNow(ctx: StageContext): Promise<void> {
    return this.generate(ctx);
  }

  async stop(): Promise<void> {
    this.stopListening();
    await this.downloads.idle();
  }

  private async generate(ctx: StageContext): Promise<void> {
    const entry = ctx.entry;
    const plan = planForms(entry, this.states);
    const report: Record<string, unknown> = {
      state: plan.state?.code ?? null,
      transactions: plan.transactions,
      generated_at: new Date().toISOString(),
    };
    let status: FormsStatus;
    if (plan.skipped) {
      for (const k of OWNED_KEYS) delete entry[k];
      delete entry.form_updates;
      status = plan.skipped;
      report.reason = plan.reason;
    } else {
      const result = await renderPlan(plan, this.templates);
      ctx.signal.throwIfAborted();
      const written = await applyRender(entry, ctx.objects, plan, result, {
        trigger: ctx.job.reasons.join(',') || 'job',
        historyLimit: this.options.historyLimit,
      });
      status = result.errors.length ? 'error' : 'generated';
      report.forms = written;
      if (result.errors.length) report.errors = result.errors;
      const fallbacks = result.files
        .filter((f) => f.templateError)
        .map((f) => ({ form: f.kind, error: f.templateError }));
      if (fallbacks.length) {
        report.template_fallbacks = fallbacks;
        ctx.log.warn({ code: 'FORM_TEMPLATE_FALLBACK', fallbacks }, 'official template unusable; drawn layout used');
      }
      if (result.errors.length)
        ctx.log.error({ code: 'FORMS_ERROR', errors: result.errors }, 'some forms failed to render');
    }
    entry.forms_report = report;
    ctx.setStatus('forms_status', status, plan.reason ? { reason: plan.reason } : {});
  }
}
