import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../core/paths.js';
import { countryOf, decodeVin, modelYearOf, wmiTable } from '../../core/vin-decode.js';
import { VpicProvider, VpicOptionsSchema } from '../../plugins/enrichment/vin-decode/providers/vpic.js';
import { BORROWER, create, settled, startEnrichmentEngine, startGateway, type Gateway } from './support.js';

const FIXTURES = join(packageRoot, 'test', 'enrichment', 'fixtures', 'vpic');
const fixture = (vin: string): unknown => JSON.parse(readFileSync(join(FIXTURES, `${vin}.json`), 'utf8'));
const NOW = new Date('2026-03-04T15:00:00Z');

/** A local vPIC: serves the recorded DecodeVinValues answers of test/enrichment/fixtures/vpic. */
function vpicServer(
  extra: (url: URL, n: number) => ReturnType<Gateway['handle']> | undefined = () => undefined,
): Promise<Gateway> {
  return startGateway((call, n) => {
    const url = new URL(call.url, 'http://x');
    const special = extra(url, n);
    if (special) return special;
    const m = /^\/api\/vehicles\/DecodeVinValues\/([A-Z0-9]{17})$/.exec(url.pathname);
    if (call.method !== 'GET' || !m || url.searchParams.get('format') !== 'json')
      return { status: 404, text: 'not an endpoint' };
    try {
      return { json: fixture(m[1]!) };
    } catch {
      return {
        json: {
          Count: 1,
          Message: 'Results returned successfully.',
          SearchCriteria: `VIN(s): ${m[1]}`,
          Results: [
            {
              Make: '',
              Model: '',
              ModelYear: '',
              ErrorCode: '8',
              ErrorText: '8 - No detailed data available currently.',
            },
          ],
        },
      };
    }
  });
}

describe('VIN decoding: the offline decoder', () => {
  it('checks the check digit (core/vin.ts) and says what it expected', () => {
    expect(decodeVin('1HGCM82633A004352', NOW)).to.include({
      valid: true,
      check_digit_valid: true,
      wmi: '1HG',
      make: 'HONDA',
      country: 'United States',
      model_year: 2003,
    });
    const bad = decodeVin('1HGCM82643A004352', NOW);
    expect(bad).to.include({ valid: true, check_digit_valid: false, expected_check_digit: '3' });
    expect(decodeVin('1HGCM8263', NOW)).to.include({ valid: false, manufacturer: null, make: null, model_year: null });
  });

  it('resolves the 30-year model-year cycle by position 7, and by plausibility when that rule gives an impossible year', () => {
    expect(modelYearOf('1HGCM82633A004352', NOW)).to.deep.equal({ year: 2003, rule: 'position-7' });
    expect(modelYearOf('5YJ3E1EA5KF000316', NOW)).to.deep.equal({ year: 2019, rule: 'position-7' });
    expect(modelYearOf('1FTFW150XAFA00000', NOW)!.year, 'A with a numeric position 7').to.equal(1980);
    expect(modelYearOf('1FTFW1EA0AFA00000', NOW)!.year, 'A with a letter in position 7').to.equal(2010);
    // a letter in position 7 but year code Y: 2030 is after next year, so the older cycle
    expect(modelYearOf('1XKAD4BX0YJ000000', NOW)).to.deep.equal({ year: 2000, rule: 'latest-plausible' });
    // ... unless it is 2029 already (the clock is injected, never the wall clock)
    expect(modelYearOf('1XKAD4BX0YJ000000', new Date('2029-06-01T00:00:00Z'))).to.deep.equal({
      year: 2030,
      rule: 'position-7',
    });
    // position 10 never holds I, O, Q, U, Z or 0
    expect(modelYearOf('1HGCM82630A004352', NOW)).to.equal(null);
    expect(modelYearOf('1HGCM8263UA004352', NOW)).to.equal(null);
  });

  it('knows at least 200 WMIs of the US market, each with a make, a manufacturer and a country', () => {
    const table = wmiTable();
    expect(table.length).to.be.at.least(200);
    expect(new Set(table.map((w) => w.wmi)).size).to.equal(table.length);
    for (const w of table) {
      expect(w.wmi, w.wmi).to.match(/^[A-HJ-NPR-Z0-9]{3}$/);
      expect(w.make, w.wmi).to.be.a('string').and.not.equal('');
      expect(w.manufacturer, w.wmi).to.be.a('string').and.not.equal('');
      expect(countryOf(w.wmi), w.wmi).to.be.a('string');
    }
    const data = JSON.parse(readFileSync(join(packageRoot, 'core', 'wmi.json'), 'utf8'));
    expect(data.source, 'the data file names its source').to.match(/vpic\.nhtsa\.dot\.gov/);
  });

  it('maps WMIs and region codes', () => {
    const cases: [string, string | null, string | null][] = [
      ['5YJ3E1EA5KF000316', 'TESLA', 'United States'],
      ['WBA3A5C51CF256987', 'BMW', 'Germany'],
      ['JTDKB20U093000000', 'TOYOTA', 'Japan'],
      ['KNAFK4A65E5000000', 'KIA', 'South Korea'],
      ['3VV3B7AX0NM077525', 'VOLKSWAGEN', 'Mexico'],
      ['2HGFA16578H000000', 'HONDA', 'Canada'],
      ['YV1A22MK0H1000000', 'VOLVO', 'Sweden'],
      ['ZFF67NFA0A0000000', 'FERRARI', 'Italy'],
      ['SALGS2FE0HA000000', 'LAND ROVER', 'United Kingdom'],
      ['1ZZ00000000000000', null, 'United States'],
    ];
    for (const [v, make, country] of cases) expect(decodeVin(v, NOW), v).to.include({ make, country });
  });
});

