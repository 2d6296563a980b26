/**
 * Remote online notarization (RON) behind a provider interface: `sandbox`
 * completes a session at once with deterministic values (notary, commission,
 * journal entry, recording reference); `http` asks a vendor's endpoint
 * (`POST <url>/sessions`, `GET <url>/sessions/<id>`). docs/signing.md.
 */
import { createHash } from 'node:crypto';

export interface RonSession {
  session_id: string;
  status: 'pending' | 'completed' | 'failed';
  notary?: { name: string; commission: string; state: string; commission_expires?: string };
  journal_entry?: { id: string; at: string; method: string; signers: string[]; documents: string[] };
  recording_ref?: string;
  completed_at?: string;
}

export interface RonStart {
  request_id: string;
  state: string;
  signers: { id: string; name: string; email?: string }[];
  documents: { filename: string; sha256: string }[];
}

export interface RonProvider {
  readonly name: string;
  start(input: RonStart): Promise<RonSession>;
  get(sessionId: string): Promise<RonSession>;
}

/** Deterministic sandbox: every session completes at once; values derive from the request id. */
export class SandboxRon implements RonProvider {
  readonly name = 'sandbox';
  private readonly sessions = new Map<string, RonSession>();

  async start(input: RonStart): Promise<RonSession> {
    const h = createHash('sha256').update(input.request_id).digest('hex');
    const session: RonSession = {
      session_id: `ron-sbx-${h.slice(0, 12)}`,
      status: 'completed',
      notary: {
        name: 'Sandbox Notary (not a real notary)',
        commission: `SBX-${h.slice(12, 20).toUpperCase()}`,
        state: input.state || 'TX',
      },
      journal_entry: {
        id: `J-${h.slice(20, 28).toUpperCase()}`,
        at: new Date().toISOString(),
        method: 'audio-video (sandbox)',
        signers: input.signers.map((s) => s.name),
        documents: input.documents.map((d) => d.filename),
      },
      recording_ref: `sandbox://ron-recordings/${h.slice(0, 24)}`,
      completed_at: new Date().toISOString(),
    };
    this.sessions.set(session.session_id, session);
    return session;
  }

  async get(sessionId: string): Promise<RonSession> {
    return this.sessions.get(sessionId) ?? { session_id: sessionId, status: 'failed' };
  }
}

export class HttpRon implements RonProvider {
  readonly name = 'http';
  constructor(private readonly url: string) {}

  private async call(path: string, init?: RequestInit): Promise<RonSession> {
    const res = await fetch(`${this.url.replace(/\/$/, '')}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`RON provider answered ${res.status}`);
    const s = (await res.json()) as RonSession;
    if (typeof s.session_id !== 'string' || !['pending', 'completed', 'failed'].includes(s.status))
      throw new Error('RON provider answered an unknown shape');
    return s;
  }

  start(input: RonStart): Promise<RonSession> {
    return this.call('/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
  }

  get(sessionId: string): Promise<RonSession> {
    return this.call(`/sessions/${encodeURIComponent(sessionId)}`);
  }
}

export function ronProvider(o: { provider: 'sandbox' | 'http'; url?: string }): RonProvider {
  if (o.provider === 'http') {
    if (!o.url) throw new Error('plugins.signing.ron.url is required with the http provider');
    return new HttpRon(o.url);
  }
  return new SandboxRon();
}
