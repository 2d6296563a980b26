/**
 * The console's entry page: every part of an entry an operator works with,
 * rendered from the entry JSON as GET /title/{id} shows it (members of
 * plugins built elsewhere, such as `signature_requests`, `title_collection`
 * and `submission_id`, are rendered generically), plus the account data's
 * provenance, the timeline of events and the webhook deliveries.
 */
import type { AccountSource } from '../model/account.js';
import type { TitleEntry } from '../model/entry.js';
import type { ConsoleAction } from '../pipeline/stage.js';
import {
  ACCOUNT_STATUS_MOVES,
  PHYSICAL_TITLE_STATUS_MOVES,
  type AccountStatus,
  type PhysicalTitleStatus,
} from '../status.js';
import { html, isoTime, raw, renderAny, table, valueText, type Html } from './html.js';

export interface TimelineEvent {
  name: string;
  payload: Record<string, unknown>;
  createdAt: number;
}
export interface DeliveryView {
  id: string;
  status: string;
  events: string[];
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: number;
  deliveredAt: number | null;
  replayOf: string | null;
  attemptLog?: {
    attempt: number;
    startedAt: number;
    statusCode: number | null;
    latencyMs: number;
    outcome: string;
    error: string | null;
  }[];
}

export interface EntryPageData {
  entry: TitleEntry;
  /** The entry's account data sources (stored, never in API answers), for provenance. */
  sources: AccountSource[];
  /** JSON pointer -> source id whose value account_data holds. */
  provenance: Record<string, string>;
  timeline: TimelineEvent[];
  /** null: the webhook plugin is not enabled. */
  deliveries: DeliveryView[] | null;
  canAct: boolean;
  csrf: string;
  /** The plugins' actions that apply to this entry (EnginePlugin.consoleActions). */
  pluginActions?: { plugin: string; action: ConsoleAction }[];
}

const PULLS = [
  {
    key: 'nmvtis',
    label: 'NMVTIS',
    fields: ['nmvtis_found_status', 'nmvtis_txn_id', 'nmvtis_pull', 'nmvtis_report_pdf', 'nmvtis_last_fetch'],
  },
  {
    key: 'state',
    label: 'State DMV',
    fields: ['state_found_status', 'state_txn_id', 'state_pull', 'state_report_pdf', 'state_last_fetch'],
  },
  {
    key: 'portal',
    label: 'DMV portal',
    fields: ['portal_found_status', 'portal_pull', 'portal_screenshot', 'portal_last_fetch'],
  },
  {
    key: 'public',
    label: 'Public',
    fields: ['public_found_status', 'public_txn_id', 'public_pull', 'public_report_pdf', 'public_last_fetch'],
  },
  {
    key: 'insurance',
    label: 'Insurance',
    fields: ['insurance_last_fetch', 'insurance_search_result', 'insurance_update_result'],
  },
];

const SECTIONS: [string, string][] = [
  ['summary', 'Summary'],
  ['actions', 'Actions'],
  ['account', 'Account data'],
  ['documents', 'Documents'],
  ['pulls', 'Enrichment pulls'],
  ['fees', 'Fee estimate'],
  ['forms', 'Forms'],
  ['signing', 'Signature requests'],
  ['collection', 'Title collection'],
  ['submission', 'Submission'],
  ['timeline', 'Timeline'],
  ['deliveries', 'Webhook deliveries'],
];

const section = (id: string, body: Html) =>
  html`<section id="${id}" aria-labelledby="${id}-h">
    <h2 id="${id}-h">${SECTIONS.find(([k]) => k === id)![1]}</h2>
    ${body}
  </section>`;
const isImage = (url: string) => /\.(png|jpe?g|gif|webp)(\?|$)/i.test(url);

export function entryPage(d: EntryPageData): Html {
  const e = d.entry;
  return html`<nav class="toc" aria-label="On this page">
      <ul>
        ${SECTIONS.map(([id, label]) => html`<li><a href="#${id}">${label}</a></li>`)}
      </ul>
    </nav>
    ${section('summary', summary(e))} ${section('actions', actions(e, d))} ${section('account', account(e, d))}
    ${section('documents', documents(e))} ${section('pulls', pulls(e))}
    ${section('fees', e.fee_estimate ? renderAny(e.fee_estimate) : html`<p class="muted">No fee estimate.</p>`)}
    ${section('forms', forms(e))}
    ${section(
      'signing',
      Array.isArray(e.signature_requests) && e.signature_requests.length
        ? renderAny(e.signature_requests)
        : html`<p class="muted">No signature requests.</p>`,
    )}
    ${section('collection', e.title_collection ? renderAny(e.title_collection) : html`<p class="muted">No title collection.</p>`)}
    ${section('submission', submission(e))} ${section('timeline', timeline(d.timeline))}
    ${section('deliveries', deliveries(d))}`;
}

