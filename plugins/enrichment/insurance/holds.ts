/**
 * The INSURANCE hold on `vehicle.reg_title_holds`: added when coverage
 * lapsed or was cancelled, cleared (clear_date set, kept for history) when
 * coverage is active again. Only holds this plugin added (`source:
 * "insurance"`) are touched; `has_reg_title_holds` is true while any hold
 * has no clear_date.
 */
import type { AccountData } from '../../../core/plugin-api.js';
import type { InsuranceCoverage } from '../common/provider.js';

type Hold = NonNullable<NonNullable<AccountData['vehicle']>['reg_title_holds']>[number];
export const HOLD_SOURCE = 'insurance';

export function applyInsuranceHold(
  ad: AccountData,
  coverage: InsuranceCoverage,
  today: string,
): 'hold_added' | 'hold_cleared' | 'unchanged' {
  const vehicle = (ad.vehicle ??= {});
  const holds: Hold[] = [...(vehicle.reg_title_holds ?? [])];
  const open = holds.filter((h) => h.hold_type === 'INSURANCE' && h.source === HOLD_SOURCE && !h.clear_date);
  let result: 'hold_added' | 'hold_cleared' | 'unchanged' = 'unchanged';
  if (coverage.status === 'ACTIVE') {
    if (open.length) {
      for (const h of open) h.clear_date = today;
      result = 'hold_cleared';
    }
  } else if (!open.length) {
    const ended = coverage.lapse_date ?? coverage.expiration_date ?? today;
    holds.push({
      hold_type: 'INSURANCE',
      hold_code: coverage.status === 'CANCELLED' ? 'INSURANCE_CANCELLED' : 'INSURANCE_LAPSED',
      hold_description: `Insurance coverage ${coverage.status === 'CANCELLED' ? 'cancelled' : 'lapsed'} on ${ended}${coverage.provider_name ? ` (${coverage.provider_name}${coverage.policy_number ? `, policy ${coverage.policy_number}` : ''})` : ''}`,
      issue_date: ended,
      source: HOLD_SOURCE,
    });
    result = 'hold_added';
  }
  if (result !== 'unchanged' || vehicle.reg_title_holds) {
    vehicle.reg_title_holds = holds;
    vehicle.has_reg_title_holds = holds.some((h) => !h.clear_date);
  }
  return result;
}
