/**
 * Which web sites count as a state's own publication for a fee figure's `src.url`
 * (issue 19): a blog, content farm, aggregator, forum or a private "plate" or
 * "title service" site is never a source. test/states/fee-sources.test.ts holds
 * every `src.url` of every `states/<code>/fees.json` to this list.
 *
 * - A host under `.gov` (state, county, city and federal governments: registration
 *   of `.gov` is limited to US government bodies).
 * - A host in the usTLD locality namespace `<name>.<st>.us` (`co.adams.co.us`,
 *   `legis.state.xx.us`), which is delegated to state and local governments. A bare
 *   second-level `.us` name (`feecalculator.us`) is open to anyone and is NOT official.
 * - The few official sites on other domains listed in {@link OFFICIAL_OTHER_DOMAINS},
 *   each with why it is the state's own publication.
 */

/** Official sites outside `.gov` and the locality `.us` namespace, each with the reason it is official. */
export const OFFICIAL_OTHER_DOMAINS: Readonly<Record<string, string>> = {
  'servicearizona.com':
    "Arizona Department of Transportation's Motor Vehicle Division online service site (linked from azdot.gov as ADOT MVD's own portal)",
  'nmonesource.com':
    'New Mexico Compilation Commission: the official publication of the New Mexico Statutes Annotated (NMSA 1978)',
  'scdmvonline.com':
    "the South Carolina Department of Motor Vehicles' own website (SCDMV publishes its services, forms, fees and news there; linked from sc.gov)",
  'kslegislature.org':
    "the Kansas Legislature's own site (Kansas Statutes Annotated as published by the Revisor of Statutes)",
  'floridarevenue.com':
    "the Florida Department of Revenue's own site (its discretionary sales surtax tables, DR-15DSS, and the address-to-county lookup are published there; linked from myflorida.com)",
  'broward.org':
    "Broward County's own government site (the county's Records, Taxes and Treasury Division acts as its tax collector for motor vehicle services)",
  'hamilton-co.org':
    "Hamilton County, Ohio's own government site (the Board of County Commissioners' pages, e.g. its Sales Tax Fund page)",
  'hillstax.org':
    "the Hillsborough County Tax Collector's own site (an elected constitutional officer of Florida, agent of FLHSMV for titles and registrations; its fee table lists the state's title fees)",
  'habershamga.com':
    "Habersham County, Georgia's own government site (its County Tag Office, agent of the Georgia DOR Motor Vehicle Division; fee page states the fees set by Georgia law)",
  'jeffersoncountyclerk.org':
    "the Jefferson County (Kentucky) Clerk's own site (an elected county official; Kentucky county clerks title and register vehicles for the Transportation Cabinet)",
  'wdfi.org':
    "the Wisconsin Department of Financial Institutions' own site (DFI publishes its Wisconsin Consumer Act guidance, e.g. on motor vehicle lien filings with the DMV, there; linked from wisconsin.gov)",
  'pbctax.com':
    "the Palm Beach County Tax Collector's own site (an elected constitutional officer of Florida, agent of FLHSMV for titles)",
};

/**
 * Official accounts on a shared government-communications host: only the
 * account's own path counts, never the host as a whole.
 */
const OFFICIAL_ACCOUNTS: Readonly<Record<string, string>> = {
  'content.govdelivery.com/accounts/OHTAX/':
    "the Ohio Department of Taxation's own bulletin account (GovDelivery, the notification service it links from tax.ohio.gov; account OHTAX)",
};

/** `.us` hosts of the locality namespace: `<anything>.<two-letter state>.us`. */
const LOCALITY_US =
  /\.(?:[a-z0-9-]+\.)?(?:al|ak|az|ar|ca|co|ct|de|dc|fl|ga|hi|id|il|in|ia|ks|ky|la|me|md|ma|mi|mn|ms|mo|mt|ne|nv|nh|nj|nm|ny|nc|nd|oh|ok|or|pa|ri|sc|sd|tn|tx|ut|vt|va|wa|wv|wi|wy)\.us$/;

/** The host a URL names, lower-cased, without a leading `www.`; null for an unparsable URL. */
export function sourceHost(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** Why `url` is an official source, or null when it is not one. */
export function officialReason(url: string): string | null {
  const host = sourceHost(url);
  if (!host) return null;
  if (host.endsWith('.gov')) return '.gov: a US government body';
  if (LOCALITY_US.test(host)) return 'locality .us namespace: a state or local government';
  for (const [domain, why] of Object.entries(OFFICIAL_OTHER_DOMAINS)) {
    if (host === domain || host.endsWith(`.${domain}`)) return why;
  }
  const path = `${host}${new URL(url).pathname}`;
  for (const [prefix, why] of Object.entries(OFFICIAL_ACCOUNTS)) if (path.startsWith(prefix)) return why;
  return null;
}
