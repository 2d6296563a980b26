/**
 * Person-name matching, tolerant the way title records differ from loan
 * files (docs/enrichment.md, "Name matching"):
 * - case, accents, punctuation and spacing are ignored (`O'Neil` = `ONEIL`,
 *   `Mary-Ann` = `MARYANN` = `Mary Ann`);
 * - `LAST, FIRST MIDDLE` (the comma form DMV records use) is read as such;
 * - courtesy titles (MR, MRS, DR, ...) are dropped;
 * - middle names are compatible when one is absent, equal, or an initial of
 *   the other (`Jane Q Doe` = `Jane Doe` = `Jane Quinn Doe`, but not `Jane R Doe`);
 * - suffixes are compatible when one is absent or they are equal
 *   (`John Smith Jr` = `John Smith`, but never `John Smith Sr`);
 * - first names match when equal or related by a common nickname
 *   (`Bob` = `Robert`, `Bill` = `William`, `Bob` = `Rob`), never by a bare
 *   initial (`J Doe` does not match `Jane Doe`), and two formal names that
 *   share a nickname do not match each other (`Alexander` != `Alexandra`);
 * - last names match when equal, or when one is a part of the other's
 *   hyphenated name (`Smith-Jones` = `Jones`);
 * - names of businesses (LLC, INC, BANK, ...) match only when equal after
 *   normalization.
 */
/** A person's name as the spec's Person carries it (whole, or in parts). */
export interface PersonName {
  name?: string | null;
  name_first?: string | null;
  name_middle?: string | null;
  name_last?: string | null;
  name_suffix?: string | null;
}

export interface ParsedName {
  first: string;
  middle: string[];
  last: string;
  suffix: string;
  business: boolean;
  /** The whole name, letters and digits only (business comparison). */
  compact: string;
}

const SUFFIXES = new Set(['JR', 'SR', 'II', 'III', 'IV', 'ESQ', 'MD', 'PHD', 'DDS', 'DVM']);
const PREFIXES = new Set(['MR', 'MRS', 'MS', 'MISS', 'DR', 'MX', 'SIR', 'REV']);
const BUSINESS =
  /\b(LLC|L L C|INC|INCORPORATED|CORP|CORPORATION|COMPANY|CO|BANK|TRUST|LTD|LP|LLP|NA|FCU|CREDIT UNION|FINANCIAL|FINANCE|MOTORS|LEASING|AUTO|GROUP|HOLDINGS|SERVICES)\b/;

