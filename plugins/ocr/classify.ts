/**
 * Document classification by weighted cues in a page's text (phrases typical
 * of each document type, tolerant to OCR noise by matching on letters
 * only and, for long cues, within a misread letter), the shape of the page (an ID card is 85.6 x 54 mm) and a decoded
 * AAMVA barcode (the back of a license, whatever else the page says).
 */
import type { DocumentType } from '../../core/plugin-api.js';
import type { Layout } from './layout/layout.js';
import { headerState } from './extract/common.js';
import { findDates, parseCityLine } from './layout/text.js';

export type { DocumentType };
type Scored = Exclude<DocumentType, 'UNKNOWN'>;

/** Cue phrases (letters only, spaces removed) and their weights. */
const CUES: Record<Scored, [string, number][]> = {
  VEHICLE_TITLE: [
    ['CERTIFICATEOFTITLE', 6],
    ['CERTIFICATEOFOWNERSHIP', 5],
    ['TITLENUMBER', 3],
    ['TITLENO', 2],
    ['LIENHOLDER', 2],
    ['LEGALOWNER', 2],
    ['ODOMETER', 1.5],
    ['VEHICLEIDENTIFICATION', 1],
    ['TITLEBRAND', 2],
    ['DATEISSUED', 1],
    ['ISSUEDATE', 1],
    ['OWNER', 1],
    ['MAKE', 0.5],
  ],
  VEHICLE_TITLE_BACK: [
    ['ASSIGNMENTOFTITLE', 6],
    ['ASSIGNMENTBY', 3],
    ['TRANSFEROFOWNERSHIP', 4],
    ['SIGNATUREOFSELLER', 3],
    ['PURCHASER', 2],
    ['DEALERREASSIGNMENT', 4],
    ['ODOMETERCERTIFICATION', 2],
    ['RELEASEOFLIEN', 1.5],
    ['SELLER', 1],
    ['BUYER', 1],
    ['REASSIGNMENT', 2],
    ['DATEOFSALE', 1],
  ],
  VEHICLE_REGISTRATION: [
    ['REGISTRATIONCARD', 6],
    ['VEHICLEREGISTRATION', 4],
    ['REGISTRATIONRECEIPT', 6],
    ['REGISTRATIONEXPIRES', 3],
    ['CERTIFICATEOFREGISTRATION', 6],
    ['REGISTRATION', 2],
    ['PLATE', 2],
    ['EXPIRES', 1],
    ['LICENSENUMBER', 1],
    ['REGISTEREDOWNER', 1],
    ['VALIDTHROUGH', 1],
    ['TAG', 0.5],
    ['FEESPAID', 1],
  ],
  DRIVER_LICENSE: [
    ['DRIVERLICENSE', 6],
    ['DRIVERSLICENSE', 6],
    ['IDENTIFICATIONCARD', 4],
    ['DOB', 2],
    ['DATEOFBIRTH', 2],
    ['SEX', 1],
    ['HGT', 1.5],
    ['EYES', 1.5],
    ['CLASS', 0.5],
    ['DLN', 2],
    ['RSTR', 1],
    ['ENDORSE', 0.5],
    ['ORGANDONOR', 0.5],
    ['LICENSE', 1],
  ],
  DRIVER_LICENSE_BACK: [
    ['RESTRICTIONS', 1],
    ['ENDORSEMENTS', 1],
    ['ORGANDONOR', 1],
    ['IFFOUND', 2],
    ['RETURNPOSTAGE', 2],
  ],
  PAYOFF_LETTER: [
    ['PAYOFF', 4],
    ['PERDIEM', 4],
    ['GOODTHROUGH', 3],
    ['PAYOFFAMOUNT', 3],
    ['PAYOFFSTATEMENT', 4],
    ['PAYOFFQUOTE', 4],
    ['VALIDTHROUGH', 1],
    ['SINCERELY', 1],
    ['DEAR', 1],
    ['ACCOUNTNUMBER', 1],
    ['LOANNUMBER', 1],
    ['PRINCIPALBALANCE', 2],
    ['ACCRUEDINTEREST', 2],
    ['INFULL', 1],
  ],
};

