import { createHash } from 'node:crypto';
import PQueue from 'p-queue';
import { inject, injectable } from 'tsyringe';
import {
  type TitledConfig,
  type JobInput,
  type DocumentUpload,
  type TitleEntry,
  type AccountData,
  UrlGuard,
  type StageContext,
  type StagePlugin,
  Entries,
  TOKENS,
  checkVin,
  COLLABORATORS,
  type DocumentExtractionService,
  Metrics,
} from '../../core/plugin-api.js';
import type { DependencyContainer } from 'tsyringe';
import { analyzeDocument, DocumentRejected, type DocumentAnalysis } from './analyze.js';
import { DocumentFetcher, FetchRejected } from './fetch.js';
import { OcrOptionsSchema, parseOcrOptions, type OcrOptions } from './options.js';
import { retainReadingPool } from './worker/pool.js';

/** A document that could not be taken in (beyond the spec: `attachment_errors`, docs/ocr.md). */
export interface AttachmentError {
  doc_id: string;
  url: string;
  code: string;
  reason: string;
  at: string;
}

/** One document's extraction, as the stage contributes it to the entry's account data. */
interface DocRecord {
  doc_id: string;
  store_key: string;
  document_type: DocumentUpload['document_type'];
  analyzed_at: string;
  account_data: AccountData;
}

type Outcome =
  | { doc_id: string; status: 'complete'; uploads: DocumentUpload[]; records: DocRecord[] }
  | { doc_id: string; status: 'rejected' | 'failed'; error: AttachmentError };

const EXT = { pdf: 'pdf', jpeg: 'jpg', png: 'png' } as const;

/** How the merge names one document of a file: the file's doc_id, and `#<part>` for a file of several documents. */
const partId = (doc_id: string, part?: number) => (part ? `${doc_id}#${part}` : doc_id);

/** The URL without query or fragment (they may carry credentials), for messages. */
const redact = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
};

function displayName(url: string, ext: string, n: number): string {
  let base = '';
  try {
    base = decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).pop() ?? '');
  } catch {
    // a malformed escape: fall back to a generated name
  }
  base = base
    .replace(/[^A-Za-z0-9._ -]/g, '_')
    .slice(0, 100)
    .trim();
  return base || `document-${n}.${ext}`;
}

/**
 * Writes the entry's `bdaJobs` as documents move (ctx.progress), one write
 * at a time: a change made while a write is under way is folded into the
 * next write, so a burst of documents finishing costs one or two writes.
 */
class ProgressReporter {
  private running: Promise<void> | undefined;
  private dirty = false;

  constructor(private readonly ctx: StageContext) {}

  show(): void {
    this.dirty = true;
    // cleared in a callback, which always runs after this assignment (loop may finish without waiting on anything)
    this.running ??= this.loop().finally(() => {
      this.running = undefined;
    });
  }

  private async loop(): Promise<void> {
    while (this.dirty && !this.ctx.signal.aborted) {
      this.dirty = false;
      await this.ctx.progress({ bdaJobs: { ...this.ctx.entry.bdaJobs } }).catch((e: Error) => {
        if (!this.ctx.signal.aborted)
          this.ctx.log.warn({ code: 'PROGRESS_NOT_WRITTEN', err: e }, 'document statuses could not be shown yet');
      });
    }
  }

  /** Resolves when every status shown so far is written. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }
}

/**
 * ocr: document intake. Fetches the documents a create or update named
 * (`attachments`), checks what they are from their bytes, stores each under
 * the entry's storeIndex, reads it (text layer or OCR), classifies and
 * extracts it, lists it in `attachment` (DocumentUpload, `json_path` = the
 * stored extraction) with its status in `bdaJobs`, and merges what the
 * documents say into account_data under the documented rule (merge.ts). A
 * document that cannot be taken in is recorded in `attachment_errors` with
 * its reason; the others go on. docs/ocr.md describes the whole path.
 */
@injectable()
export class OcrStage implements StagePlugin {
  static readonly options = OcrOptionsSchema;
  readonly name = 'ocr';
  readonly phase = 'input_parsing' as const;
  readonly after = ['intake'];
  readonly timeoutMs: number;
  private readonly options: OcrOptions;
  private readonly fetcher: DocumentFetcher;
  /** Ends this stage's use of the process's reading pool (the last user stops its worker threads). */
  private readonly releasePool = retainReadingPool();

