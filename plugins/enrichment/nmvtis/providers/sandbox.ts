import { SandboxEnrichmentProvider } from '../../common/sandbox/provider.js';
import type { NmvtisProvider } from '../provider.js';

/** Whether `now` falls in an NMVTIS maintenance window: daily 06:00-07:00 UTC, Sundays 06:00-10:00 UTC. */
export function inNmvtisMaintenance(now: Date): boolean {
  const h = now.getUTCHours();
  return now.getUTCDay() === 0 ? h >= 6 && h < 10 : h === 6;
}

export const MAINTENANCE_MESSAGE =
  'NMVTIS is in scheduled maintenance (daily 06:00-07:00 UTC, Sundays 06:00-10:00 UTC)';

/** Whether maintenance windows apply: config `maintenance` (default true), and not TITLED_SANDBOX_MAINTENANCE=off. */
function maintenanceEnabled(option: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return option && env.TITLED_SANDBOX_MAINTENANCE?.toLowerCase() !== 'off';
}

/** The NMVTIS sandbox: the shared sandbox, plus the real maintenance windows. */
export class NmvtisSandboxProvider extends SandboxEnrichmentProvider implements NmvtisProvider {
  declare readonly source: 'nmvtis';

  constructor(options?: unknown) {
    super('nmvtis', options);
  }

  protected override downtime(now: Date): string | null {
    return maintenanceEnabled(this.options.maintenance) && inNmvtisMaintenance(now) ? MAINTENANCE_MESSAGE : null;
  }
}
