import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { packageRoot } from '../../core/paths.js';
import {
  SUBMISSION_STATUS_MOVES,
  SUBMISSION_FINAL_STATUSES,
  assertSubmissionStatusMove,
  type SubmissionStatus,
} from '../../core/status.js';
import { accountSteps } from '../../plugins/submission/lifecycle.js';

function docTable(): Record<string, string[]> {
  const doc = readFileSync(join(packageRoot, 'docs', 'statuses.md'), 'utf8');
  const body = doc.split(/^## /m).find((s) => s.startsWith('submission status\n'))!;
  const rows = [...body.matchAll(/^\| ([A-Z_]+) \|([A-Z_, ]*)\|$/gm)];
  return Object.fromEntries(
    rows.map((m) => [
      m[1],
      m[2]!
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ]),
  );
}

describe('submission: status machine', () => {
  it('docs/statuses.md shows the submission table of core/status.ts', () => {
    expect(docTable()).to.deep.equal(
      Object.fromEntries(Object.entries(SUBMISSION_STATUS_MOVES).map(([k, v]) => [k, [...v]])),
    );
  });
  it('every listed move is allowed and every other move is refused with CONFLICT', () => {
    const all = Object.keys(SUBMISSION_STATUS_MOVES) as SubmissionStatus[];
    for (const [from, tos] of Object.entries(SUBMISSION_STATUS_MOVES) as [
      SubmissionStatus,
      readonly SubmissionStatus[],
    ][]) {
      for (const to of all) {
        const call = () => assertSubmissionStatusMove(from, to);
        if (tos.includes(to)) expect(call, `${from} -> ${to}`).not.to.throw();
        else
          expect(call, `${from} -> ${to}`)
            .to.throw(/cannot move/)
            .with.property('code', 'CONFLICT');
      }
    }
  });
  it('final statuses have no way out; every other status can be canceled', () => {
    for (const s of SUBMISSION_FINAL_STATUSES) expect(SUBMISSION_STATUS_MOVES[s]).to.deep.equal([]);
    for (const [s, tos] of Object.entries(SUBMISSION_STATUS_MOVES)) {
      if (!SUBMISSION_FINAL_STATUSES.includes(s as SubmissionStatus)) expect(tos, s).to.include('CANCELED');
    }
  });
  it('account_status steps per submission move (perfected only when said)', () => {
    expect(accountSteps('SUBMITTED', false)).to.deep.equal(['filing_en_route']);
    expect(accountSteps('UNDER_REVIEW', false)).to.deep.equal(['filing_en_route', 'filing_received']);
    expect(accountSteps('ACCEPTED', false)).to.deep.equal(['filing_en_route', 'filing_received', 'lien_filed']);
    expect(accountSteps('ACCEPTED', true)).to.deep.equal([
      'filing_en_route',
      'filing_received',
      'lien_filed',
      'lien_perfected',
    ]);
    expect(accountSteps('REJECTED', false)).to.deep.equal(['lien_error']);
    expect(accountSteps('CANCELED', false)).to.deep.equal([]);
    expect(accountSteps('ACTION_REQUIRED', false)).to.deep.equal([]);
  });
});
