/**
 * The one mapping from domain errors to problems: each error of a store or check becomes the
 * exact problem the API has always answered (status, code, detail, pointers, headers), placed
 * in the body where the family says its items are. Unknown errors are no problem (the core
 * answers 500).
 */
import { describe, expect, it } from 'vitest';
import { AnalysisEnded, AnalysisKeyReused } from '../../../functions/src/analyses/analysis-model.ts';
import {
  EvidenceConflict,
  EvidenceInFlight,
  EvidenceKeyReused,
  EvidenceRejected,
  EvidenceTooLarge,
} from '../../../functions/src/evidence/evidence-errors.ts';
import { describeRunFailure, problemFor } from '../../../functions/src/http/domain-problems.ts';
import { ApiProblem } from '../../../functions/src/http/problem.ts';
import { checkAttachments } from '../../../functions/src/submissions/attachment-checks.ts';

/** What a problem answers with, as plain data. */
function answer(error: unknown, place = {}) {
  const problem = problemFor(error, place);
  return (
    problem && {
      status: problem.status,
      code: problem.code,
      detail: problem.message,
      errors: problem.errors,
      headers: problem.headers,
    }
  );
}

function rejectionOf(check: () => void): unknown {
  try {
    check();
  } catch (error) {
    return error;
  }
  throw new Error('the check passed');
}

