import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, EngineConfigError, type EnginePlugin, type StageContext } from '../../index.js';
import { packageRoot } from '../../core/paths.js';
import { eventually, startTestEngine, VALID_VIN, type TestEngine } from '../helpers/engine.js';

const EXAMPLE = join(packageRoot, 'dist', 'examples', 'odometer-check', 'index.js');

/** createEngine's rejection message for a config (the engine is stopped when it does start). */
async function refused(
  config: Record<string, unknown>,
  options: Parameters<typeof createEngine>[1] = {},
): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'titled-plugins-'));
  try {
    const engine = await createEngine({ dataDir, log: { level: 'silent' }, ...config }, options);
    await engine.stop();
    return 'started';
  } catch (e) {
    expect(e).to.be.instanceOf(EngineConfigError);
    return (e as Error).message;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('plugins: an outside plugin from config, options checked at start-up, hooks named', () => {
  let t: TestEngine | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  it('loads the example stage (examples/odometer-check) from `pluginModules`, with its options, and runs it', async () => {
    t = await startTestEngine({
      config: {
        stages: ['intake', 'odometer-check'],
        pluginModules: { 'odometer-check': EXAMPLE },
        plugins: { 'odometer-check': { maxMilesPerDay: 100 } },
      },
    });
    const res = await t.request('POST', '/title', {
      body: {
        account_data: {
          vehicle: {
            vin: VALID_VIN,
            title: {
              number: 'T-2',
              issuing_state: 'TX',
              issuance_date: '2024-01-10',
              odometer_reading: '41000',
              previous_title: [
                { number: 'T-1', issuing_state: 'TX', issuance_date: '2023-01-10', odometer_reading: '52000' },
              ],
            },
          },
        },
      },
    });
    expect(res.status).to.equal(200);
    const entry = await eventually(
      async () => {
        const r = await t!.request('GET', `/title/${res.body.entryId}`);
        return r.body.job_status === 'complete' ? r.body : null;
      },
      { what: 'job complete' },
    );
    expect(entry.odometer_check).to.deep.include({ status: 'suspect', reading: 41000, compared_with: 1 });
    expect(entry.odometer_check.findings[0]).to.match(/lower than 52000 on title T-1/);
    expect(t.engine.stages.map((s) => s.name)).to.deep.equal(['intake', 'odometer-check']);
  });

  it('a misspelt option, plugin or provider name stops the engine with a message naming it', async () => {
    expect(
      await refused({
        stages: ['intake', 'odometer-check'],
        pluginModules: { 'odometer-check': EXAMPLE },
        plugins: { 'odometer-check': { maxMilesPerDya: 5 } },
      }),
    ).to.match(/plugins\.odometer-check: .*'maxMilesPerDya'/);
    expect(await refused({ stages: ['intake', 'ocr'], plugins: { ocr: { maxPagez: 3 } } })).to.match(
      /plugins\.ocr: .*'maxPagez'/,
    );
    expect(await refused({ stages: ['intake'], plugins: { ocrr: {} } })).to.match(
      /plugins\.ocrr: no plugin is called 'ocrr'/,
    );
    expect(await refused({ stages: ['intake'], plugins: { intake: { x: 1 } } })).to.match(
      /the 'intake' plugin takes no options/,
    );
    expect(await refused({ stages: ['intake'], providers: { nmvts: { provider: 'sandbox' } } })).to.match(
      /providers\.nmvts: no plugin reads provider 'nmvts'/,
    );
    expect(
      await refused({ stages: ['intake'], pluginModules: { nope: '/nonexistent/plugin.js' }, plugins: {} }),
    ).to.equal('started', 'a module that no stage enables is not loaded');
    expect(await refused({ stages: ['intake', 'nope'], pluginModules: { nope: '/nonexistent/plugin.js' } })).to.match(
      /pluginModules\.nope: cannot load/,
    );
  });

  it('a stage with a misspelt run is a start-up error, not a background plugin', async () => {
    class HalfStage implements EnginePlugin {
      readonly name = 'half';
      readonly phase = 'enriching';
      appliesTo() {
        return true;
      }
      rnu() {
        /* misspelt */
      }
    }
    expect(await refused({ stages: ['intake', 'half'] }, { stages: { half: HalfStage } })).to.match(
      /plugin 'half' has phase, appliesTo but no run/,
    );
  });

  it('whatever a hook throws names the plugin and the hook', async () => {
    class Presenter implements EnginePlugin {
      readonly name = 'presenter';
      present() {
        throw new Error('boom');
      }
    }
    class Quiet {
      readonly name = 'quiet-stage';
      readonly phase = 'enriching';
      appliesTo() {
        return false;
      }
      async run(_ctx: StageContext) {
        /* never */
      }
    }
    t = await startTestEngine({
      config: { stages: ['intake', 'presenter', 'quiet-stage'] },
      options: { stages: { presenter: Presenter, 'quiet-stage': Quiet } },
    });
    const created = await t.request('POST', '/title', { body: { account_data: { vehicle: { vin: VALID_VIN } } } });
    const res = await t.request('GET', `/title/${created.body.entryId}`);
    expect(res.status).to.equal(500);
    const line = t.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => (l.err as { message?: string } | undefined)?.message?.includes('boom'));
    expect((line!.err as { message: string }).message).to.match(/^plugin 'presenter' failed in present: boom/);
  });
});
