/**
 * Notifications to signers: email over SMTP (nodemailer) and SMS through a
 * provider (`sandbox`: kept in memory, for tests and demos; `http`: a JSON
 * POST {to, text} to a configurable endpoint). docs/signing.md.
 */
import type { Transporter } from 'nodemailer';
import type { SigningOptions } from './options.js';

export interface Message {
  to: string;
  subject: string;
  text: string;
}

export interface SmsProvider {
  readonly name: string;
  send(to: string, text: string): Promise<void>;
}

/** Deterministic sandbox: keeps every message (newest last) and never fails. */
export class SandboxSms implements SmsProvider {
  readonly name = 'sandbox';
  readonly sent: { to: string; text: string; at: number }[] = [];
  async send(to: string, text: string): Promise<void> {
    this.sent.push({ to, text, at: Date.now() });
  }
}

export class HttpSms implements SmsProvider {
  readonly name = 'http';
  constructor(
    private readonly url: string,
    private readonly token?: string,
  ) {}
  async send(to: string, text: string): Promise<void> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) },
      body: JSON.stringify({ to, text }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`SMS provider answered ${res.status}`);
  }
}

export function smsProvider(o: SigningOptions['sms']): SmsProvider | null {
  if (o.provider === 'none') return null;
  if (o.provider === 'http') {
    if (!o.url) throw new Error('plugins.signing.sms.url is required with the http provider');
    return new HttpSms(o.url, o.token);
  }
  return new SandboxSms();
}

export class Notifier {
  /** The SMTP transport, made on the first e-mail: nodemailer is loaded then, not by every daemon (about 2.5 MB). */
  private mail?: Promise<Transporter>;
  constructor(
    private readonly o: SigningOptions,
    readonly sms: SmsProvider | null,
  ) {}

  private transport(): Promise<Transporter> | undefined {
    const smtp = this.o.smtp;
    if (!smtp) return undefined;
    this.mail ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure,
        ignoreTLS: !smtp.secure && smtp.host === '127.0.0.1',
        ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
      }),
    );
    return this.mail;
  }

  /** Sends the signer his link by email and SMS (what is configured and what he has); returns the channels used. */
  async toSigner(
    person: Record<string, unknown>,
    link: string,
    o: { reminder: boolean; instructions?: string; name: string },
  ): Promise<string[]> {
    const used: string[] = [];
    const email = typeof person.contact_email === 'string' ? person.contact_email : '';
    const phone = typeof person.contact_phone === 'string' ? person.contact_phone : '';
    const subject = o.reminder
      ? 'Reminder: documents are waiting for your signature'
      : 'Documents to sign for your vehicle title';
    const text = [
      `Hello ${o.name},`,
      '',
      o.reminder
        ? 'This is a reminder: your vehicle title documents still need your signature.'
        : 'Your vehicle title documents are ready for your signature.',
      ...(o.instructions ? ['', o.instructions] : []),
      '',
      `Open your personal signing link (do not share it): ${link}`,
      '',
    ].join('\n');
    const mail = email ? this.transport() : undefined;
    if (mail) {
      await (await mail).sendMail({ from: this.o.smtp!.from, to: email, subject, text });
      used.push('email');
    }
    if (this.sms && phone) {
      await this.sms.send(phone, `${subject}: ${link}`);
      used.push('sms');
    }
    return used;
  }

  close(): void {
    void this.mail?.then(
      (t) => t.close(),
      () => undefined,
    );
  }
}
