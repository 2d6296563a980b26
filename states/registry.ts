/**
 * The state plugins (forms part), one per jurisdiction: an explicit list,
 * sorted by code, never a directory scan. Adding a state adds a folder, an
 * import and an entry here (test/states/registry.test.ts keeps the list
 * complete and sorted).
 */
import ak from './ak/forms.js';
import al from './al/forms.js';
import ar from './ar/forms.js';
import az from './az/forms.js';
import ca from './ca/forms.js';
import co from './co/forms.js';
import ct from './ct/forms.js';
import dc from './dc/forms.js';
import de from './de/forms.js';
import fl from './fl/forms.js';
import ga from './ga/forms.js';
import hi from './hi/forms.js';
import ia from './ia/forms.js';
import id from './id/forms.js';
import il from './il/forms.js';
import in_ from './in/forms.js';
import ks from './ks/forms.js';
import ky from './ky/forms.js';
import la from './la/forms.js';
import ma from './ma/forms.js';
import md from './md/forms.js';
import me from './me/forms.js';
import mi from './mi/forms.js';
import mn from './mn/forms.js';
import mo from './mo/forms.js';
import ms from './ms/forms.js';
import mt from './mt/forms.js';
import nc from './nc/forms.js';
import nd from './nd/forms.js';
import ne from './ne/forms.js';
import nh from './nh/forms.js';
import nj from './nj/forms.js';
import nm from './nm/forms.js';
import nv from './nv/forms.js';
import ny from './ny/forms.js';
import oh from './oh/forms.js';
import ok from './ok/forms.js';
import or from './or/forms.js';
import pa from './pa/forms.js';
import ri from './ri/forms.js';
import sc from './sc/forms.js';
import sd from './sd/forms.js';
import tn from './tn/forms.js';
import tx from './tx/forms.js';
import ut from './ut/forms.js';
import va from './va/forms.js';
import vt from './vt/forms.js';
import wa from './wa/forms.js';
import wi from './wi/forms.js';
import wv from './wv/forms.js';
import wy from './wy/forms.js';
import type { StatePlugin } from './types.js';

/** Every state plugin, sorted by code (50 states and DC). */
export const STATE_PLUGINS: readonly StatePlugin[] = Object.freeze([
  ak,
  al,
  ar,
  az,
  ca,
  co,
  ct,
  dc,
  de,
  fl,
  ga,
  hi,
  ia,
  id,
  il,
  in_,
  ks,
  ky,
  la,
  ma,
  md,
  me,
  mi,
  mn,
  mo,
  ms,
  mt,
  nc,
  nd,
  ne,
  nh,
  nj,
  nm,
  nv,
  ny,
  oh,
  ok,
  or,
  pa,
  ri,
  sc,
  sd,
  tn,
  tx,
  ut,
  va,
  vt,
  wa,
  wi,
  wv,
  wy,
]);

/** The enabled state plugins by code: config `states` (two-letter codes; empty = all). Throws on a code with no plugin. */
export function loadStatePlugins(
  enabled: readonly string[] = [],
  all: readonly StatePlugin[] = STATE_PLUGINS,
): ReadonlyMap<string, StatePlugin> {
  const byCode = new Map(all.map((s) => [s.code, s]));
  if (enabled.length === 0) return byCode;
  const out = new Map<string, StatePlugin>();
  for (const raw of enabled) {
    const code = raw.toUpperCase();
    const plugin = byCode.get(code);
    if (!plugin)
      throw new Error(
        `config states lists '${raw}', which has no state plugin (known: ${[...byCode.keys()].join(', ')})`,
      );
    out.set(code, plugin);
  }
  return out;
}
