/**
 * The signing form's body: application/x-www-form-urlencoded (curl, no
 * license photo) or multipart/form-data (a browser; the optional license
 * photo). A small reader for the one form this plugin serves.
 */
import type { Context } from 'koa';
import { TitledError } from '../../core/plugin-api.js';

export interface FormInput {
  fields: URLSearchParams;
  file?: { name: string; filename: string; type: string; data: Buffer };
}

const LIMIT = 12 * 1024 * 1024;

async function readAll(ctx: Context): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of ctx.req as AsyncIterable<Buffer>) {
    n += c.length;
    if (n > LIMIT) throw new TitledError('PAYLOAD_TOO_LARGE', 'the signing form is too large (photo over 12 MB?)');
    chunks.push(c);
  }
  return Buffer.concat(chunks);
}

function parseMultipart(body: Buffer, boundary: string): FormInput {
  const out: FormInput = { fields: new URLSearchParams() };
  const delim = Buffer.from(`--${boundary}`);
  let pos = body.indexOf(delim);
  while (pos >= 0) {
    const start = pos + delim.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delim, start);
    if (next < 0) break;
    const part = body.subarray(start + 2, next - 2); // skip CRLF after the delimiter and before the next
    const split = part.indexOf('\r\n\r\n');
    if (split >= 0) {
      const head = part.subarray(0, split).toString('utf8');
      const data = part.subarray(split + 4);
      const name = /name="([^"]*)"/i.exec(head)?.[1] ?? '';
      const filename = /filename="([^"]*)"/i.exec(head)?.[1];
      if (filename !== undefined) {
        if (data.length && !out.file)
          out.file = {
            name,
            filename,
            type: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? '',
            data: Buffer.from(data),
          };
      } else {
        out.fields.append(name, data.toString('utf8'));
      }
    }
    pos = next;
  }
  return out;
}

export async function readSigningForm(ctx: Context): Promise<FormInput> {
  const type = ctx.get('content-type');
  if (/^application\/x-www-form-urlencoded/i.test(type))
    return { fields: new URLSearchParams((await readAll(ctx)).toString('utf8')) };
  const boundary = /^multipart\/form-data;.*boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary) return parseMultipart(await readAll(ctx), boundary);
  throw new TitledError(
    'UNSUPPORTED_MEDIA_TYPE',
    'post the signing form as application/x-www-form-urlencoded or multipart/form-data',
  );
}
