import { TitledError } from '../errors.js';

/** Shape limits of a JSON request body (config `limits`, docs/errors.md "Limits"). */
export interface JsonLimits {
  /** Deepest nesting of objects and arrays. */
  maxDepth: number;
  /** Most members of one object, or elements of one array. */
  maxMembers: number;
  /** Longest string, member names included (in UTF-16 code units of the JSON text, escapes counted as written). */
  maxStringLength: number;
}

/**
 * Checks the shape of JSON text before it is parsed, in one pass without
 * recursion, so a body nested 100,000 deep costs a loop, not a stack: every
 * later step (validation, merge, clone, job input) recurses over the parsed
 * value and is safe only within these limits. The text need not be valid
 * JSON; `JSON.parse` judges that afterwards.
 */
export function assertJsonShape(text: string, limits: JsonLimits): void {
  const members: number[] = [];
  let inString = false;
  let stringStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) {
        inString = false;
        if (i - stringStart > limits.maxStringLength) {
          throw new TitledError(
            'INVALID_INPUT',
            `a string in the request body is longer than ${limits.maxStringLength} characters`,
          );
        }
      }
      continue;
    }
    switch (c) {
      case 0x22: // "
        inString = true;
        stringStart = i + 1;
        if (members.length && members[members.length - 1] === 0) members[members.length - 1] = 1;
        break;
      case 0x7b: // {
      case 0x5b: // [
        if (members.length && members[members.length - 1] === 0) members[members.length - 1] = 1;
        if (members.length >= limits.maxDepth) {
          throw new TitledError('INVALID_INPUT', `the request body is nested deeper than ${limits.maxDepth} levels`);
        }
        members.push(0);
        break;
      case 0x7d: // }
      case 0x5d: // ]
        members.pop();
        break;
      case 0x2c: // ,
        if (members.length) {
          const n = ++members[members.length - 1]!;
          if (n > limits.maxMembers)
            throw new TitledError(
              'INVALID_INPUT',
              `an object or array in the request body has more than ${limits.maxMembers} members`,
            );
        }
        break;
      case 0x20:
      case 0x0a:
      case 0x0d:
      case 0x09:
      case 0x3a: // whitespace, :
        break;
      default: // a number or literal starts or continues
        if (members.length && members[members.length - 1] === 0) members[members.length - 1] = 1;
    }
  }
  if (inString && text.length - stringStart > limits.maxStringLength) {
    throw new TitledError(
      'INVALID_INPUT',
      `a string in the request body is longer than ${limits.maxStringLength} characters`,
    );
  }
}
