/**
 * The pure part of the plugin API: helpers that load no schema library, no
 * service and no database (VIN checks and decoding, names, JSON pointers, the
 * package root). core/plugin-api.ts exports all of it too; a plugin imports
 * this module instead only for code that runs outside an engine and must start
 * fast: a worker thread (the OCR plugin's PDF readers load the reading code in
 * each worker) or a one-shot CLI command. test/core/plugin-api.test.ts checks
 * that it stays a subset and loads none of the rest.
 */
export {
  namesMatch,
  firstNamesMatch,
  parseName,
  personName,
  formatName,
  formatLastFirst,
  type ParsedName,
  type PersonName,
} from './model/names.js';
export { getAt, setAt, deleteAt, present, deepEqual, fingerprint } from './model/pointer.js';
export { checkVin, normalizeVin, computeCheckDigit, type VinCheck } from './vin.js';
export { decodeVin, wmiTable, countryOf, modelYearOf, type DecodedVin, type WmiEntry } from './vin-decode.js';
export { packageRoot } from './paths.js';