describe('VIN decoding: NHTSA vPIC DecodeVinValues against a local server with recorded answers', () => {
  let g: Gateway;
  let fail = 0;
  let malformed = false;
  before(async () => {
    g = await vpicServer((url) => {
      if (malformed && url.pathname.includes('DecodeVinValues')) return { text: '<html>maintenance</html>' };
      if (fail > 0) {
        fail--;
        return { status: 500, text: 'boom' };
      }
      return undefined;
    });
  });
  after(async () => g?.close());
  const provider = () =>
    new VpicProvider(
      VpicOptionsSchema.parse({ provider: 'http', url: g.url, retries: 2, retryBaseMs: 1, ratePerSecond: 0 }),
      ['127.0.0.1'],
    );

  it('calls the real endpoint shape and maps make, model, body, fuel type, GVWR, cylinders and vehicle type', async () => {
    const p = provider();
    const r = await p.decode('1FTFW1ET9DFC10312');
    expect(r).to.deep.equal({
      outcome: 'found',
      error_code: '0',
      error_text: '0 - VIN decoded clean. Check Digit (9th position) is correct',
      vehicle: {
        year: 2013,
        make: 'FORD',
        model: 'F-150',
        body: 'Pickup',
        fuel_type: 'Gasoline',
        weight_rating: 'Class 2E: 6,001 - 7,000 lb (2,722 - 3,175 kg)',
        number_of_cylinders: '6',
        type: 'AUTO',
      },
    });
    const last = g.calls[g.calls.length - 1]!;
    expect(last.method).to.equal('GET');
    expect(last.url).to.equal('/api/vehicles/DecodeVinValues/1FTFW1ET9DFC10312?format=json');
    expect(p.urlFor('1FTFW1ET9DFC10312', 2013).search).to.equal('?format=json&modelyear=2013');
    p.close();
  });

  it("a VIN vPIC has no data for is not_found, with vPIC's error text", async () => {
    const r = await provider().decode('9BWZZZ372VT004251');
    expect(r).to.include({ outcome: 'not_found', error_code: '7' });
  });

  it('retries 5xx with backoff, then answers', async () => {
    fail = 2;
    const before = g.calls.length;
    const r = await provider().decode('1HGCM82633A004352');
    expect(r.outcome).to.equal('found');
    expect(g.calls.length - before).to.equal(3);
    fail = 5;
    const e = await provider().decode('1HGCM82633A004352');
    expect(e).to.deep.equal({ outcome: 'error', message: 'vPIC answered HTTP 500' });
    fail = 0;
  });

  it('a malformed answer is an error, never a crash', async () => {
    malformed = true;
    try {
      expect(await provider().decode('1HGCM82633A004352')).to.deep.include({ outcome: 'error' });
    } finally {
      malformed = false;
    }
  });

  it('the outbound URL guard refuses a loopback vPIC unless allowHosts exempts it', () => {
    expect(() => new VpicProvider(VpicOptionsSchema.parse({ provider: 'http', url: g.url }), [])).to.throw(/loopback/);
  });

  it('the vin-decode stage fills what the client left out (client values win) and asks vPIC once per VIN', async () => {
    const t = await startEnrichmentEngine({
      config: { allowHosts: ['127.0.0.1'], providers: { vpic: { provider: 'http', url: g.url, retryBaseMs: 1 } } },
    });
    try {
      const vin = '1FTFW1ET9DFC10312';
      const id = await create(t, {
        account_data: { vehicle: { vin, model: 'F150 CLIENT' }, loan: { borrower: [BORROWER] } },
      });
      const e = await settled(t, id);
      expect(e.job_status).to.equal('complete');
      expect(e.account_data.vehicle).to.include({
        year: 2013,
        make: 'FORD',
        model: 'F150 CLIENT',
        body: 'Pickup',
        fuel_type: 'Gasoline',
        weight_rating: 'Class 2E: 6,001 - 7,000 lb (2,722 - 3,175 kg)',
        type: 'AUTO',
      });
      expect(e.vin_decode).to.include({
        wmi: '1FT',
        make: 'FORD',
        country: 'United States',
        model_year: 2013,
        source: 'offline+vpic',
        check_digit_valid: true,
      });
      const calls = g.calls.filter((c) => c.url.includes(vin)).length;
      await t.request('POST', `/title/${id}/data`, { body: { sync_private: true } });
      const again = await settled(t, id);
      expect(g.calls.filter((c) => c.url.includes(vin)).length, 'no second vPIC call for the same VIN').to.equal(calls);
      const state = (await (await fetch(again.state_pull)).json()) as { vehicle: { body: string } };
      expect(again.account_data.vehicle.body, 'pulls rank above the VIN decode').to.equal(state.vehicle.body);
      expect(again.account_data.vehicle.weight_rating, 'what no pull has stays from vPIC').to.equal(
        'Class 2E: 6,001 - 7,000 lb (2,722 - 3,175 kg)',
      );
      // offline only (vPIC off): year and make from the VIN
      const u = await startEnrichmentEngine();
      try {
        const other = await create(u, { account_data: { vehicle: { vin: '5YJ3E1EA5KF000316' } } });
        const eo = await settled(u, other);
        expect(eo.account_data.vehicle).to.deep.equal({ vin: '5YJ3E1EA5KF000316', year: 2019, make: 'TESLA' });
        expect(eo.vin_decode.source).to.equal('offline');
        expect(eo.job_status).to.equal('complete');
        const moves = (await u.engine.outbox.forEntry(other)).map((x) => x.name);
        expect(moves, 'a plain create moves through no extra phase').to.deep.equal([
          'title.job_status.pending',
          'title.job_status.complete',
        ]);
      } finally {
        await u.stop();
      }
    } finally {
      await t.stop();
    }
  });
});
