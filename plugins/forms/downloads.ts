/**
 * `form_downloads`: counts client reads of form files through presigned URLs
 * (core's object store tells its read listeners about every `GET /files/...`
 * it serves). A per-signer form's downloads count under its array key
 * (`forms_poa`), whichever variant was read; metadata files do not count.
 */
import type { Logger } from 'pino';
import { type Database, TitledError, type Entries } from '../../core/plugin-api.js';

const SINGLE = /^(form_[a-z_]+)\.pdf$/;
const PER_SIGNER = /^(forms_(?:poa|name_oats|non_obligor))\/[^/]+\.pdf$/;

/** The entry and form key of a form file's object key (`<orgId>/<entryId>/forms/...`), or null for any other object. */
function formOfObjectKey(key: string): { orgId: string; entryId: string; formKey: string } | null {
  const parts = key.split('/');
  if (parts.length < 4 || parts[2] !== 'forms') return null;
  const rest = parts.slice(3).join('/');
  const m = SINGLE.exec(rest) ?? PER_SIGNER.exec(rest);
  return m ? { orgId: parts[0]!, entryId: parts[1]!, formKey: m[1]! } : null;
}

export class DownloadCounter {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly entries: Entries,
    private readonly log: Logger,
  ) {}

  /** Read listener: counts the read in the background (the download is already served). */
  readonly onRead = (key: string): void => {
    const form = formOfObjectKey(key);
    if (!form) return;
    const p = this.increment(form.orgId, form.entryId, form.formKey)
      .catch((e) =>
        this.log.warn(
          { err: e, code: 'FORM_DOWNLOAD_NOT_COUNTED', entryId: form.entryId, form: form.formKey },
          'form download not counted',
        ),
      )
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  };

  /** Resolves when the counts in flight are written (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private async increment(orgId: string, entryId: string, formKey: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.db.tx(async (m) => {
          const found = await this.entries.load(orgId, entryId, m);
          if (!found || found.entry.storeIndex !== `${orgId}/${entryId}`) return;
          const counts = { ...(found.entry.form_downloads as Record<string, number> | undefined) };
          counts[formKey] = (counts[formKey] ?? 0) + 1;
          found.entry.form_downloads = counts;
          await this.entries.save(m, orgId, found.entry, found.version);
        });
        return;
      } catch (e) {
        // another writer saved the entry between our read and write: read it again
        if (!(e instanceof TitledError && e.code === 'CONFLICT') || attempt >= 5) throw e;
      }
    }
  }
}
