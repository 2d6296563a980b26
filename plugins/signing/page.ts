/**
 * The signing page: plain HTML that works without JavaScript (a form curl can
 * post: consent, typed name), with a drawing canvas added when JavaScript
 * runs. Responsive (one column on a phone, wider pages on a desktop).
 */
import type { DocumentRow, RequestRow, SignerRow } from './store.js';

export const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const DISCLOSURE =
  'Consent to use electronic records and signatures (E-SIGN Act, 15 U.S.C. 7001 et seq., and the Uniform ' +
  'Electronic Transactions Act as adopted by your state). By checking the box you agree to sign these documents electronically ' +
  'and that your electronic signature has the same effect as your handwritten one. You may instead ask the requester for paper ' +
  'copies to sign in ink, at no charge, and you may withdraw this consent before you sign by closing this page or declining. ' +
  'To view the documents you need a device that shows images or PDF files. You may download a copy of each document below.';

const CSS = `*{box-sizing:border-box}body{font:16px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f4f5f7;
color:#1d2430}main{max-width:980px;margin:0 auto;padding:16px}h1{font-size:1.4rem;margin:.2em 0}.card{background:#fff;border-radius:10px;
padding:16px;margin:12px 0;box-shadow:0 1px 3px rgba(0,0,0,.12)}.pages{display:grid;grid-template-columns:1fr;gap:10px}
.pages img{width:100%;height:auto;border:1px solid #ccd;background:#fff}@media(min-width:800px){.pages{grid-template-columns:1fr 1fr}}
label{display:block;margin:.6em 0 .2em;font-weight:600}input[type=text]{width:100%;font-size:1.1rem;padding:10px;border:1px solid #99a;
border-radius:6px}.consent{display:flex;gap:10px;align-items:flex-start;font-weight:400}.consent input{width:22px;height:22px;flex:none}
button{font-size:1.05rem;padding:12px 20px;border-radius:8px;border:0;background:#1f5fd1;color:#fff;margin:8px 8px 0 0}
button.secondary{background:#e4e7ec;color:#1d2430}.error{background:#fde8e8;color:#8a1010;padding:10px;border-radius:6px}
canvas{width:100%;height:160px;border:1px dashed #778;border-radius:6px;touch-action:none;background:#fff}.small{font-size:.85rem;color:#555}`;

const SCRIPT = `(function(){var c=document.getElementById('pad');if(!c)return;document.getElementById('drawbox').hidden=false;
var r=window.devicePixelRatio||1;function size(){c.width=c.clientWidth*r;c.height=c.clientHeight*r;}size();
var x=c.getContext('2d'),down=false,drawn=false;x.lineWidth=2.5*r;x.lineCap='round';x.strokeStyle='#0d1a73';
function p(e){var b=c.getBoundingClientRect();return[(e.clientX-b.left)*r,(e.clientY-b.top)*r];}
c.addEventListener('pointerdown',function(e){down=true;var q=p(e);x.beginPath();x.moveTo(q[0],q[1]);});
c.addEventListener('pointermove',function(e){if(!down)return;var q=p(e);x.lineTo(q[0],q[1]);x.stroke();drawn=true;});
window.addEventListener('pointerup',function(){down=false;if(drawn)document.getElementById('drawn').value=c.toDataURL('image/png');});
document.getElementById('clear').addEventListener('click',function(){x.clearRect(0,0,c.width,c.height);drawn=false;
document.getElementById('drawn').value='';});})();`;

function layout(title: string, body: string, script = false): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${esc(title)}</title><style>${CSS}</style></head><body><main>${body}</main>
${script ? `<script>${SCRIPT}</script>` : ''}</body></html>`;
}

export interface PageDoc {
  doc: DocumentRow;
  pages: number;
}

export function signingPage(base: string, r: RequestRow, s: SignerRow, docs: PageDoc[], error?: string): string {
  const documents = docs
    .map(({ doc, pages }) => {
      const imgs = Array.from(
        { length: pages },
        (_, i) =>
          `<img loading="lazy" alt="${esc(doc.filename)} page ${i + 1}" src="${base}/doc/${doc.id}/page/${i + 1}.png">`,
      ).join('');
      return `<section class="card"><h2>${esc(doc.filename)}</h2><p class="small">${pages} page(s) ·
<a href="${base}/doc/${doc.id}.pdf">open the PDF</a></p><div class="pages">${imgs}</div></section>`;
    })
    .join('');
  const body = `<h1>Documents to sign</h1><p>Hello ${esc(s.name)}. Please review the documents below and sign.</p>
${r.doc.instructions ? `<div class="card">${esc(r.doc.instructions)}</div>` : ''}
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}${documents}
<form class="card" method="post" action="${base}" enctype="multipart/form-data">
<h2>Sign</h2><p class="small">${esc(DISCLOSURE)}</p>
<label class="consent"><input type="checkbox" name="consent" value="yes" required> I agree to sign electronically.</label>
<label for="typed">Type your full name as your signature</label>
<input type="text" id="typed" name="typed_name" autocomplete="name" value="" placeholder="${esc(s.name)}">
<div id="drawbox" hidden><label>Or draw your signature</label><canvas id="pad"></canvas>
<button type="button" class="secondary" id="clear">Clear drawing</button></div>
<input type="hidden" id="drawn" name="drawn" value="">
<label for="dl">Photo of your driver license (optional)</label>
<input type="file" id="dl" name="dl_photo" accept="image/png,image/jpeg,application/pdf">
<p class="small">It is read to check that the license matches the owner on the title.</p>
<button type="submit" name="action" value="sign">Sign the documents</button>
<button type="submit" name="action" value="decline" class="secondary" formnovalidate>Decline to sign</button></form>`;
  return layout('Sign your documents', body, true);
}

export function messagePage(title: string, text: string): string {
  return layout(title, `<div class="card"><h1>${esc(title)}</h1><p>${esc(text)}</p></div>`);
}

/** WET_SIGN: where to get the packet and where to send it. */
export function paperPage(base: string, returnAddress: string, ready: boolean): string {
  const body = `<div class="card"><h1>Sign on paper</h1><p>These documents must be signed in ink.</p>
${
  ready
    ? `<p><a href="${base}/packet.pdf">Download the print-and-sign packet (PDF)</a>: print it, sign each line marked X with your name,
date it, and mail the originals back.</p>`
    : '<p>The packet is being prepared; come back to this link shortly.</p>'
}
${returnAddress ? `<p><strong>Return address:</strong> ${esc(returnAddress)}</p>` : ''}</div>`;
  return layout('Sign on paper', body);
}