/** formal name -> common nicknames (and spelling variants). */
const NICKNAMES: Record<string, string[]> = {
  ABIGAIL: ['ABBY', 'ABBIE', 'GAIL'],
  ALBERT: ['AL', 'BERT', 'BERTIE'],
  ALEXANDER: ['ALEX', 'AL', 'XANDER', 'SANDY', 'ALEC'],
  ALEXANDRA: ['ALEX', 'ALEXA', 'SANDRA', 'SANDY', 'LEXI'],
  ALFRED: ['AL', 'ALF', 'FRED'],
  ALLISON: ['ALLIE', 'ALI'],
  ANDREW: ['ANDY', 'DREW'],
  ANN: ['ANNIE', 'NAN', 'ANNE'],
  ANNE: ['ANNIE', 'NAN', 'ANN'],
  ANTHONY: ['TONY', 'ANT'],
  ARTHUR: ['ART', 'ARTIE'],
  BARBARA: ['BARB', 'BARBIE', 'BABS'],
  BENJAMIN: ['BEN', 'BENNY', 'BENJI'],
  BRADLEY: ['BRAD'],
  CAMERON: ['CAM'],
  CATHERINE: ['CATHY', 'CATE', 'KATE', 'KATIE', 'KATHY', 'CAT'],
  CHARLES: ['CHARLIE', 'CHUCK', 'CHAS', 'CHAZ'],
  CHRISTINA: ['CHRIS', 'TINA', 'CHRISSY'],
  CHRISTINE: ['CHRIS', 'TINA', 'CHRISSY'],
  CHRISTOPHER: ['CHRIS', 'KIT', 'TOPHER'],
  CYNTHIA: ['CINDY'],
  DANIEL: ['DAN', 'DANNY'],
  DAVID: ['DAVE', 'DAVEY'],
  DEBORAH: ['DEB', 'DEBBIE', 'DEBRA'],
  DEBRA: ['DEB', 'DEBBIE'],
  DENNIS: ['DENNY'],
  DONALD: ['DON', 'DONNIE'],
  DOROTHY: ['DOT', 'DOTTIE', 'DOLLY'],
  DOUGLAS: ['DOUG'],
  EDWARD: ['ED', 'EDDIE', 'TED', 'NED'],
  ELIZABETH: ['LIZ', 'BETH', 'BETTY', 'LIZZIE', 'ELIZA', 'LIZA', 'BETSY', 'LISA', 'ELISE'],
  EMILY: ['EM', 'EMMY'],
  FREDERICK: ['FRED', 'FREDDIE', 'FRITZ'],
  GABRIEL: ['GABE'],
  GERALD: ['GERRY', 'JERRY'],
  GREGORY: ['GREG'],
  HAROLD: ['HAL', 'HARRY'],
  HENRY: ['HANK', 'HARRY'],
  ISABEL: ['BELLA', 'IZZY'],
  ISABELLA: ['BELLA', 'IZZY'],
  JACOB: ['JAKE'],
  JAMES: ['JIM', 'JIMMY', 'JAMIE'],
  JANET: ['JAN'],
  JEFFREY: ['JEFF'],
  JENNIFER: ['JEN', 'JENNY', 'JENNI'],
  JESSICA: ['JESS', 'JESSIE'],
  JOHN: ['JACK', 'JOHNNY', 'JON'],
  JONATHAN: ['JON', 'JONNY', 'NATHAN'],
  JOSEPH: ['JOE', 'JOEY'],
  JOSHUA: ['JOSH'],
  JUDITH: ['JUDY'],
  KATHERINE: ['KATE', 'KATHY', 'KATIE', 'KAT', 'KAY', 'KITTY'],
  KATHLEEN: ['KATHY', 'KATE', 'KATIE'],
  KENNETH: ['KEN', 'KENNY'],
  KIMBERLY: ['KIM'],
  LAWRENCE: ['LARRY'],
  LEONARD: ['LEN', 'LENNY', 'LEO'],
  MARGARET: ['MAGGIE', 'MEG', 'PEGGY', 'MARGE', 'MADGE', 'GRETA', 'PEG'],
  MARY: ['MOLLY', 'POLLY', 'MAMIE'],
  MATTHEW: ['MATT'],
  MICHAEL: ['MIKE', 'MICKEY', 'MICK', 'MIKEY'],
  MICHELLE: ['SHELLY', 'MICHELE'],
  NATHANIEL: ['NATE', 'NATHAN', 'NAT'],
  NICHOLAS: ['NICK', 'NICKY', 'COLE'],
  PAMELA: ['PAM'],
  PATRICIA: ['PAT', 'PATTY', 'TRISH', 'TRICIA'],
  PATRICK: ['PAT', 'PADDY'],
  PETER: ['PETE'],
  PHILIP: ['PHIL'],
  PHILLIP: ['PHIL'],
  RAYMOND: ['RAY'],
  REBECCA: ['BECKY', 'BECCA'],
  RICHARD: ['RICH', 'RICK', 'RICKY', 'DICK', 'RICHIE'],
  ROBERT: ['BOB', 'BOBBY', 'ROB', 'ROBBIE', 'BERT'],
  RONALD: ['RON', 'RONNIE'],
  SAMANTHA: ['SAM', 'SAMMY'],
  SAMUEL: ['SAM', 'SAMMY'],
  SANDRA: ['SANDY'],
  STEPHANIE: ['STEPH'],
  STEPHEN: ['STEVE', 'STEVIE'],
  STEVEN: ['STEVE', 'STEVIE'],
  SUSAN: ['SUE', 'SUSIE', 'SUZY'],
  TERESA: ['TERRI', 'TESS', 'TERRY'],
  THEODORE: ['TED', 'TEDDY', 'THEO'],
  THOMAS: ['TOM', 'TOMMY'],
  TIMOTHY: ['TIM', 'TIMMY'],
  VICTORIA: ['VICKY', 'TORI', 'VIKKI'],
  VINCENT: ['VINCE', 'VINNY'],
  WALTER: ['WALT', 'WALLY'],
  WILLIAM: ['BILL', 'BILLY', 'WILL', 'WILLIE', 'LIAM'],
  ZACHARY: ['ZACH', 'ZACK'],
};
const FORMALS_OF = new Map<string, Set<string>>();
for (const [formal, nicks] of Object.entries(NICKNAMES)) {
  for (const n of nicks) {
    if (!FORMALS_OF.has(n)) FORMALS_OF.set(n, new Set());
    FORMALS_OF.get(n)!.add(formal);
  }
}

