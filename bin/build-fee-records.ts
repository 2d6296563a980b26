/**
 * Build step (`npm run build`, after tsc): validates every state's
 * `states/<code>/fees.json` and writes its record under dist/states/validated/
 * (states/fee-data.ts says what a record is and how the loader uses it). A
 * file that fails is reported here and validated again, and refused, at run
 * time; the build itself does not fail on data.
 */
import { writeFeeRecords } from '../states/fee-schema.js';

const { written, failed } = writeFeeRecords();
for (const f of failed) process.stderr.write(`build: fee data not recorded: ${f}\n`);
process.stdout.write(`build: fee data of ${written.length} states validated and recorded\n`);