describe('problemFor', () => {
  it('points at items in a batch, or at the body that is the one item', () => {
    const rejected = new EvidenceRejected([
      { item: 1, field: 'id', repeats: 0 },
      { item: 2, field: 'data', maxDepth: 32 },
    ]);
    expect(answer(rejected, { items: '/items' })).toEqual({
      status: 400,
      code: 'invalid_request',
      detail: '2 parts of the request do not match the API description; see errors.',
      errors: [
        { in: 'body', pointer: '/items/1/id', message: 'repeats the id of /items/0' },
        { in: 'body', pointer: '/items/2/data', message: 'nests deeper than 32 levels' },
      ],
      headers: {},
    });
    expect(answer(new EvidenceRejected([{ item: 0, field: 'data', maxDepth: 32 }]))).toEqual({
      status: 400,
      code: 'invalid_request',
      detail: 'The body /data nests deeper than 32 levels.',
      errors: [{ in: 'body', pointer: '/data', message: 'nests deeper than 32 levels' }],
      headers: {},
    });
  });

  it('names at most five items that are too large', () => {
    const items = [0, 1, 2, 3, 4, 5, 6].map((item) => ({ item, bytes: 70_000 + item }));
    expect(answer(new EvidenceTooLarge(items, 65_536), { items: '/items' })).toMatchObject({
      status: 413,
      code: 'evidence_too_large',
      detail:
        "An evidence item's data may be at most 65536 bytes as JSON: /items/0/data is 70000 bytes; /items/1/data is 70001 bytes; " +
        '/items/2/data is 70002 bytes; /items/3/data is 70003 bytes; /items/4/data is 70004 bytes and 2 more. Split it into ' +
        'several items or store the bulk as an attachment.',
    });
  });

  it('words conflicts, work in flight and reused keys', () => {
    expect(answer(new EvidenceConflict('tls-1', 'exists'))).toMatchObject({
      status: 409,
      code: 'evidence_conflict',
      detail:
        'An evidence item with id "tls-1" already exists with different content; evidence is append-only, so send the correction under a new id.',
    });
    expect(answer(new EvidenceConflict('tls-1', 'raced'))?.detail).toBe(
      'An evidence item with id "tls-1" was just stored by another request with different content; evidence is append-only, so send the correction under a new id.',
    );
    expect(answer(new EvidenceInFlight('peer_pending'))).toEqual({
      status: 503,
      code: 'evidence_in_flight',
      detail:
        'Some of these items are being stored by another request that has not finished; send this request again shortly and they will be reported as existing.',
      errors: undefined,
      headers: { 'Retry-After': '5' },
    });
    expect(answer(new EvidenceInFlight('too_slow'))?.detail).toBe(
      'This request took too long to store its items and stored none of them; send it again.',
    );
    expect(answer(new EvidenceKeyReused())).toMatchObject({
      status: 409,
      code: 'idempotency_key_reused',
      detail: 'This Idempotency-Key was already used for a different request body; use a new key for a new request.',
    });
    expect(answer(new AnalysisKeyReused())?.detail).toBe(
      'This Idempotency-Key already started an analysis with a different request; use a new key for a new run.',
    );
    expect(answer(new AnalysisEnded('an-1', 'run.completed', false))).toMatchObject({
      status: 409,
      code: 'analysis_ended',
      detail: 'The analysis an-1 already ended (run.completed); it can no longer be cancelled.',
    });
    expect(answer(new AnalysisEnded('an-1', 'control.evaluated', true))?.detail).toBe(
      'The analysis an-1 has evaluated every control and is finishing; it can no longer be cancelled.',
    );
  });

  it('words each refused attachment, pointing at the file in the form', () => {
    const limits = { maxFiles: 2, maxFileBytes: 4, mediaTypes: ['text/plain', 'application/pdf'] };
    const file = (name: string, mediaType: string, data: string) => ({ name, mediaType, data: Buffer.from(data) });
    const refused = (files: ReturnType<typeof file>[]) =>
      answer(
        rejectionOf(() => checkAttachments(files, limits)),
        { items: '/attachments' },
      );
    expect(refused([file('a', 'text/plain', 'a'), file('b', 'text/plain', 'b'), file('c', 'text/plain', 'c')])).toMatchObject({
      status: 413,
      code: 'attachment_too_large',
      detail: '3 files were attached; at most 2 are accepted.',
    });
    expect(refused([file('big.txt', 'text/plain', 'hello')])?.detail).toBe(
      'attachments[0] ("big.txt") is 5 bytes; each file may be at most 4 bytes.',
    );
    expect(refused([file('x.zip', 'application/zip', 'PK')])).toMatchObject({
      status: 415,
      code: 'attachment_type_not_allowed',
      detail: 'attachments[0] ("x.zip") is "application/zip"; accepted types are text/plain, application/pdf.',
    });
    expect(refused([file('ok.txt', 'text/plain', 'ok'), file('empty.txt', 'text/plain', '')])).toEqual({
      status: 400,
      code: 'invalid_request',
      detail: 'attachments[1] ("empty.txt") is empty.',
      errors: [{ in: 'body', pointer: '/attachments/1', message: 'is empty' }],
      headers: {},
    });
    expect(refused([file('r.pdf', 'application/pdf', 'text')])?.detail).toBe(
      'attachments[0] ("r.pdf") claims to be "application/pdf" but its content is not.',
    );
  });

  it('passes problems through and leaves other errors to the core', () => {
    const problem = new ApiProblem('not_found', 'No operation exists at /api/x.');
    expect(problemFor(problem)).toBe(problem);
    expect(problemFor(new Error('bug'))).toBeUndefined();
    expect(problemFor('thrown string')).toBeUndefined();
  });
});

describe('describeRunFailure', () => {
  it('gives a failed run its problem as an entry of the catalog', () => {
    expect(describeRunFailure({ failure: 'worker_lost', started: true })).toEqual({
      code: 'worker_lost',
      title: 'Analysis abandoned',
      detail: 'The run\u2019s worker stopped without finishing it.',
    });
    expect(describeRunFailure({ failure: 'attempts_failed', attempts: 3 })).toEqual({
      code: 'internal',
      title: 'Internal error',
      detail: 'The run failed on each of its 3 attempts; the server logs have the cause.',
    });
    expect(describeRunFailure({ failure: 'controls_gone', controls: ['IAM-01', 'ZZZ-99'] })).toMatchObject({
      code: 'control_not_found',
      detail: 'The catalog no longer has IAM-01, ZZZ-99.',
    });
    expect(describeRunFailure({ failure: 'past_day', date: '2026-11-20', today: '2026-11-21' })).toMatchObject({
      code: 'report_immutable',
      detail: 'The run was to publish 2026-11-20, which is no longer today (2026-11-21); past reports never change.',
    });
  });
});
