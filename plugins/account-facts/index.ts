import { injectable } from 'tsyringe';
import type { Organization, TitleEntry, EnginePlugin } from '../../core/plugin-api.js';
import { computeAccountFacts } from './facts.js';

/**
 * account-facts (preview): adds `account_facts` to the entry as clients see
 * it, at read time, for organizations with the setting `preview: true`
 * (Organizations.updateSettings) and only when `job_status` is `complete`;
 * otherwise the member is absent. Computed from the entry as it is, so it
 * never goes stale after a PATCH.
 */
@injectable()
export class AccountFactsPlugin implements EnginePlugin {
  readonly name = 'account-facts';

  present(entry: TitleEntry, ctx: { org?: Readonly<Organization> }): void {
    delete entry.account_facts;
    if (ctx.org?.settings.preview !== true || entry.job_status !== 'complete') return;
    entry.account_facts = computeAccountFacts(entry);
  }
}