const compact = (s: string) => s.replace(/[^A-Z0-9]/g, '');

function clean(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/&/g, ' AND ')
    .replace(/['’`.]/g, '')
    .replace(/[^A-Z0-9,\- ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const isSuffix = (t: string, i: number, n: number) => SUFFIXES.has(t) || (t === 'V' && i === n - 1 && n >= 3);

/** Parsed names by their text: the merger compares the same few names over and over. Bounded; the results are frozen. */
const PARSED = new Map<string, ParsedName>();
const PARSED_MAX = 5_000;

/** Parses a full name (`Jane Q. Doe Jr.`, `DOE, JANE Q`) or the structured parts of a Person. The result is frozen. */
export function parseName(input: string | PersonName | null | undefined): ParsedName {
  const key =
    typeof input === 'string'
      ? `s:${input}`
      : input
        ? `o:${input.name ?? ''}\u0000${input.name_first ?? ''}\u0000${input.name_middle ?? ''}\u0000${input.name_last ?? ''}\u0000${input.name_suffix ?? ''}`
        : 'nil';
  const hit = PARSED.get(key);
  if (hit) return hit;
  const parsed = parseNameUncached(input);
  Object.freeze(parsed.middle);
  if (PARSED.size >= PARSED_MAX) PARSED.delete(PARSED.keys().next().value!);
  PARSED.set(key, Object.freeze(parsed));
  return parsed;
}

function parseNameUncached(input: string | PersonName | null | undefined): ParsedName {
  if (input && typeof input === 'object' && !input.name && (input.name_first || input.name_last)) {
    const first = clean(input.name_first ?? '').split(' ')[0] ?? '';
    const middle = clean(input.name_middle ?? '')
      .split(' ')
      .filter(Boolean);
    const last = clean(input.name_last ?? '');
    const suffix = compact(clean(input.name_suffix ?? ''));
    return { first, middle, last, suffix, business: false, compact: compact([first, ...middle, last].join('')) };
  }
  const raw = typeof input === 'string' ? input : (input?.name ?? '');
  let s = clean(raw);
  const business = BUSINESS.test(s);
  if (business) return { first: '', middle: [], last: s.replace(/,/g, ''), suffix: '', business, compact: compact(s) };
  let tokens: string[];
  const parts = s
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length >= 2 && !parts.slice(1).every((p) => p.split(' ').every((t) => SUFFIXES.has(t)))) {
    // LAST, FIRST MIDDLE [, SUFFIX]
    const lastTokens = parts[0]!.split(' ');
    const rest = parts.slice(1).join(' ').split(' ');
    let suffix = '';
    if (lastTokens.length > 1 && SUFFIXES.has(lastTokens[lastTokens.length - 1]!)) suffix = lastTokens.pop()!;
    const given = rest.filter((t) => !PREFIXES.has(t));
    if (given.length > 1 && isSuffix(given[given.length - 1]!, given.length - 1, given.length + 1))
      suffix = given.pop()!;
    return {
      first: given[0] ?? '',
      middle: given.slice(1),
      last: lastTokens.join(' '),
      suffix,
      business,
      compact: compact(s),
    };
  }
  s = s.replace(/,/g, ' ');
  tokens = s.split(' ').filter(Boolean);
  while (tokens.length > 1 && PREFIXES.has(tokens[0]!)) tokens.shift();
  let suffix = '';
  if (tokens.length > 2 && isSuffix(tokens[tokens.length - 1]!, tokens.length - 1, tokens.length))
    suffix = tokens.pop()!;
  if (tokens.length === 1) return { first: '', middle: [], last: tokens[0]!, suffix, business, compact: compact(s) };
  return {
    first: tokens[0] ?? '',
    middle: tokens.slice(1, -1),
    last: tokens[tokens.length - 1] ?? '',
    suffix,
    business,
    compact: compact(s),
  };
}

/** Whether two first names name the same person: equal or related by a nickname (not transitively). */
export function firstNamesMatch(a: string, b: string): boolean {
  const x = compact(a);
  const y = compact(b);
  if (!x || !y) return false;
  if (x === y) return true;
  if (x.length === 1 || y.length === 1) return false;
  if (NICKNAMES[x]?.includes(y) || NICKNAMES[y]?.includes(x)) return true;
  const fx = FORMALS_OF.get(x);
  const fy = FORMALS_OF.get(y);
  if (fx && fy) for (const f of fx) if (fy.has(f)) return true;
  return false;
}

function lastNamesMatch(a: string, b: string): boolean {
  const x = compact(a);
  const y = compact(b);
  if (!x || !y) return false;
  if (x === y) return true;
  const partsA = a.split(/[-\s]/).map(compact).filter(Boolean);
  const partsB = b.split(/[-\s]/).map(compact).filter(Boolean);
  return (a.includes('-') && partsA.includes(y)) || (b.includes('-') && partsB.includes(x));
}

function middlesCompatible(a: string[], b: string[]): boolean {
  if (!a.length || !b.length) return true;
  const x = compact(a[0]!);
  const y = compact(b[0]!);
  if (x === y) return true;
  if (x.length === 1 || y.length === 1) return x[0] === y[0];
  return firstNamesMatch(x, y);
}

/** Whether two names (strings or Person parts) name the same person under the rules above. */
export function namesMatch(
  a: string | PersonName | null | undefined,
  b: string | PersonName | null | undefined,
): boolean {
  const x = parseName(a);
  const y = parseName(b);
  if (!x.compact || !y.compact) return false;
  if (x.business || y.business) return x.business && y.business && x.compact === y.compact;
  if (!lastNamesMatch(x.last, y.last)) return false;
  if (x.suffix && y.suffix && x.suffix !== y.suffix) return false;
  if (!x.first || !y.first) return !x.first && !y.first;
  if (firstNamesMatch(x.first, y.first)) return middlesCompatible(x.middle, y.middle);
  // `Mary Ann` (first + middle) against `Maryann` / `Mary-Ann`
  const joinedX = compact(x.first + (x.middle[0] ?? ''));
  const joinedY = compact(y.first + (y.middle[0] ?? ''));
  return (x.middle.length > 0 && joinedX === compact(y.first)) || (y.middle.length > 0 && joinedY === compact(x.first));
}

/** `JANE Q DOE JR` from a parsed name. */
export function formatName(p: ParsedName): string {
  if (p.business) return p.last;
  return [p.first, ...p.middle, p.last, p.suffix].filter(Boolean).join(' ');
}

/** `DOE, JANE Q` (the form DMV portals show). */
export function formatLastFirst(p: ParsedName): string {
  if (p.business || !p.first) return formatName(p);
  return `${p.last}${p.suffix ? ' ' + p.suffix : ''}, ${[p.first, ...p.middle].join(' ')}`;
}

/** A person's display name: `name`, else the parts joined. */
export function personName(p: PersonName | null | undefined): string {
  if (!p) return '';
  if (p.name?.trim()) return p.name.trim();
  return [p.name_first, p.name_middle, p.name_last, p.name_suffix]
    .filter((s) => s && s.trim())
    .join(' ')
    .trim();
}
