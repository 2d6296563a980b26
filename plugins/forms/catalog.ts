/**
 * The official templates the state plugins map, where they are, and whether
 * each file is the revision its mapping was written against (SHA-256); and
 * fetching them from the URL each state publishes. A downloaded file whose
 * hash differs from the plugin's is a different revision: it is kept aside
 * (`<file>.sha256-<hash>.rejected`, never looked up as a template) and
 * reported, so a mapping is never filled into a form it was not written for.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FormKind, StatePlugin, TemplateSpec } from '../../states/types.js';
import { TemplateStore } from './pdf/template.js';

interface TemplateEntry {
  state: string;
  form: FormKind;
  file: string;
  name: string;
  url?: string;
  /** The SHA-256 the plugin's mapping was written against. */
  expected?: string;
  /** Where the file was found in the template folders (null: absent). */
  path: string | null;
  /** The found file's SHA-256. */
  sha256: string | null;
  /** `ok`: found, same revision; `missing`; `different_revision`: found, another hash; `unpinned`: found, the plugin names no hash. */
  status: 'ok' | 'missing' | 'different_revision' | 'unpinned';
}

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Every template of the states, the forms attached to one (NC MVR-181 with the MVR-180) included, under the same form. */
function templatesOf(states: readonly StatePlugin[]): { state: StatePlugin; form: FormKind; spec: TemplateSpec }[] {
  return states.flatMap((state) =>
    (Object.entries(state.templates) as [FormKind, TemplateSpec][]).flatMap(([form, main]) =>
      [main, ...(main.attach ?? [])].map((spec) => ({ state, form, spec })),
    ),
  );
}

/** Every official template of the given states, looked up in `dirs`, with its hash checked. */
export function listTemplates(states: readonly StatePlugin[], dirs: readonly string[]): TemplateEntry[] {
  const store = new TemplateStore(dirs);
  return templatesOf(states).map(({ state, form, spec }) => {
    const path = store.locate(spec.file);
    const hash = path ? sha256(readFileSync(path)) : null;
    const status = !path ? 'missing' : !spec.sha256 ? 'unpinned' : hash === spec.sha256 ? 'ok' : 'different_revision';
    return {
      state: state.code,
      form,
      file: spec.file,
      name: spec.name,
      url: spec.url,
      expected: spec.sha256,
      path,
      sha256: hash,
      status,
    };
  });
}

interface FetchResult {
  state: string;
  form: FormKind;
  file: string;
  url?: string;
  /** `installed`: downloaded, same revision, written; `present`: already there, same revision; `rejected`: another revision, kept aside; `failed`; `no_url`. */
  status: 'installed' | 'present' | 'rejected' | 'failed' | 'no_url';
  sha256?: string;
  /** Where the file was written (installed) or kept aside (rejected). */
  path?: string;
  error?: string;
}

interface FetchOptions {
  /** Download function (default: global fetch with a 60 s limit). */
  download?: (url: string) => Promise<Uint8Array>;
  /** Largest file accepted, bytes (default 25 MB). */
  maxBytes?: number;
}

async function defaultDownload(url: string, maxBytes: number): Promise<Uint8Array> {
  const res = await fetch(url, { signal: AbortSignal.timeout(60_000), redirect: 'follow' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
  return bytes;
}

/** Writes a file whole or not at all (temp file, then rename). */
function writeAtomic(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.part`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
}

/** Downloads the official templates of `states` into `dir` (a template folder), checking each against its pinned SHA-256. */
export async function fetchTemplates(
  states: readonly StatePlugin[],
  dir: string,
  o: FetchOptions = {},
): Promise<FetchResult[]> {
  const maxBytes = o.maxBytes ?? 25 * 1024 * 1024;
  const download = o.download ?? ((url: string) => defaultDownload(url, maxBytes));
  const out: FetchResult[] = [];
  for (const { state, form, spec } of templatesOf(states)) {
    const base = { state: state.code, form, file: spec.file, url: spec.url };
    if (!spec.url) {
      out.push({ ...base, status: 'no_url' });
      continue;
    }
    const target = join(dir, spec.file);
    try {
      if (spec.sha256 && sha256(readFileSync(target)) === spec.sha256) {
        out.push({ ...base, status: 'present', sha256: spec.sha256, path: target });
        continue;
      }
    } catch {
      // not there yet
    }
    try {
      const bytes = await download(spec.url);
      if (bytes.length > maxBytes) throw new Error(`larger than ${maxBytes} bytes`);
      if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') throw new Error('not a PDF');
      const hash = sha256(bytes);
      if (spec.sha256 && hash !== spec.sha256) {
        const aside = `${target}.sha256-${hash}.rejected`;
        writeAtomic(aside, bytes);
        out.push({
          ...base,
          status: 'rejected',
          sha256: hash,
          path: aside,
          error: `SHA-256 ${hash} is not the revision mapped (${spec.sha256})`,
        });
        continue;
      }
      writeAtomic(target, bytes);
      out.push({ ...base, status: 'installed', sha256: hash, path: target });
    } catch (e) {
      out.push({ ...base, status: 'failed', error: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}