  constructor(
    @inject(TOKENS.Config) config: TitledConfig,
    private readonly entries: Entries,
    @inject(TOKENS.Container) container: DependencyContainer,
  ) {
    this.options = parseOcrOptions(config.plugins.ocr);
    // other plugins read documents the same way (signing: a signer's license photo)
    const o = this.options;
    const extraction: DocumentExtractionService = {
      extract: async (bytes, x = {}) => {
        const a = await analyzeDocument(bytes, {
          maxPages: o.maxPages,
          ocrTimeoutMs: o.ocrTimeoutMs,
          toolTimeoutMs: o.ocrTimeoutMs,
          ocrConcurrency: o.ocrConcurrency,
          signal: x.signal,
        });
        return {
          document_type: a.document_type,
          confidence: a.confidence,
          fields: a.fields,
          account_data: a.account_data as Record<string, unknown>,
        };
      },
    };
    container.registerInstance(COLLABORATORS.extraction, extraction);
    this.timeoutMs = this.options.stageTimeoutMs;
    this.fetcher = new DocumentFetcher(new UrlGuard(config.allowHosts), {
      maxBytes: this.options.maxDocumentBytes,
      timeoutMs: this.options.fetchTimeoutMs,
      maxRedirects: this.options.maxRedirects,
    });
  }

  appliesTo(_entry: Readonly<TitleEntry>, job: Readonly<JobInput>): boolean {
    return !!job.attachments?.length;
  }

  present(entry: TitleEntry): void {
    delete entry.ocr_meta;
  }

  stop(): Promise<void> {
    return this.releasePool();
  }

