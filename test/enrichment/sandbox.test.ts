import { expect } from 'chai';
import { AccountDataSchema } from '../../core/index.js';
import { reconcile } from '../support/merge.js';
import {
  sandboxCoverage,
  sandboxFate,
  sandboxHistory,
  sandboxRecord,
} from '../../plugins/enrichment/common/sandbox/records.js';
import { InsuranceSandboxProvider } from '../../plugins/enrichment/insurance/providers/sandbox.js';
import { inNmvtisMaintenance, NmvtisSandboxProvider } from '../../plugins/enrichment/nmvtis/providers/sandbox.js';
import {
  PortalSandboxProvider,
  StateRecordSandboxProvider,
} from '../../plugins/enrichment/private-portal/providers/sandbox.js';
import { PublicDmvSandboxProvider } from '../../plugins/enrichment/public-dmv/providers/sandbox.js';
import { QUIET_TIME, sandboxVin } from './support.js';
import { withMaintenanceWindows } from '../helpers/sandbox-env.js';

const SOURCES = ['nmvtis', 'state', 'portal', 'public'] as const;
const owners = [{ name: 'Jane Q. Doe' }];
const req = (vin: string, state?: string) => ({
  source: 'nmvtis' as const,
  vin,
  state,
  owners,
  organization: 'o',
  entry_id: 'e',
});
/** 60 found VINs over scenarios 0-7 and several makes and model years. */
const VINS = Array.from({ length: 60 }, (_, i) =>
  sandboxVin(
    `${String(i).padStart(3, '0')}1${i % 8}${1 + (i % 7)}`,
    ['1HGCV1F3', '5YJ3E1EA', '1FTFW1ET', 'JTDKB20U', 'WBA3A5C5'][i % 5],
    'ABCDEFGHJKLMNPRST'[i % 17],
  ),
);

