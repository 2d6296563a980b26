import { testStateFees } from '../../support/tester-fees.js';

// Generic checks only: golden cases are written for the ten largest states (docs/fees.md).
testStateFees('SD');
