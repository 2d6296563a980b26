import { inject, injectable } from 'tsyringe';
import {
  type TitledConfig,
  type JobInput,
  type TitleEntry,
  type StageContext,
  type StagePlugin,
  TOKENS,
  decodeVin,
} from '../../../core/plugin-api.js';
import { clockOf } from '../common/apply.js';
import { hideMeta, readMeta, writeMeta } from '../common/meta.js';
import { parseVpicOptions, VpicProvider } from './providers/vpic.js';

/**
 * vin-decode: decodes the entry's VIN once per VIN (offline: check digit,
 * model year, manufacturer, make, country; with `providers.vpic.provider:
 * "http"` also NHTSA vPIC: make, model, body, fuel type, GVWR, cylinders,
 * vehicle type), records it as `vin_decode` (beyond the spec) and fills
 * those vehicle members the client, documents and pulls left empty (the
 * lowest precedence of the reconciliation). Runs right after intake, in the
 * `pending` phase, so a plain create moves through no extra job_status.
 */
@injectable()
export class VinDecodeStage implements StagePlugin {
  readonly name = 'vin-decode';
  readonly phase = 'pending' as const;
  readonly after = ['intake'];
  readonly timeoutMs = 60_000;
  private readonly vpic: VpicProvider | null;

  constructor(@inject(TOKENS.Config) config: TitledConfig) {
    const o = parseVpicOptions(config.providers.vpic);
    this.vpic = o.provider === 'http' ? new VpicProvider(o, config.allowHosts) : null;
  }

  appliesTo(entry: Readonly<TitleEntry>, job: Readonly<JobInput>): boolean {
    if (!entry.VIN) return false;
    const decoded = entry.account_sources?.find((s) => s.id === 'vin_decode');
    return decoded?.vin !== entry.VIN || job.account_data !== undefined;
  }

  present(entry: TitleEntry): void {
    hideMeta(entry);
  }

  stop(): void {
    this.vpic?.close();
  }

  async run(ctx: StageContext): Promise<void> {
    const entry = ctx.entry;
    const now = clockOf(ctx).now();
    const meta = readMeta(entry);
    const d = decodeVin(entry.VIN, now);
    const info: Record<string, unknown> = {
      wmi: d.wmi,
      manufacturer: d.manufacturer,
      make: d.make,
      country: d.country,
      model_year: d.model_year,
      model_year_rule: d.model_year_rule ?? null,
      check_digit_valid: d.check_digit_valid,
      source: 'offline',
    };
    let vehicle: Record<string, unknown> = Object.fromEntries(
      Object.entries({ year: d.model_year, make: d.make }).filter(([, v]) => v !== null),
    );
    let vpic = false;
    const cached = meta.vin_decode?.vin === entry.VIN && meta.vin_decode.vpic ? meta.vin_decode.vehicle : undefined;
    if (cached) {
      vehicle = cached;
      vpic = true;
      info.source = 'offline+vpic';
    } else if (this.vpic) {
      const r = await this.vpic.decode(entry.VIN, { signal: ctx.signal });
      if (r.outcome === 'found') {
        vehicle = { ...vehicle, ...r.vehicle };
        vpic = true;
        info.source = 'offline+vpic';
        if (r.error_code && r.error_code !== '0') info.vpic_note = r.error_text;
      } else {
        info.vpic_note =
          r.outcome === 'error'
            ? r.message
            : `vPIC has no data for this VIN${r.error_text ? ` (${r.error_text})` : ''}`;
        ctx.log.warn(
          { code: 'VPIC_DECODE_FAILED', outcome: r.outcome },
          'vPIC decode gave nothing; offline decode only',
        );
      }
    }
    if (vpic)
      for (const k of ['make', 'model', 'body', 'fuel_type', 'weight_rating', 'type'] as const)
        if (vehicle[k] !== undefined) info[k === 'make' ? 'make' : k] = vehicle[k];
    entry.vin_decode = info;
    meta.vin_decode = { vin: entry.VIN, vehicle, ...(vpic ? { vpic: true } : {}) };
    writeMeta(entry, meta);
    ctx.account.contribute({ id: 'vin_decode', kind: 'vin_decode', vin: entry.VIN, record: { vehicle } });
  }
}
