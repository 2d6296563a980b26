import { expect } from 'chai';
import { TitledError } from '../../core/errors.js';
import {
  JOB_PHASE_ORDER,
  JOB_STATUSES,
  JOB_STATUS_MOVES,
  assertJobStatusMove,
  canMoveJobStatus,
  type JobStatus,
} from '../../core/status.js';

describe('job_status machine', () => {
  it('allows every move in the table', () => {
    let n = 0;
    for (const from of JOB_STATUSES) {
      for (const to of JOB_STATUS_MOVES[from]) {
        expect(canMoveJobStatus(from, to), `${from} -> ${to}`).to.equal(true);
        expect(() => assertJobStatusMove(from, to), `${from} -> ${to}`).to.not.throw();
        n++;
      }
    }
    expect(n).to.be.greaterThan(10);
  });

  it('refuses every move not in the table with CONFLICT', () => {
    let n = 0;
    for (const from of JOB_STATUSES) {
      for (const to of JOB_STATUSES) {
        if (JOB_STATUS_MOVES[from].includes(to)) continue;
        expect(canMoveJobStatus(from, to), `${from} -> ${to}`).to.equal(false);
        let err: unknown;
        try {
          assertJobStatusMove(from, to);
        } catch (e) {
          err = e;
        }
        expect(err, `${from} -> ${to}`).to.be.instanceOf(TitledError);
        expect((err as TitledError).code).to.equal('CONFLICT');
        expect((err as TitledError).status).to.equal(409);
        expect((err as TitledError).message).to.contain(`${from} to ${to}`);
        n++;
      }
    }
    expect(n).to.be.greaterThan(0);
  });

  it('refuses complete -> generating_forms and error -> complete', () => {
    expect(() => assertJobStatusMove('complete', 'generating_forms')).to.throw(
      TitledError,
      /complete to generating_forms/,
    );
    expect(() => assertJobStatusMove('error', 'complete')).to.throw(TitledError);
  });

  it('matches the spec: requests enter pending or enriching from any status, processing ends in complete or error', () => {
    for (const from of JOB_STATUSES) {
      expect(
        canMoveJobStatus(from, 'enriching') || from === 'enriching',
        `${from} -> enriching (POST /title/{id}/data, /fees)`,
      ).to.equal(true);
      expect(
        canMoveJobStatus(from, 'pending') || from === 'pending',
        `${from} -> pending (POST /title update)`,
      ).to.equal(true);
    }
    for (const from of ['pending', 'input_parsing', 'enriching', 'generating_forms'] as JobStatus[]) {
      expect(canMoveJobStatus(from, 'complete'), `${from} -> complete`).to.equal(true);
      expect(canMoveJobStatus(from, 'error'), `${from} -> error`).to.equal(true);
    }
    // terminal states are left only by a request, never by the pipeline moving on
    for (const from of ['complete', 'error'] as JobStatus[]) {
      for (const to of ['input_parsing', 'generating_forms', 'complete', 'error'] as JobStatus[]) {
        if (to !== from) expect(canMoveJobStatus(from, to), `${from} -> ${to}`).to.equal(false);
      }
    }
  });

  it('lets the pipeline move forward through the phases only', () => {
    const phases: JobStatus[] = ['pending', 'input_parsing', 'enriching', 'generating_forms', 'complete'];
    for (let i = 0; i < phases.length; i++) {
      for (let j = i + 1; j < phases.length; j++) {
        expect(canMoveJobStatus(phases[i]!, phases[j]!), `${phases[i]} -> ${phases[j]}`).to.equal(true);
        expect(JOB_PHASE_ORDER[phases[i]!]).to.be.lessThan(JOB_PHASE_ORDER[phases[j]!]);
      }
    }
    // backwards only to a request's status (pending, enriching)
    expect(canMoveJobStatus('generating_forms', 'input_parsing')).to.equal(false);
    expect(canMoveJobStatus('enriching', 'input_parsing')).to.equal(false);
  });
});
