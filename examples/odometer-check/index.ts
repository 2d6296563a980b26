/**
 * An example stage plugin written only against titled's plugin API, as an
 * outside author would write one. It checks the title's odometer reading
 * against the previous titles the entry knows (a reading lower than an older
 * title's is a rollback sign; a reading that grew faster than
 * `maxMilesPerDay` since the older title is a typing-error sign) and records
 * the verdict as `odometer_check` on the entry.
 *
 * Load it from config (docs/architecture.md, "Writing a plugin"):
 *   { "stages": ["intake", "odometer-check"],
 *     "pluginModules": { "odometer-check": "./dist/examples/odometer-check/index.js" },
 *     "plugins": { "odometer-check": { "maxMilesPerDay": 500 } } }
 */
import { z } from 'zod';
import {
  definePluginOptions,
  inject,
  injectable,
  TOKENS,
  type JobInput,
  type StageContext,
  type StagePlugin,
  type TitleEntry,
  type TitledConfig,
} from '../../core/plugin-api.js';

const Options = definePluginOptions('odometer-check', {
  /** Miles a day above which the growth since an older title is flagged. */
  maxMilesPerDay: z.number().positive().default(500),
});

interface TitleReading {
  odometer_reading?: unknown;
  issuance_date?: unknown;
  number?: unknown;
}

const miles = (v: unknown): number | null => {
  const n = Number(String(v ?? '').replace(/[^0-9.]/g, ''));
  return String(v ?? '').trim() && Number.isFinite(n) ? n : null;
};

@injectable()
export default class OdometerCheckStage implements StagePlugin {
  static readonly options = Options.schema;
  readonly name = 'odometer-check';
  readonly phase = 'enriching' as const;
  readonly after = ['intake'];
  private readonly maxMilesPerDay: number;

  constructor(@inject(TOKENS.Config) config: TitledConfig) {
    this.maxMilesPerDay = Options.parse(config.plugins['odometer-check']).maxMilesPerDay;
  }

  appliesTo(entry: Readonly<TitleEntry>, job: Readonly<JobInput>): boolean {
    return job.account_data !== undefined && !!entry.account_data.vehicle?.title?.odometer_reading;
  }

  async run(ctx: StageContext): Promise<void> {
    const title = ctx.entry.account_data.vehicle!.title! as TitleReading & { previous_title?: unknown };
    const now = miles(title.odometer_reading);
    const older = (Array.isArray(title.previous_title) ? (title.previous_title as TitleReading[]) : [])
      .map((t) => ({
        number: t.number ?? null,
        miles: miles(t.odometer_reading),
        date: typeof t.issuance_date === 'string' ? t.issuance_date : null,
      }))
      .filter((t) => t.miles !== null);
    const findings: string[] = [];
    for (const t of older) {
      if (now !== null && now < t.miles!)
        findings.push(`reading ${now} is lower than ${t.miles} on title ${String(t.number ?? '?')}`);
      const since =
        t.date && typeof title.issuance_date === 'string'
          ? (Date.parse(title.issuance_date) - Date.parse(t.date)) / 86_400_000
          : NaN;
      if (now !== null && since > 0 && (now - t.miles!) / since > this.maxMilesPerDay) {
        findings.push(
          `${Math.round((now - t.miles!) / since)} miles a day since title ${String(t.number ?? '?')} (more than ${this.maxMilesPerDay})`,
        );
      }
    }
    ctx.entry.odometer_check = {
      status: findings.length ? 'suspect' : 'ok',
      reading: now,
      compared_with: older.length,
      findings,
    };
    ctx.log.info({ code: 'ODOMETER_CHECKED', status: findings.length ? 'suspect' : 'ok' }, 'odometer checked');
  }
}
