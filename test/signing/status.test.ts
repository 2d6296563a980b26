import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../core/paths.js';
import {
  SIGNATURE_REQUEST_STATUS_MOVES,
  SIGNATURE_REQUEST_STATUSES,
  assertSignatureRequestMove,
  isOpenSignatureStatus,
} from '../../core/status.js';

function docTable(): Record<string, string[]> {
  const doc = readFileSync(join(packageRoot, 'docs', 'statuses.md'), 'utf8');
  const body = doc.split(/^## /m).find((s) => s.startsWith('signature request status\n'))!;
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

describe('signature request status machine', () => {
  it('docs/statuses.md shows the table of core/status.ts', () => {
    expect(docTable()).to.deep.equal(
      Object.fromEntries(Object.entries(SIGNATURE_REQUEST_STATUS_MOVES).map(([k, v]) => [k, [...v]])),
    );
  });

  it('every listed move is allowed, every other refused with CONFLICT', () => {
    for (const from of SIGNATURE_REQUEST_STATUSES) {
      for (const to of SIGNATURE_REQUEST_STATUSES) {
        const call = () => assertSignatureRequestMove(from, to);
        if (SIGNATURE_REQUEST_STATUS_MOVES[from].includes(to)) expect(call).not.to.throw();
        else
          expect(call)
            .to.throw(/cannot move/)
            .with.property('code', 'CONFLICT');
      }
    }
  });

  it('final statuses lead nowhere; exactly DRAFT, SENT and PARTIALLY_SIGNED are open', () => {
    for (const s of SIGNATURE_REQUEST_STATUSES) {
      expect(isOpenSignatureStatus(s), s).to.equal(['DRAFT', 'SENT', 'PARTIALLY_SIGNED'].includes(s));
      if (!isOpenSignatureStatus(s)) expect(SIGNATURE_REQUEST_STATUS_MOVES[s], s).to.deep.equal([]);
    }
    expect(() => assertSignatureRequestMove('DRAFT', 'COMPLETED')).to.throw(/DRAFT to COMPLETED/);
  });
});
