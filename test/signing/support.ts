/**
 * The signing tests' set-up: a local SMTP catcher (smt-server), a TX entry
 * with two AND owners, and an engine with intake, forms, signing and webhook.
 */
import { SMTPServer } from 'smtp-server';
import { expect } from 'chai';
import type { EngineOptions } from '../../core/index.js';
import type { SigningPlugin } from '../../plugins/signing/index.js';
import type { WebhookPlugin } from '../../plugins/webhook/index.js';
import { startTestEngine, type Dialect, type TestEngine } from '../helpers/engine.js';
import { createEntry, waitForStatus } from '../http/support.js';
import { FAST_WEBHOOKS } from '../webhook/support.js';

export interface Mail {
  to: string;
  raw: string;
  link?: string;
}

/** A local SMTP server that keeps every message (what the plugin's nodemailer sends). */
export class SmtpCatcher {
  readonly mails: Mail[] = [];
  private server?: SMTPServer;
  port = 0;

  async listen(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks)
            .toString('utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '=');
          const link = /(https?:\/\/\S+\/sign\/[A-Za-z0-9_-]+)/.exec(raw)?.[1];
          this.mails.push({
            to: session.envelope.rcptTo.map((r) => r.address).join(','),
            raw,
            ...(link ? { link } : {}),
          });
          cb();
        });
      },
    });
    await new Promise<void>((res) => this.server!.listen(0, '127.0.0.1', () => res()));
    this.port = (this.server.server.address() as { port: number }).port;
    return this;
  }

  close(): Promise<void> {
    return new Promise((res) => (this.server ? this.server.close(() => res()) : res()));
  }
}

const addr = (street1: string, city: string, state: string, zip: string) => ({ street1, city, state, zip });

/** A TX title with two AND owners (both borrowers), a new lien, contacts for both. */
export function txTwoOwners(): Record<string, unknown> {
  const jane = {
    type: 'PERSON',
    name: 'Jane Q Borrower',
    id: 'owner-1',
    contact_email: 'jane@example.com',
    contact_phone: '5125550100',
    addr: addr('1 Main St', 'Austin', 'TX', '78701'),
    dlid: { number: 'D1234567', state: 'TX' },
  };
  const robert = {
    type: 'PERSON',
    name: 'Robert T Coowner',
    id: 'owner-2',
    contact_email: 'robert@example.com',
    contact_phone: '5125550101',
    addr: addr('1 Main St', 'Austin', 'TX', '78701'),
    dlid: { number: 'C7654321', state: 'TX' },
  };
  return {
    account_data: {
      vehicle: {
        vin: '1HGCM82633A004352',
        year: 2019,
        make: 'Honda',
        model: 'Accord',
        type: 'AUTO',
        title: {
          number: 'T-100200',
          issuing_state: 'TX',
          conjunction: 'AND',
          is_and: true,
          owners: [jane, robert],
          odometer_reading: '45210',
        },
      },
      loan: {
        loan_id: 'LN-0001',
        borrower: [jane, robert],
        security_agreement_sign_date: '2026-11-01',
        loan_amount: 18000,
        new_lienholder: {
          type: 'LIENHOLDER',
          name: 'Acme Auto Finance LLC',
          addr: addr('500 Lender Way', 'Dallas', 'TX', '75201'),
        },
      },
      sale: { state: 'TX' },
    },
  };
}

export interface SigningTestEngine extends TestEngine {
  signing: SigningPlugin;
  wh: WebhookPlugin;
}

export async function startSigningEngine(
  o: {
    dialect?: Dialect;
    signing?: Record<string, unknown>;
    options?: EngineOptions;
    stages?: string[];
    dataDir?: string;
  } = {},
): Promise<SigningTestEngine> {
  const t = await startTestEngine({
    dialect: o.dialect,
    options: o.options,
    dataDir: o.dataDir,
    config: {
      stages: o.stages ?? ['intake', 'forms', 'signing', 'webhook'],
      allowHosts: ['127.0.0.1'],
      plugins: { webhook: FAST_WEBHOOKS, signing: { pollIntervalMs: 50, ...o.signing } },
    },
  });
  const signing = t.engine.plugins.find((p) => p.name === 'signing') as SigningPlugin;
  const wh = t.engine.plugins.find((p) => p.name === 'webhook') as WebhookPlugin;
  return Object.assign(t, { signing, wh });
}

/** Creates the TX entry and waits until its forms are generated. */
export async function txEntry(t: TestEngine): Promise<{ id: string; entry: any }> {
  const id = await createEntry(t, txTwoOwners());
  const entry = await waitForStatus(t, id);
  expect(entry.forms_status, JSON.stringify(entry.forms_report)).to.equal('generated');
  return { id, entry };
}

/** Signs through the page without JavaScript: a plain form post (what curl does). */
export async function signWithoutJs(
  link: string,
  typed: string,
  extra: Record<string, string> = {},
): Promise<Response> {
  const body = new URLSearchParams({ consent: 'yes', typed_name: typed, action: 'sign', ...extra });
  return fetch(link, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'curl/8.5' },
    redirect: 'manual',
  });
}
