/**
 * The `title` section: the title fee (original or transfer), the lien
 * recording fee, the duplicate title fee, a lien release, the state's other
 * title fees, and a late-title penalty (docs/fees.md, "Title").
 */
import type { FeeTransaction, Money } from '../../states/fee-schema.js';
import {
  addNamedFees,
  countyOverride,
  hasAny,
  LIEN,
  makeItem,
  noteUnknown,
  TITLE_ISSUING,
  usd,
  type Ctx,
} from './context.js';
import { latePenalty, lateConditions } from './late.js';
import type { FeeItemOut } from './types.js';

/** The transactions the title section's other fees belong to. */
const TITLE_OR_DUPLICATE: readonly FeeTransaction[] = [...TITLE_ISSUING, 'duplicate_title'];

interface SectionResult {
  items: FeeItemOut[];
}

export function titleSection(ctx: Ctx): SectionResult {
  const t = ctx.s.title;
  const items: FeeItemOut[] = [];
  const ov = countyOverride(ctx, t.county_overrides);
  const pick = (
    k: 'original' | 'transfer' | 'duplicate' | 'lien_recording',
  ): { fig: Money; path: string; county: string } | undefined => {
    const o = ov?.value[k];
    if (o) return { fig: o, path: `title.county_overrides.${ov!.key}.${k}`, county: ov!.key };
    const fig = t[k];
    return fig ? { fig, path: `title.${k}`, county: '' } : undefined;
  };
  const add = (
    feeType: FeeItemOut['feeType'],
    name: string,
    what: string,
    p: { fig: Money; path: string; county: string },
    relevant: readonly FeeTransaction[],
    extra: { late?: boolean } = {},
  ) => {
    const item = makeItem(ctx, {
      feeType,
      name,
      description: `${what}: ${usd(p.fig.cents)}${p.county ? ` (${p.county} County)` : ''}`,
      cents: p.fig.cents,
      figure: p.fig,
      dataPath: p.path,
      relevant,
      county: p.county,
      late: extra.late ? lateConditions(ctx, 'title') : [],
    });
    items.push(item);
    noteUnknown(ctx, 'title', item);
    return item;
  };

  let titleFee: FeeItemOut | undefined;
  if (hasAny(ctx, TITLE_ISSUING)) {
    if (ctx.firstInState === true) {
      titleFee = add(
        'TitleFee',
        'Certificate of title (original)',
        'First title in this state (new vehicle or last titled elsewhere)',
        pick('original')!,
        TITLE_ISSUING,
        { late: true },
      );
    } else {
      const transfer = pick('transfer');
      if (ctx.firstInState === undefined)
        ctx.assumptions.push(
          `title: the vehicle is taken to be titled in ${ctx.s.state} already (transfer fee); give vehicle.new or the title's issuing state to decide`,
        );
      titleFee = transfer
        ? add(
            'TitleFee',
            'Certificate of title (transfer)',
            'New title for a vehicle titled in this state',
            transfer,
            TITLE_ISSUING,
            { late: true },
          )
        : add(
            'TitleFee',
            'Certificate of title',
            'Title fee (the state charges one title fee)',
            pick('original')!,
            TITLE_ISSUING,
            { late: true },
          );
    }
  }
  if (hasAny(ctx, LIEN))
    add('LienFee', 'Lien recording fee', 'Noting one lien on the title', pick('lien_recording')!, LIEN);
  if (ctx.tx.has('duplicate_title'))
    add('DuplicateTitleFee', 'Duplicate title', 'Replacement (lost, stolen or damaged) title', pick('duplicate')!, [
      'duplicate_title',
    ]);
  if (ctx.tx.has('lien_release')) {
    const item = makeItem(ctx, {
      feeType: 'LienReleaseFee',
      name: 'Lien release',
      description: 'Releasing a lien (and any clear title the state issues): no figure in the state fee data',
      cents: null,
      figure: { unsourced: true },
      dataPath: 'title',
      relevant: ['lien_release'],
      reason: `the ${ctx.s.state} fee data has no lien-release figure (it may be free)`,
    });
    items.push(item);
    noteUnknown(ctx, 'title', item);
  }
  if (hasAny(ctx, TITLE_OR_DUPLICATE)) {
    addNamedFees(ctx, 'title', t.additional_fees, 'title.additional_fees', {
      feeType: 'TitleAdditionalFee',
      relevant: TITLE_OR_DUPLICATE,
      baseCents: null,
      items,
    });
  }
  if (titleFee) latePenalty(ctx, 'title', titleFee.metadata.cents, items);
  return { items };
}
