/**
 * The pure part of the plugin API: helpers that load no schema library, no
 * service and no database (VIN checks and decoding, names, JSON pointers, the
 * package root, the domain rules: state codes, transaction kinds, the filing
 * state). core/plugin-api.ts exports all of it too; a plugin imports this
 * module instead for code that runs outside an engine and must start fast and
 * small: a worker thread (the OCR plugin's PDF readers load the reading code
 * in each worker), a one-shot CLI command, the forms renderer used as a
 * library. test/core/plugin-api.test.ts checks that it stays a subset and
 * loads none of the rest.
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
export * from './model/domain.js';
