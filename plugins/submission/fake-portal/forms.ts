/** Request body parsing for the fake portal: urlencoded forms and a small multipart/form-data reader. */
import type { IncomingMessage } from 'node:http';

export interface Upload {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}
export interface Parsed {
  fields: Record<string, string>;
  files: Upload[];
}

const LIMIT = 25 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of req) {
    n += (c as Buffer).length;
    if (n > LIMIT) throw new Error('body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function parseForm(req: IncomingMessage): Promise<Parsed> {
  const body = await readBody(req);
  const type = req.headers['content-type'] ?? '';
  const m = /boundary=(?:"([^"]+)"|([^;]+))/.exec(type);
  if (type.startsWith('multipart/form-data') && m) return parseMultipart(body, m[1] ?? m[2]!);
  return { fields: Object.fromEntries(new URLSearchParams(body.toString('utf8'))), files: [] };
}

function parseMultipart(body: Buffer, boundary: string): Parsed {
  const out: Parsed = { fields: {}, files: [] };
  const delim = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delim);
  while (at >= 0) {
    const start = at + delim.length + 2; // CRLF after the delimiter
    const next = body.indexOf(delim, start);
    if (next < 0) break;
    const part = body.subarray(start, next - 2);
    const split = part.indexOf('\r\n\r\n');
    if (split > 0) {
      const head = part.subarray(0, split).toString('utf8');
      const data = part.subarray(split + 4);
      const name = /name="([^"]*)"/.exec(head)?.[1] ?? '';
      const filename = /filename="([^"]*)"/.exec(head)?.[1];
      const ctype = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? 'application/octet-stream';
      if (filename !== undefined) {
        if (filename) out.files.push({ field: name, filename, contentType: ctype, bytes: Buffer.from(data) });
      } else out.fields[name] = data.toString('utf8');
    }
    at = next;
  }
  return out;
}

export const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
