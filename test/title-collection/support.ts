/** Shared pieces of the title-collection tests: entries, decoding a label, a carrier server for the http provider. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { decodeImage, drawLabel } from '../../plugins/title-collection/index.js';
import { vinFor } from '../pipeline/fixtures/test-stages.js';

export const FACILITY = {
  recipient_name: 'Acme Lending Title Dept',
  street1: '100 Congress Ave',
  street2: 'Suite 400',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
};
export const SECRET = 'carrier-webhook-secret-for-tests';

let n = 0;
/** A TX entry body: a new lien on a paper title (the original must come back) unless `o` says otherwise. */
export function entryBody(
  base: number,
  o: { state?: string; electronic?: boolean; newLien?: boolean; titleNumber?: string } = {},
): Record<string, unknown> {
  const vin = vinFor(base + n++);
  return {
    account_data: {
      vehicle: {
        vin,
        title: {
          number: o.titleNumber ?? '12345678901',
          issuing_state: o.state ?? 'TX',
          ...(o.electronic ? { is_electronic: true } : {}),
          owners: [{ name: 'Jane Q Borrower' }],
        },
      },
      loan: {
        ...(o.newLien === false ? {} : { new_lienholder: { name: 'Acme Lending' } }),
        borrower: [
          {
            name: 'Jane Q Borrower',
            addr: { street1: '12 Elm St', city: 'Round Rock', state: o.state ?? 'TX', zip: '78664' },
          },
        ],
      },
    },
  };
}

const run = promisify(execFile);

/** Rasterizes the first page of a PDF with poppler's pdftoppm (200 dpi) and reads its Code 128 barcodes. */
export async function code128OfPdf(pdf: Buffer): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'titled-label-'));
  try {
    writeFileSync(join(dir, 'label.pdf'), pdf);
    await run('pdftoppm', ['-r', '200', '-png', '-singlefile', join(dir, 'label.pdf'), join(dir, 'page')]);
    return await decodeImage(readFileSync(join(dir, 'page.png')), 'Code128');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** pdftotext of a PDF (the addresses on the label). */
export async function textOfPdf(pdf: Buffer): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'titled-label-'));
  try {
    writeFileSync(join(dir, 'label.pdf'), pdf);
    const { stdout } = await run('pdftotext', ['-layout', join(dir, 'label.pdf'), '-']);
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A carrier API on 127.0.0.1 (the http provider's wire format, docs/title-collection.md). */
export class FakeCarrier {
  server?: Server;
  port = 0;
  readonly shipments: Record<string, any>[] = [];
  readonly idempotencyKeys: string[] = [];
  authorization: string[] = [];
  /** Every request, `METHOD /path`. */
  readonly requests: string[] = [];
  /** Tracking events by tracking code (what GET /trackers/:code answers). */
  readonly events = new Map<string, Record<string, unknown>[]>();
  /** Refund (void) requests answered 2xx: shipment id and Idempotency-Key. */
  readonly refunds: { id: string; idempotencyKey: string }[] = [];
  /** The next N refund requests answer 503. */
  failRefunds = 0;
  /** Shipment ids whose refund is answered `rejected` (the label was used). */
  readonly rejectRefunds = new Set<string>();

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on(
        'end',
        () =>
          void this.answer(req.method ?? '', req.url ?? '', req.headers, Buffer.concat(chunks).toString('utf8')).then(
            ([status, body]) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
          ),
      );
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  private async answer(
    method: string,
    url: string,
    headers: Record<string, unknown>,
    raw: string,
  ): Promise<[number, unknown]> {
    this.authorization.push(String(headers.authorization ?? ''));
    this.requests.push(`${method} ${url}`);
    if (method === 'POST' && url === '/shipments') {
      const body = JSON.parse(raw) as Record<string, any>;
      const k = this.shipments.push(body);
      this.idempotencyKeys.push(String(headers['idempotency-key'] ?? ''));
      const code = `LIVE${String(k).padStart(8, '0')}`;
      const label = await drawLabel({
        from: body.from_address,
        to: body.to_address,
        carrier: 'FakePost',
        service: body.service,
        tracking_number: code,
        reference: body.reference,
      });
      return [
        200,
        {
          id: `shp_${k}`,
          carrier: 'FakePost',
          service: body.service,
          tracking_code: code,
          tracking_url: `${this.url}/track/${code}`,
          label: { pdf_base64: label.toString('base64') },
        },
      ];
    }
    const refund = /^\/shipments\/([^/]+)\/refund$/.exec(url);
    if (method === 'POST' && refund) {
      const id = decodeURIComponent(refund[1]!);
      if (!/^shp_\d+$/.test(id) || Number(id.slice(4)) > this.shipments.length) return [404, { error: 'no shipment' }];
      if (this.failRefunds > 0) {
        this.failRefunds--;
        return [503, { error: 'refunds are down' }];
      }
      this.refunds.push({ id, idempotencyKey: String(headers['idempotency-key'] ?? '') });
      return [200, { id, refund_status: this.rejectRefunds.has(id) ? 'rejected' : 'submitted' }];
    }
    const m = /^\/trackers\/([A-Z0-9]+)$/.exec(url);
    if (method === 'GET' && m) return [200, { tracking_code: m[1], events: this.events.get(m[1]!) ?? [] }];
    return [404, { error: 'no route' }];
  }

  async close(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
