/** The fake portal's HTML pages (plain server-rendered forms, as many state portals are). */
import { esc } from './forms.js';

export function layout(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)} - State Title Portal (FAKE)</title>
<style>body{font-family:sans-serif;margin:2em;max-width:44em}label{display:block;margin:.6em 0}
.error{color:#b00;font-weight:bold}.banner{background:#fe0;padding:.3em}dt{font-weight:bold}</style></head>
<body><div class="banner">FAKE STATE TITLE PORTAL - for tests and the sandbox; files nothing</div>
<h1>${esc(title)}</h1>${body}</body></html>`;
}

const err = (e?: string) => (e ? `<p class="error" id="error">${esc(e)}</p>` : '');
const input = (name: string, label: string, v?: string) =>
  `<label>${esc(label)} <input name="${name}" id="${name}" value="${esc(v ?? '')}"></label>`;

export function loginPage(captcha: boolean, e?: string): string {
  const challenge = captcha
    ? '<div id="captcha"><p>Prove you are a person: type the characters in the picture.</p>' +
      '<input name="captcha" id="captcha-answer"></div>'
    : '';
  return layout(
    'Sign in',
    `${err(e)}<form method="post" action="/login">${input('username', 'User name')}
<label>Password <input type="password" name="password" id="password"></label>${challenge}
<button id="login" type="submit">Sign in</button></form>`,
  );
}

export function vehiclePage(d: Record<string, string>, e?: string): string {
  return layout(
    'Application - step 1 of 3: vehicle',
    `${err(e)}<form method="post" action="/apply/vehicle">
${input('vin', 'VIN', d.vin)}${input('year', 'Model year', d.year)}${input('make', 'Make', d.make)}
<button id="next" type="submit">Next</button></form>`,
  );
}

export function ownerPage(d: Record<string, string>, e?: string): string {
  return layout(
    'Application - step 2 of 3: owner and lienholder',
    `${err(e)}<form method="post" action="/apply/owner">
${input('owner_name', 'Owner name', d.owner_name)}${input('lienholder_name', 'Lienholder name', d.lienholder_name)}
${input('reference', 'Your reference', d.reference)}<button id="next" type="submit">Next</button></form>`,
  );
}

export function documentsPage(n: number, e?: string): string {
  return layout(
    'Application - step 3 of 3: documents',
    `${err(e)}<p id="doc-count">${n} document(s) attached</p>
<form method="post" action="/apply/documents" enctype="multipart/form-data">
<label>Documents (PDF) <input type="file" name="document" id="document" multiple></label>
<button id="next" type="submit">Next</button></form>`,
  );
}

export function reviewPage(d: Record<string, string>, docs: string[]): string {
  const rows = ['vin', 'year', 'make', 'owner_name', 'lienholder_name', 'reference']
    .map((k) => `<dt>${k}</dt><dd id="review-${k}">${esc(d[k])}</dd>`)
    .join('');
  return layout(
    'Review your application',
    `<dl id="summary">${rows}<dt>documents</dt><dd id="review-documents">${esc(docs.join(', '))}</dd></dl>
<form method="post" action="/apply/submit"><button id="submit" type="submit">Submit application</button></form>`,
  );
}

export interface AppView {
  no: string;
  status: string;
  feedback?: string;
  reference: string;
  vin: string;
  rounds: number;
}

export function applicationPage(a: AppView, confirmation: boolean): string {
  const follow =
    a.status === 'ACTION_NEEDED'
      ? `<form method="post" action="/application/${esc(a.no)}/followup" enctype="multipart/form-data"
id="followup-form">
<label>Requested documents <input type="file" name="document" id="followup" multiple></label>
<button id="followup-submit" type="submit">Send documents</button></form>`
      : '';
  return layout(
    confirmation ? 'Application received' : 'Application status',
    `<p>Application number: <strong id="app-no">${esc(a.no)}</strong></p>
<p>VIN: <span id="app-vin">${esc(a.vin)}</span></p>
<p>Status: <strong id="status">${esc(a.status)}</strong></p>
${a.feedback ? `<p id="feedback">${esc(a.feedback)}</p>` : ''}
<p>Follow-up rounds: <span id="rounds">${a.rounds}</span></p>${follow}`,
  );
}

export function searchPage(found: { no: string }[]): string {
  return layout(
    'Find an application',
    `<ul id="results">${found
      .map((a) => `<li><a class="app" href="/application/${esc(a.no)}">${esc(a.no)}</a></li>`)
      .join('')}</ul>`,
  );
}