function summary(e: TitleEntry): Html {
  const rows: [string, unknown][] = [
    ['Entry id', e.entryId],
    ['VIN', e.VIN],
    ['State', e.state],
    ['Borrower', e.Borrower],
    ['Lender loan id', e.lenderLoanId],
    ['Group', e.groupId],
    ['Job status', e.job_status],
    ['Account status', e.account_status],
    ['Physical title status', e.physical_title_status],
    ['Forms status', e.forms_status],
    ['Created by', e.userId],
    ['Created', isoTime(e.createdAt)],
    ['Last modified', isoTime(e.last_modified)],
  ];
  return html`<dl class="kv summary">
    ${rows.map(
      ([k, v]) =>
        html`<dt>${k}</dt>
          <dd>${valueText(v)}</dd>`,
    )}
  </dl>`;
}

function actions(e: TitleEntry, d: EntryPageData): Html {
  if (!d.canAct) return html`<p class="muted">Your role may only read.</p>`;
  const moves = ACCOUNT_STATUS_MOVES[e.account_status as AccountStatus] ?? [];
  const statusForm = moves.length
    ? html`<form method="post" action="/console/entries/${e.entryId}/account-status" class="inline">
        <input type="hidden" name="_csrf" value="${d.csrf}" />
        <div class="field">
          <label for="account-status">New account status</label>
          <select id="account-status" name="status">
            ${moves.map((m) => html`<option value="${m}">${m}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="status-note">Note (optional)</label
          ><input id="status-note" name="note" type="text" maxlength="500" />
        </div>
        <button type="submit">Change account status</button>
      </form>`
    : html`<p>account_status ${e.account_status} is final.</p>`;
  const physical =
    PHYSICAL_TITLE_STATUS_MOVES[(e.physical_title_status ?? 'none') as PhysicalTitleStatus | 'none'] ?? [];
  const physicalForm = physical.length
    ? html`<form method="post" action="/console/entries/${e.entryId}/physical-status" class="inline">
        <input type="hidden" name="_csrf" value="${d.csrf}" />
        <div class="field">
          <label for="physical-status">Physical title (e.g. log a received title)</label>
          <select id="physical-status" name="status">
            ${physical.map((m) => html`<option value="${m}">${m}</option>`)}
          </select>
        </div>
        <button type="submit">Change physical title status</button>
      </form>`
    : '';
  return html`${statusForm}${physicalForm}
    <form method="post" action="/console/entries/${e.entryId}/forms" class="inline">
      <input type="hidden" name="_csrf" value="${d.csrf}" /><button type="submit">Regenerate forms</button>
    </form>
    ${(d.pluginActions ?? []).map(({ plugin, action }) => pluginActionForm(e, d.csrf, plugin, action))}`;
}

/** One plugin action: its fields (text, or a select of its options) and its button. */
function pluginActionForm(e: TitleEntry, csrf: string, plugin: string, a: ConsoleAction): Html {
  const id = (f: string) => `pa-${plugin}-${a.name}-${f}`;
  return html`<form method="post" action="/console/entries/${e.entryId}/plugin/${plugin}/${a.name}" class="inline">
    <input type="hidden" name="_csrf" value="${csrf}" />
    ${(a.fields ?? []).map(
      (f) =>
        html`<div class="field">
          <label for="${id(f.name)}">${f.label}${f.required ? '' : ' (optional)'}</label>
          ${
            f.options
              ? html`<select id="${id(f.name)}" name="${f.name}">
                  ${f.required ? '' : html`<option value=""></option>`}
                  ${f.options.map((o) => html`<option value="${o}">${o}</option>`)}
                </select>`
              : html`<input id="${id(f.name)}" name="${f.name}" type="text" maxlength="500" />`
          }
        </div>`,
    )}
    <button type="submit">${a.label}</button>
  </form>`;
}

function account(e: TitleEntry, d: EntryPageData): Html {
  const byId = new Map(d.sources.map((s) => [s.id, s]));
  const leaves = flatten(e.account_data ?? {}, '');
  const sourceText = (ptr: string) => {
    const id = d.provenance[ptr];
    if (!id) return d.sources.some((s) => s.kind === 'client') ? 'client request' : '—';
    const s = byId.get(id);
    return s ? `${s.kind}${s.type ? ` ${s.type}` : ''}${s.at ? ` (${s.at})` : ''}` : id;
  };
  const discrepancies =
    (e.account_discrepancies as { items?: { field_path: string; observations: unknown[] }[] } | undefined)?.items ?? [];
  const review = e.account_review as { summary?: string[]; other_titles?: unknown[] } | undefined;
  return html`${table(
      ['Field', 'Value', 'Source'],
      leaves.map(([ptr, v]) => [html`<code>${ptr}</code>`, valueText(v), sourceText(ptr)]),
      { indent: 4, caption: 'Fields, with the source whose value the entry holds' },
    )}
    <h3>Discrepancies</h3>
    ${
      discrepancies.length
        ? table(
            ['Field', 'Observations'],
            discrepancies.map((x) => [html`<code>${x.field_path}</code>`, renderAny(x.observations)]),
            { indent: 10 },
          )
        : html`<p class="muted">No discrepancies between sources.</p>`
    }
    <h3>Review</h3>
    ${
      review?.summary?.length
        ? html`<ul>
            ${review.summary.map((s) => html`<li>${s}</li>`)}
          </ul>`
        : html`<p class="muted">Nothing to review.</p>`
    }
    ${review?.other_titles?.length ? renderAny(review.other_titles) : ''}
    <h3>Sources</h3>
    ${
      d.sources.length
        ? table(
            ['Id', 'Kind', 'Type', 'At'],
            d.sources.map((s) => [html`<code>${s.id}</code>`, s.kind, s.type ?? '', s.at ?? '']),
            { indent: 10 },
          )
        : html`<p class="muted">No sources recorded.</p>`
    }`;
}

/** Leaf values of account data by JSON pointer (arrays by index). */
function flatten(v: unknown, ptr: string, out: [string, unknown][] = []): [string, unknown][] {
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) flatten(x, `${ptr}/${k}`, out);
  } else if (v !== null && v !== undefined) {
    out.push([ptr, v]);
  }
  return out;
}

function documents(e: TitleEntry): Html {
  const docs = Array.isArray(e.attachment) ? e.attachment : [];
  if (!docs.length) return html`<p class="muted">No documents.</p>`;
  return html`<ul class="docs">
    ${docs.map((doc, i) => {
      const d = doc as unknown as Record<string, unknown>;
      const url = typeof d.store_key === 'string' ? d.store_key : '';
      const name = String(d.display_name ?? `document ${i + 1}`);
      const preview =
        url && isImage(url)
          ? html`<img src="${url}" alt="Page preview of ${name}" loading="lazy" />`
          : url
            ? html`<iframe src="${url}" title="Preview of ${name}" loading="lazy"></iframe>`
            : '';
      return html`<li class="doc">
        <h3>${name}</h3>
        <dl class="kv">
          <dt>Type</dt>
          <dd>${valueText(d.document_type)}</dd>
          <dt>Pages</dt>
          <dd>${valueText(d.pages ?? d.page_numbers)}</dd>
          <dt>Analyzed</dt>
          <dd>${valueText(d.analyzed_at)}</dd>
          <dt>Extraction</dt>
          <dd>${valueText(d.json_path)}</dd>
          <dt>File</dt>
          <dd>${url ? html`<a href="${url}" download>Download ${name}</a>` : '—'}</dd>
        </dl>
        ${preview}
      </li>`;
    })}
  </ul>`;
}

function pulls(e: TitleEntry): Html {
  const rec = e as Record<string, unknown>;
  return html`<table class="grid">
    <thead>
      <tr>
        <th scope="col">Source</th>
        <th scope="col">Details</th>
      </tr>
    </thead>
    <tbody>
      ${PULLS.map(
        (p) =>
          html`<tr>
            <th scope="row">${p.label}</th>
            <td>
              <dl class="kv">
                ${p.fields
                  .filter((f) => rec[f] !== undefined)
                  .map(
                    (f) =>
                      html`<dt>${f}</dt>
                        <dd>${valueText(rec[f])}</dd>`,
                  )}
              </dl>
              ${p.fields.some((f) => rec[f] !== undefined) ? '' : html`<span class="muted">not pulled</span>`}
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function forms(e: TitleEntry): Html {
  const rec = e as Record<string, unknown>;
  const keys = Object.keys(rec).filter(
    (k) => k.startsWith('form_') && typeof rec[k] === 'string' && /^https?:/.test(rec[k] as string),
  );
  const downloads = (rec.form_downloads ?? {}) as Record<string, number>;
  const lists = ['forms_poa', 'forms_name_oats', 'forms_non_obligor'].filter(
    (k) => Array.isArray(rec[k]) && (rec[k] as unknown[]).length,
  );
  return html`<p>Forms status: ${valueText(rec.forms_status)}</p>
    ${
      keys.length
        ? html`<ul class="forms">
            ${keys.map(
              (k) =>
                html`<li>
                  <h3>${k}</h3>
                  <p>
                    <a href="${rec[k] as string}" download>Download ${k}</a> ·
                    <a href="${rec[k] as string}" target="_blank" rel="noopener">Open ${k}</a>
                    ${downloads[k] !== undefined ? html` · downloaded ${downloads[k]} times` : ''}
                  </p>
                  <details>
                    <summary>Preview ${k}</summary>
                    <iframe src="${rec[k] as string}" title="Preview of ${k}" loading="lazy"></iframe>
                  </details>
                </li>`,
            )}
          </ul>`
        : html`<p class="muted">No forms generated.</p>`
    }
    ${lists.map(
      (k) =>
        html`<h3>${k}</h3>
          ${renderAny(rec[k])}`,
    )}
    ${rec.final_packet_indices ? html`<p>Final packet pages: ${valueText(rec.final_packet_indices)}</p>` : ''}`;
}

function submission(e: TitleEntry): Html {
  const rec = e as Record<string, unknown>;
  const parts = ['submission_id', 'submission', 'submissions', 'sftp_exported_at'].filter((k) => rec[k] !== undefined);
  if (!parts.length) return html`<p class="muted">Not submitted.</p>`;
  return html`<dl class="kv">
    ${parts.map(
      (k) =>
        html`<dt>${k}</dt>
          <dd>${renderAny(rec[k])}</dd>`,
    )}
  </dl>`;
}

function timeline(events: TimelineEvent[]): Html {
  if (!events.length) return html`<p class="muted">No events.</p>`;
  return html`<ol class="timeline">
    ${events.map(
      (ev) =>
        html`<li>
          <time>${isoTime(ev.createdAt)}</time>
          <strong>${ev.name}</strong>
          ${Object.keys(ev.payload).length ? html`<span class="payload">${payloadText(ev.payload)}</span>` : ''}
        </li>`,
    )}
  </ol>`;
}

function payloadText(p: Record<string, unknown>): string {
  return Object.entries(p)
    .filter(([, v]) => v !== undefined && v !== null && typeof v !== 'object')
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join(' · ');
}

function deliveries(d: EntryPageData): Html {
  if (d.deliveries === null) return html`<p class="muted">Webhook delivery is not enabled.</p>`;
  if (!d.deliveries.length) return html`<p class="muted">No webhook deliveries.</p>`;
  return html`<table class="grid">
    <thead>
      <tr>
        <th scope="col">Delivery</th>
        <th scope="col">Events</th>
        <th scope="col">Status</th>
        <th scope="col">Attempts</th>
        <th scope="col">Created</th>
        <th scope="col">Action</th>
      </tr>
    </thead>
    <tbody>
      ${d.deliveries.map(
        (x) =>
          html`<tr>
            <td><code>${x.id}</code>${x.replayOf ? html`<br /><small>replay of ${x.replayOf}</small>` : ''}</td>
            <td>${x.events.join(', ')}</td>
            <td>
              ${x.status}${x.lastStatusCode !== null ? ` (HTTP ${x.lastStatusCode})` : ''}${x.lastError ? html`<br /><small>${x.lastError}</small>` : ''}
            </td>
            <td>
              ${x.attempts}${
                x.attemptLog?.length
                  ? html`<ul>
                      ${x.attemptLog.map((a) => html`<li>#${a.attempt} ${a.outcome} ${a.statusCode ?? ''} ${a.latencyMs} ms</li>`)}
                    </ul>`
                  : ''
              }
            </td>
            <td>${isoTime(x.createdAt)}</td>
            <td>
              ${
                d.canAct && x.status !== 'pending' && x.status !== 'delivering'
                  ? html`<form method="post" action="/console/deliveries/${x.id}/replay">
                      <input type="hidden" name="_csrf" value="${d.csrf}" /><input
                        type="hidden"
                        name="entry"
                        value="${d.entry.entryId}"
                      />
                      <button type="submit" aria-label="Replay delivery ${x.id}">Replay</button>
                    </form>`
                  : raw('')
              }
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
