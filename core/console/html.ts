/**
 * HTML helpers of the operator console: escaping, the page layout, tables and
 * form fields, and a generic renderer for members whose shape plugins decide
 * (signature requests, title collection, submissions, fee estimates).
 */

/** Text made safe for HTML element content and attribute values. */
export function esc(v: unknown): string {
  return String(v ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** A marked-up fragment (already escaped): template literals join these without escaping them again. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Tagged template: interpolated values are escaped unless they are Html (or arrays of Html). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Html(out);
}

function render(v: unknown): string {
  if (v instanceof Html) return v.text;
  if (Array.isArray(v)) return v.map(render).join('');
  if (v === undefined || v === null || v === false) return '';
  return esc(v);
}

export const raw = (s: string) => new Html(s);

const isUrl = (v: unknown): v is string => typeof v === 'string' && /^https?:\/\//.test(v);

/** A link for URLs, else the text; long text is kept whole (the CSS wraps it). */
export function valueText(v: unknown): Html {
  if (v === null || v === undefined || v === '') return html`<span class="muted">—</span>`;
  if (isUrl(v) && /\.(png|jpe?g|gif|webp)(\?|$)/i.test(v)) {
    return html`<a href="${v}" rel="noopener" target="_blank"
      ><img class="thumb" src="${v}" alt="${linkLabel(v)}" loading="lazy"
    /></a>`;
  }
  if (isUrl(v)) return html`<a href="${v}" rel="noopener" target="_blank">${linkLabel(v)}</a>`;
  if (typeof v === 'object') return html`<code>${JSON.stringify(v)}</code>`;
  return html`${String(v)}`;
}

function linkLabel(url: string): string {
  try {
    const u = new URL(url);
    const last = u.pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : u.host;
  } catch {
    return url;
  }
}

/** Any JSON value as nested description lists and tables (arrays of objects become tables). */
export function renderAny(v: unknown, depth = 0): Html {
  if (Array.isArray(v)) {
    if (v.length === 0) return html`<span class="muted">none</span>`;
    if (v.every((x) => x && typeof x === 'object' && !Array.isArray(x)) && depth < 3) {
      const cols = [...new Set(v.flatMap((x) => Object.keys(x as object)))].slice(0, 12);
      return html`<table class="grid">
        <thead>
          <tr>
            ${cols.map((c) => html`<th scope="col">${c}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${v.map(
            (row) =>
              html`<tr>
                ${cols.map((c) => html`<td>${cell((row as Record<string, unknown>)[c], depth)}</td>`)}
              </tr>`,
          )}
        </tbody>
      </table>`;
    }
    return html`<ul>
      ${v.map((x) => html`<li>${renderAny(x, depth + 1)}</li>`)}
    </ul>`;
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return html`<span class="muted">empty</span>`;
    return html`<dl class="kv">
      ${entries.map(
        ([k, x]) =>
          html`<dt>${k}</dt>
            <dd>${depth > 4 ? valueText(x) : renderAny(x, depth + 1)}</dd>`,
      )}
    </dl>`;
  }
  return valueText(v);
}

function cell(v: unknown, depth: number): Html {
  return v && typeof v === 'object' ? renderAny(v, depth + 1) : valueText(v);
}

/**
 * A table of the console's `grid` kind: a header cell per column, then a row per item of `rows`, a cell per
 * column (each value escaped unless it is Html, as in `html`). `indent` is how far the table is indented in the
 * page's markup (the spaces before its `</table>`): the whitespace between the tags is the same as when each page
 * wrote its tables out by hand.
 */
export function table(
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  o: { indent: number; caption?: unknown; className?: string },
): Html {
  const at = (n: number) => `\n${' '.repeat(o.indent + n)}`;
  const caption = o.caption === undefined ? '' : `${at(2)}<caption>${at(4)}${render(o.caption)}${at(2)}</caption>`;
  const head = columns.map((c) => `${at(6)}<th scope="col">${esc(c)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `${at(10)}<td>${render(c)}</td>`).join('')}${at(8)}</tr>`);
  return raw(
    `<table class="${esc(o.className ?? 'grid')}">${caption}${at(2)}<thead>${at(4)}<tr>${head}${at(4)}</tr>` +
      `${at(2)}</thead>${at(2)}<tbody>${at(4)}${body.join('')}${at(2)}</tbody>${at(0)}</table>`,
  );
}

export interface LayoutOptions {
  title: string;
  /** The signed-in user's line (organization, role); absent on the sign-in page. */
  who?: { org: string; role: string; orgs?: string[]; csrf: string };
  /** The navigation item to mark as current. */
  nav?: 'entries' | 'webhooks' | 'settings' | 'import';
  flash?: { kind: 'ok' | 'error'; text: string };
}

/** The page: header with navigation and sign-out, a main landmark, the flash message. */
export function layout(o: LayoutOptions, body: Html): string {
  const navItem = (key: LayoutOptions['nav'], href: string, label: string) =>
    html`<li><a href="${href}" ${o.nav === key ? raw(' aria-current="page"') : ''}>${label}</a></li>`;
  const header = o.who
    ? html`<header class="top">
        <a class="brand" href="/console/entries">titled console</a>
        <nav aria-label="Main">
          <ul>
            ${navItem('entries', '/console/entries', 'Entries')}${navItem('import', '/console/import', 'Import')}
            ${navItem('webhooks', '/console/webhooks', 'Webhooks')}${navItem('settings', '/console/settings', 'Organization')}
            <li><a href="/docs">API reference</a></li>
          </ul>
        </nav>
        <div class="who">
          ${o.who.orgs ? orgSwitch(o.who) : html`<span>${o.who.org}</span>`}
          <span class="role">${o.who.role}</span>
          <form method="post" action="/console/logout">
            <input type="hidden" name="_csrf" value="${o.who.csrf}" /><button type="submit">Sign out</button>
          </form>
        </div>
      </header>`
    : html`<header class="top"><span class="brand">titled console</span></header>`;
  const flash = o.flash
    ? html`<p class="flash ${o.flash.kind}" role="${o.flash.kind === 'error' ? 'alert' : 'status'}">${o.flash.text}</p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(o.title)} · titled</title>
<link rel="stylesheet" href="/console/assets/console.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${header.text}
<main id="main" tabindex="-1">
<h1>${esc(o.title)}</h1>
${render(flash)}
${body.text}
</main>
</body>
</html>
`;
}

function orgSwitch(w: NonNullable<LayoutOptions['who']>): Html {
  return html`<form method="post" action="/console/org" class="org-switch">
    <input type="hidden" name="_csrf" value="${w.csrf}" />
    <label for="org-select">Organization</label>
    <select id="org-select" name="org">
      ${w.orgs!.map((n) => html`<option value="${n}" ${n === w.org ? raw(' selected') : ''}>${n}</option>`)}
    </select>
    <button type="submit">Switch</button>
  </form>`;
}

/** A labelled text input. */
export function field(
  name: string,
  label: string,
  value: unknown,
  o: { type?: string; placeholder?: string; id?: string } = {},
): Html {
  const id = o.id ?? `f-${name}`;
  return html`<div class="field">
    <label for="${id}">${label}</label>
    <input
      id="${id}"
      name="${name}"
      type="${o.type ?? 'text'}"
      value="${value ?? ''}"
      ${o.placeholder ? raw(` placeholder="${esc(o.placeholder)}"`) : ''}
    />
  </div>`;
}

/** A labelled select; `''` is the "any" option when `any` is given. */
export function select(name: string, label: string, options: readonly string[], value: unknown, any?: string): Html {
  const id = `f-${name}`;
  return html`<div class="field">
    <label for="${id}">${label}</label
    ><select id="${id}" name="${name}">
      ${any !== undefined ? html`<option value="">${any}</option>` : ''}
      ${options.map((x) => html`<option value="${x}" ${x === value ? raw(' selected') : ''}>${x}</option>`)}
    </select>
  </div>`;
}

export const isoTime = (ms: unknown): string =>
  typeof ms === 'number' && ms > 0 ? new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + 'Z' : String(ms ?? '');