  async run(ctx: StageContext): Promise<void> {
    const entry = ctx.entry;
    entry.attachment ??= [];
    entry.bdaJobs ??= {};
    // an entry stores at most maxDocuments: URLs are admitted in order while slots are free; a rejected one frees its slot
    // a file holding several documents is listed once per document, under one doc_id
    const known = new Set(entry.attachment.map((a) => a.doc_id as string));
    let stored = known.size;
    const waiting: { url: string; doc_id: string; n: number }[] = [];
    for (const url of [...new Set(ctx.job.attachments ?? [])]) {
      const doc_id = `doc_${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;
      if (!waiting.some((w) => w.doc_id === doc_id)) waiting.push({ url, doc_id, n: waiting.length + stored + 1 });
    }
    const outcomes: Outcome[] = [];
    // clients see each document's status while the stage runs: queued, processing, then how it ended
    const progress = new ProgressReporter(ctx);
    for (const w of waiting) entry.bdaJobs[w.doc_id] = 'queued';
    progress.show();
    const pq = new PQueue({ concurrency: this.options.parallelDocuments });
    while (waiting.length) {
      const batch: typeof waiting = [];
      while (
        waiting.length &&
        (known.has(waiting[0]!.doc_id) ||
          stored + batch.filter((b) => !known.has(b.doc_id)).length < this.options.maxDocuments)
      )
        batch.push(waiting.shift()!);
      if (!batch.length) {
        for (const w of waiting.splice(0))
          outcomes.push({
            doc_id: w.doc_id,
            status: 'rejected',
            error: this.error(
              w.doc_id,
              w.url,
              'TOO_MANY_DOCUMENTS',
              `an entry holds at most ${this.options.maxDocuments} documents`,
            ),
          });
        break;
      }
      const done = await Promise.all(
        batch.map(
          (b) =>
            pq.add(async () => {
              entry.bdaJobs![b.doc_id] = 'processing';
              progress.show();
              const outcome = await this.take(ctx, b);
              entry.bdaJobs![b.doc_id] = outcome.status;
              progress.show();
              return outcome;
            }) as Promise<Outcome>,
        ),
      );
      for (const o of done) if (o.status === 'complete' && !known.has(o.doc_id)) stored++;
      outcomes.push(...done);
    }

    await progress.settled();
    const errors = ((entry.attachment_errors as AttachmentError[] | undefined) ?? []).filter(
      (e) => !outcomes.some((o) => o.doc_id === e.doc_id),
    );
    const fresh = new Map<string, DocRecord>();
    for (const o of outcomes) {
      entry.bdaJobs[o.doc_id] = o.status;
      if (o.status === 'complete') {
        // read again: its records take the place of the old ones
        const i = entry.attachment.findIndex((a) => a.doc_id === o.doc_id);
        const rest = entry.attachment.filter((a) => a.doc_id !== o.doc_id);
        rest.splice(i >= 0 ? i : rest.length, 0, ...o.uploads);
        entry.attachment = rest;
        for (const r of o.records) fresh.set(r.doc_id, r);
      } else {
        errors.push(o.error);
        ctx.log.warn(
          { code: `DOCUMENT_${o.status.toUpperCase()}`, docId: o.doc_id, reason: o.error.code },
          `document ${o.status}: ${o.error.reason}`,
        );
      }
    }
    if (errors.length) entry.attachment_errors = errors;
    else delete entry.attachment_errors;
    await this.contribute(ctx, fresh);
  }

  /** The job failed for good in this stage: documents it showed as queued or processing were not read. */
  abandoned(entry: TitleEntry): void {
    for (const [doc, status] of Object.entries(entry.bdaJobs ?? {}))
      if (status === 'queued' || status === 'processing') entry.bdaJobs![doc] = 'failed';
  }

  private error(doc_id: string, url: string, code: string, reason: string): AttachmentError {
    return { doc_id, url: redact(url), code, reason, at: new Date().toISOString() };
  }

  /** Fetches, sniffs, stores and analyzes one document. */
  private async take(ctx: StageContext, t: { url: string; doc_id: string; n: number }): Promise<Outcome> {
    const o = this.options;
    let bytes: Buffer;
    let finalUrl = t.url;
    try {
      ({ bytes, finalUrl } = await this.fetcher.fetch(t.url, ctx.signal));
    } catch (e) {
      if (e instanceof FetchRejected)
        return {
          doc_id: t.doc_id,
          status: 'rejected',
          error: this.error(t.doc_id, t.url, `FETCH_${e.code}`, e.message),
        };
      throw e;
    }
    let analysis: DocumentAnalysis;
    try {
      analysis = await analyzeDocument(bytes, {
        maxPages: o.maxPages,
        ocrTimeoutMs: o.ocrTimeoutMs,
        toolTimeoutMs: o.ocrTimeoutMs,
        ocrConcurrency: o.ocrConcurrency,
        signal: ctx.signal,
      });
    } catch (e) {
      if (e instanceof DocumentRejected)
        return { doc_id: t.doc_id, status: 'rejected', error: this.error(t.doc_id, t.url, e.code, e.message) };
      ctx.signal.throwIfAborted();
      ctx.log.error({ err: e, code: 'DOCUMENT_ANALYSIS_FAILED', docId: t.doc_id }, 'document analysis failed');
      return {
        doc_id: t.doc_id,
        status: 'failed',
        error: this.error(
          t.doc_id,
          t.url,
          'ANALYSIS_FAILED',
          `the document could not be read: ${(e as Error).message}`,
        ),
      };
    }
    const ext = EXT[analysis.format];
    const analyzed_at = new Date().toISOString();
    const store_key = await ctx.objects.put(`documents/${t.doc_id}/original.${ext}`, bytes);
    const display_name = displayName(finalUrl, ext, t.n);
    const file = {
      doc_id: t.doc_id,
      display_name,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
      analyzed_at,
    };
    ctx.container.resolve(Metrics).ocrPages.inc(analysis.pages.length);
    ctx.log.info(
      {
        code: 'DOCUMENT_READ',
        docId: t.doc_id,
        type: analysis.document_type,
        documents: analysis.documents?.length ?? 1,
        pages: analysis.pages.length,
        ms: analysis.timings_ms,
      },
      'document read',
    );
    if (!analysis.documents) {
      const json_path = await ctx.objects.put(
        `documents/${t.doc_id}/extraction.json`,
        JSON.stringify({ ...file, ...analysis }, null, 1),
      );
      const upload: DocumentUpload = {
        display_name,
        store_key,
        document_type: analysis.document_type,
        json_path,
        doc_id: t.doc_id,
        pages: analysis.pages.length,
        analyzed_at,
      };
      return {
        doc_id: t.doc_id,
        status: 'complete',
        uploads: [upload],
        records: [
          {
            doc_id: t.doc_id,
            store_key,
            document_type: analysis.document_type,
            analyzed_at,
            account_data: analysis.account_data,
          },
        ],
      };
    }
    // a file of several documents: one record each, with its own extraction (the file's pages and timings in each)
    const uploads: DocumentUpload[] = [];
    const records: DocRecord[] = [];
    const {
      documents,
      fields: _f,
      account_data: _a,
      vin: _v,
      barcode: _b,
      document_type: _t,
      confidence: _c,
      ...whole
    } = analysis;
    for (const d of documents) {
      const json_path = await ctx.objects.put(
        `documents/${t.doc_id}/extraction-${d.part}.json`,
        JSON.stringify({ ...file, ...whole, ...d, document_count: documents.length }, null, 1),
      );
      const span = d.pages.length > 1 ? `pages ${d.pages[0]}-${d.pages[d.pages.length - 1]}` : `page ${d.pages[0]}`;
      uploads.push({
        display_name: `${display_name} (${span})`,
        store_key,
        document_type: d.document_type,
        json_path,
        doc_id: t.doc_id,
        part: d.part,
        page_numbers: d.pages,
        pages: d.pages.length,
        analyzed_at,
      });
      records.push({
        doc_id: partId(t.doc_id, d.part),
        store_key,
        document_type: d.document_type,
        analyzed_at,
        account_data: d.account_data,
      });
    }
    return { doc_id: t.doc_id, status: 'complete', uploads, records };
  }

  /**
   * Contributes every document of the entry to its account data (fresh
   * records, and stored extractions not yet contributed), withdraws
   * documents no longer attached, then applies the VIN rule (docs/decisions.md, Documents).
   */
  private async contribute(ctx: StageContext, fresh: Map<string, DocRecord>): Promise<void> {
    const entry = ctx.entry;
    delete entry.ocr_meta;
    const attached = new Set<string>();
    for (const a of entry.attachment) {
      const id = partId(a.doc_id as string, a.part as number | undefined);
      attached.add(`document:${id}`);
      let rec = fresh.get(id);
      if (!rec && !ctx.account.source(`document:${id}`)) rec = (await this.storedRecord(ctx, id, a)) ?? undefined;
      if (!rec) continue;
      try {
        ctx.account.contribute({
          id: `document:${id}`,
          kind: 'document',
          type: rec.document_type,
          ref_id: rec.store_key,
          at: rec.analyzed_at,
          record: rec.account_data,
        });
      } catch (e) {
        ctx.log.error(
          { code: 'EXTRACTED_DATA_INVALID', docId: id, reason: (e as Error).message.slice(0, 200) },
          'extracted account data failed validation; not merged',
        );
      }
    }
    for (const s of ctx.account.sources()) if (s.kind === 'document' && !attached.has(s.id)) ctx.account.withdraw(s.id);
    await this.vinRule(ctx);
  }

  /** A document's stored extraction, read back. */
  private async storedRecord(ctx: StageContext, id: string, a: DocumentUpload): Promise<DocRecord | null> {
    const bytes = a.json_path ? await ctx.objects.get(a.json_path).catch(() => null) : null;
    if (!bytes) return null;
    const j = JSON.parse(bytes.toString('utf8')) as { account_data?: AccountData; analyzed_at?: string };
    return {
      doc_id: id,
      store_key: a.store_key,
      document_type: a.document_type,
      analyzed_at: j.analyzed_at ?? '',
      account_data: j.account_data ?? {},
    };
  }

  /** A VIN a document revealed: the entry takes it unless another entry of the organization has it (then no document gives it). */
  private async vinRule(ctx: StageContext): Promise<void> {
    const entry = ctx.entry;
    delete entry.vin_conflict;
    for (let guard = 0; guard < 50; guard++) {
      const merged = ctx.account.preview();
      const from = merged.provenance['/vehicle/vin'];
      const vin = from ? merged.account_data.vehicle?.vin : undefined;
      if (!from || !vin || vin === entry.VIN) return;
      const check = checkVin(vin);
      const other = check.valid ? await this.entries.findByVin(ctx.org.id, check.vin) : null;
      if (check.valid && (!other || other.entry.entryId === entry.entryId)) return;
      const source = ctx.account.source(from)!;
      delete source.record.vehicle!.vin;
      ctx.account.contribute(source);
      if (other) {
        const docId = from.replace(/^document:/, '');
        entry.vin_conflict = {
          vin: check.vin,
          existing_entry_id: other.entry.entryId,
          doc_id: docId,
          at: new Date().toISOString(),
          reason:
            'another entry of this organization has this VIN; this entry keeps no VIN until one of the two is changed or deleted',
        };
        ctx.log.warn(
          { code: 'VIN_CONFLICT', docId, existingEntryId: other.entry.entryId },
          'a document shows a VIN another entry of the organization has',
        );
      }
    }
  }
}
