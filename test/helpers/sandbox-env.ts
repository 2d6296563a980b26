/**
 * The suite runs at any hour. The NMVTIS sandbox answers `unavailable` in the
 * real maintenance windows (daily 06:00-07:00 UTC, Sundays 06:00-10:00 UTC;
 * docs/sandbox.md), so every test that expects it to find a record failed
 * when the suite ran then. The windows are off for the suite (and for the
 * daemons and CLIs the tests start) unless a test turns them on around
 * itself with `withMaintenanceWindows` (the tests of the windows inject
 * their clock).
 */
const NAME = 'TITLED_SANDBOX_MAINTENANCE';

process.env[NAME] ??= 'off';

/** Runs `fn` with the NMVTIS sandbox's maintenance windows as the product has them (on unless configured off). */
export async function withMaintenanceWindows<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env[NAME];
  delete process.env[NAME];
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env[NAME];
    else process.env[NAME] = saved;
  }
}