describe('enrichment: the sandbox (docs/sandbox.md)', () => {
  it("the VIN's last character picks the outcome: 0 not_found, 8 error, 9 unavailable, else found", async () => {
    const p = new StateRecordSandboxProvider();
    const want = {
      '0': 'not_found',
      '8': 'error',
      '9': 'unavailable',
      '1': 'found',
      '5': 'found',
      X: 'found',
    } as Record<string, string>;
    for (const [last, outcome] of Object.entries(want)) {
      const v = sandboxVin(`00001${last === 'X' ? '7' : last}`).slice(0, 16) + last;
      expect(sandboxFate(v)).to.equal(outcome);
      expect((await p.fetch(req(v, 'TX'), { now: QUIET_TIME })).outcome, last).to.equal(outcome);
    }
  });

  it('is deterministic: the same VIN (and request) gives the same record every time', () => {
    for (const v of VINS.slice(0, 10)) {
      for (const s of SOURCES)
        expect(sandboxRecord(s, req(v, 'TX'), QUIET_TIME)).to.deep.equal(sandboxRecord(s, req(v, 'TX'), QUIET_TIME));
    }
  });

  it('records are valid AccountData, consistent with the VIN decode, and internally consistent', () => {
    for (const v of VINS) {
      const h = sandboxHistory({ vin: v, state: 'TX', owners }, QUIET_TIME);
      for (const s of SOURCES) {
        const r = sandboxRecord(s, req(v, 'TX'), QUIET_TIME);
        const check = AccountDataSchema.safeParse(r);
        expect(check.success, `${v} ${s}: ${check.success ? '' : check.error.message}`).to.equal(true);
        expect(r.vehicle!.vin).to.equal(v);
        expect(r.vehicle!.year).to.equal(h.vehicle.year);
      }
      // titles: newest first, dates before now, odometer never goes down, liens start with the current title
      const dates = h.titles.map((t) => t.issuance_date);
      expect([...dates].sort().reverse(), v).to.deep.equal(dates);
      for (const d of dates) expect(Date.parse(d) <= QUIET_TIME.getTime(), `${v} ${d}`).to.equal(true);
      const miles = h.titles.map((t) => Number(t.odometer_reading)).reverse();
      for (let i = 1; i < miles.length; i++) expect(miles[i]! >= miles[i - 1]!, `${v} odometer`).to.equal(true);
      for (const l of h.liens) expect(l.lien_date).to.equal(h.titles[0]!.issuance_date);
      expect(h.registration.registration_expiration_date > QUIET_TIME.toISOString().slice(0, 10)).to.equal(true);
    }
  });

  it('scenarios: branded chain, no liens, co-owners by AND and OR, another owner, flood', () => {
    const h = (scenario: string) =>
      sandboxHistory({ vin: sandboxVin(`0001${scenario}1`), state: 'TX', owners }, QUIET_TIME);
    expect(h('1').titles.map((t) => t.brand ?? null)).to.deep.equal(['REBUILT', 'SALVAGE', null]);
    expect(h('1').titles[0]!.brands.map((b) => b.nmvtis_code)).to.deep.equal(['11', '09']);
    expect(h('2').liens).to.deep.equal([]);
    expect([h('3').owners.length, h('3').conjunction]).to.deep.equal([2, 'AND']);
    expect([h('5').owners.length, h('5').conjunction]).to.deep.equal([2, 'OR']);
    expect(h('4').owners[0]!.last).to.not.equal('DOE');
    expect(h('0').owners[0]).to.include({ first: 'JANE', last: 'DOE' });
    expect(h('6').titles[0]).to.include({ brand: 'FLOODED', odometer_code_translation: 'NOT_ACTUAL' });
  });

  it('sources agree unless the VIN is in the discrepancy set (scenario 7)', () => {
    for (const v of VINS) {
      const pulls = SOURCES.map((s) => ({ source: s, ref_id: s, record: sandboxRecord(s, req(v, 'TX'), QUIET_TIME) }));
      const r = reconcile({ account_data: {}, pulls });
      if (v[15] === '7')
        expect(
          r.discrepancies.map((d) => d.field_path),
          v,
        ).to.include.members(['/vehicle/title/has_liens', '/vehicle/title/odometer_reading']);
      else expect(r.discrepancies, v).to.deep.equal([]);
      expect(r.matches.length, v).to.be.greaterThan(3);
    }
  });

  it('the portal shows names in the DMV comma form; public DMV data has no personal data', () => {
    const v = sandboxVin('000101');
    const portal = sandboxRecord('portal', req(v, 'TX'), QUIET_TIME);
    expect(portal.vehicle!.title!.owners![0]!.name).to.equal('DOE, JANE Q');
    const pub = sandboxRecord('public', req(v, 'TX'), QUIET_TIME);
    expect(pub.vehicle!.title).to.not.have.any.keys('owners', 'owner_names_one_line', 'active_liens', 'number');
    expect(pub.vehicle!.title!.has_liens).to.equal(true);
  });

  it('NMVTIS maintenance windows: daily 06:00-07:00 UTC, Sundays 06:00-10:00 UTC; off by config or TITLED_SANDBOX_MAINTENANCE=off', async () => {
    await withMaintenanceWindows(async () => {
      const at = (iso: string) => new Date(iso);
      expect(inNmvtisMaintenance(at('2026-03-04T06:00:00Z'))).to.equal(true);
      expect(inNmvtisMaintenance(at('2026-03-04T06:59:59Z'))).to.equal(true);
      expect(inNmvtisMaintenance(at('2026-03-04T07:00:00Z'))).to.equal(false);
      expect(inNmvtisMaintenance(at('2026-03-04T05:59:59Z'))).to.equal(false);
      expect(inNmvtisMaintenance(at('2026-03-08T09:30:00Z'))).to.equal(true); // Sunday
      expect(inNmvtisMaintenance(at('2026-03-08T10:00:00Z'))).to.equal(false);
      expect(inNmvtisMaintenance(at('2026-03-07T09:30:00Z'))).to.equal(false); // Saturday
      const v = sandboxVin('000101');
      const inWindow = { now: at('2026-03-08T07:15:00Z') };
      expect((await new NmvtisSandboxProvider().fetch(req(v), inWindow)).outcome).to.equal('unavailable');
      expect(
        (await new NmvtisSandboxProvider({ provider: 'sandbox', maintenance: false }).fetch(req(v), inWindow)).outcome,
      ).to.equal('found');
      const saved = process.env.TITLED_SANDBOX_MAINTENANCE;
      process.env.TITLED_SANDBOX_MAINTENANCE = 'off';
      try {
        expect((await new NmvtisSandboxProvider().fetch(req(v), inWindow)).outcome).to.equal('found');
      } finally {
        if (saved === undefined) delete process.env.TITLED_SANDBOX_MAINTENANCE;
        else process.env.TITLED_SANDBOX_MAINTENANCE = saved;
      }
      // only NMVTIS has windows
      for (const p of [new PublicDmvSandboxProvider(), new StateRecordSandboxProvider(), new PortalSandboxProvider()])
        expect((await p.fetch(req(v, 'TX'), inWindow)).outcome).to.equal('found');
    });
  });

  it("insurance: an active six-month policy, LAPSED when the VIN's 15th character is 9; the lender's policy is echoed", async () => {
    const active = sandboxCoverage({ vin: sandboxVin('000101') }, QUIET_TIME);
    expect(active.status).to.equal('ACTIVE');
    expect(active.effective_date! <= '2026-03-04' && active.expiration_date! > '2026-03-04').to.equal(true);
    const lapsed = sandboxCoverage({ vin: sandboxVin('000901') }, QUIET_TIME);
    expect(lapsed.status).to.equal('LAPSED');
    expect(lapsed.lapse_date! < '2026-03-04').to.equal(true);
    const out = await new InsuranceSandboxProvider().fetch(
      { ...req(sandboxVin('000101')), source: 'insurance', policy: { policy_number: 'POL-9' } },
      { now: QUIET_TIME },
    );
    expect(out.outcome === 'found' && out.coverage!.policy_number).to.equal('POL-9');
  });
});