export interface Classification {
  type: DocumentType;
  confidence: number;
  scores: Record<string, number>;
  /** An AAMVA barcode was decoded on the page. */ barcode?: boolean;
}

/** Letters-only text of a page, for cue matching. */
const cueText = (l: Layout) => l.phrases.map((p) => p.text.toUpperCase().replace(/[^A-Z]/g, '')).join('');

/**
 * Whether `text` holds `cue` with at most `k` edits (Sellers' approximate
 * substring match): OCR misreads a letter of a heading ("ORIVER LICENSE").
 */
function nearCue(text: string, cue: string, k: number): boolean {
  let prev = new Uint16Array(cue.length + 1).map((_, j) => j);
  let cur = new Uint16Array(cue.length + 1);
  for (let i = 1; i <= text.length; i++) {
    const c = text.charCodeAt(i - 1);
    cur[0] = 0;
    for (let j = 1; j <= cue.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (cue.charCodeAt(j - 1) === c ? 0 : 1));
    if (cur[cue.length]! <= k) return true;
    [prev, cur] = [cur, prev];
  }
  return false;
}

/**
 * A cue is on the page: exactly, or (9 letters or more) within one misread
 * letter. One edit leaves one half of the cue intact, so a page holding
 * neither half is passed over without the approximate search.
 */
const hasCue = (text: string, cue: string) => {
  if (text.includes(cue)) return true;
  if (cue.length < 9) return false;
  const mid = cue.length >> 1;
  return (text.includes(cue.slice(0, mid)) || text.includes(cue.slice(mid))) && nearCue(text, cue, 1);
};

export function classifyPage(l: Layout, o: { aamva?: boolean } = {}): Classification {
  const text = cueText(l);
  const scores: Record<string, number> = {};
  for (const [type, cues] of Object.entries(CUES)) {
    let s = 0;
    for (const [cue, w] of cues) if (hasCue(text, cue)) s += w;
    scores[type] = s;
  }
  const aspect = Math.max(l.width, l.height) / Math.min(l.width, l.height);
  if (aspect > 1.45 && aspect < 1.75 && Math.max(l.width, l.height) < 3000) {
    scores.DRIVER_LICENSE! += 1.5;
    scores.DRIVER_LICENSE_BACK! += 1.5;
    // a card headed by a state's name, with a holder's address and dates (birth, issue, expiry), is a license front even
    // when its small labels did not read
    const lines = l.rows.flatMap((r) => r.map((p) => p.text));
    if (lines.some((t) => parseCityLine(t)) && new Set(findDates(lines.join(' '))).size >= 2 && headerState(l))
      scores.DRIVER_LICENSE! += 1.5;
  }
  if (o.aamva) return { type: 'DRIVER_LICENSE_BACK', confidence: 1, scores: { ...scores, DRIVER_LICENSE_BACK: 100 } };
  // a license front has a lot of text; a back without a barcode has little
  if (l.phrases.length > 12) scores.DRIVER_LICENSE_BACK! -= 2;
  const ranked = Object.entries(scores).sort((a, b) => b[1] - a[1]);
  const [bestType, best] = ranked[0]!;
  const second = ranked[1]![1];
  if (best < 3) return { type: 'UNKNOWN', confidence: 0, scores };
  return {
    type: bestType as DocumentType,
    confidence: Math.round(Math.min(1, (best - second) / 6 + 0.4) * 100) / 100,
    scores,
  };
}

/** The type of a document from its pages: the front types win over backs; UNKNOWN only when every page is. */
export function classifyDocument(pages: Classification[]): Classification {
  const order: DocumentType[] = [
    'VEHICLE_TITLE',
    'VEHICLE_REGISTRATION',
    'DRIVER_LICENSE',
    'PAYOFF_LETTER',
    'DRIVER_LICENSE_BACK',
    'VEHICLE_TITLE_BACK',
  ];
  for (const t of order) {
    const best = pages.filter((p) => p.type === t).sort((a, b) => b.confidence - a.confidence)[0];
    if (best) return best;
  }
  return pages[0] ?? { type: 'UNKNOWN', confidence: 0, scores: {} };
}
