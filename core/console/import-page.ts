/**
 * The console's CSV upload: a plain multipart form (no script), the file's
 * part streamed into the same importer as `titled import`, the summary and
 * the rows in error shown on the page.
 */
import { Readable } from 'node:stream';
import type { Principal } from '../auth/authenticator.js';
import { TitledError } from '../errors.js';
import type { ImportSummary } from '../import/csv-import.js';
import { html, table, type Html } from './html.js';

export type ImportRunner = (p: Principal, input: Readable) => Promise<ImportSummary>;

export function consoleImportPage(canAct: boolean, csrf: string, result?: ImportSummary): Html {
  if (!canAct) return html`<p class="muted">Your role may only read.</p>`;
  return html`${result ? summaryView(result) : ''}
    <form method="post" action="/console/import?_csrf=${csrf}" enctype="multipart/form-data" class="card">
      <div class="field">
        <label for="csv-file">CSV file of accounts</label
        ><input id="csv-file" name="file" type="file" accept=".csv,text/csv" required />
      </div>
      <p class="hint">
        One row per account; columns as in <code>examples/import/accounts.csv</code> (docs/import.md). Rows whose VIN
        already has an entry are left alone, so the same file can be uploaded again safely.
      </p>
      <button type="submit">Import</button>
    </form>`;
}

function summaryView(s: ImportSummary): Html {
  return html`<section aria-labelledby="import-result">
    <h2 id="import-result">Result</h2>
    <p role="status">
      ${s.rows} rows: ${s.created} created, ${s.exists} already present, ${s.errors} with errors (${s.ms} ms).
    </p>
    ${
      s.errorRows.length
        ? table(
            ['Row', 'VIN', 'Error'],
            s.errorRows.map((r) => [r.row, r.vin ?? '', r.error]),
            { indent: 10, caption: 'Rows with errors' },
          )
        : ''
    }
  </section>`;
}

/**
 * The uploaded file of a multipart/form-data body (the first part with a
 * filename). The body is held whole (bounded by the daemon's body limit);
 * the importer then streams through it.
 */
export function fileFromMultipart(body: Buffer, contentType: string): Buffer {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!m) throw new TitledError('UNSUPPORTED_MEDIA_TYPE', 'send the file as multipart/form-data');
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  let at = body.indexOf(boundary);
  while (at >= 0) {
    const headEnd = body.indexOf('\r\n\r\n', at);
    if (headEnd < 0) break;
    const head = body.subarray(at, headEnd).toString('utf8');
    const next = body.indexOf(boundary, headEnd);
    if (next < 0) break;
    if (/filename="/i.test(head)) return body.subarray(headEnd + 4, next - 2);
    at = next;
  }
  throw new TitledError('INVALID_INPUT', 'no file in the upload');
}

/** Runs the importer over an uploaded file; a file that cannot be imported at all is a 400. */
export async function importUpload(run: ImportRunner, p: Principal, file: Buffer): Promise<ImportSummary> {
  try {
    return await run(p, Readable.from([file]));
  } catch (e) {
    // by name: the importer (and csv-parse) is loaded on the first import, not with the console
    if (e instanceof Error && e.name === 'ImportError') throw new TitledError('INVALID_INPUT', e.message);
    throw e;
  }
}
