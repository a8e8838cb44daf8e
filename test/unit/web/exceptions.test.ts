/**
 * How the pages word, split and send exceptions, counted from the list's own day, who reviewed
 * one, and where the server's errors go.
 */
import { describe, expect, it } from 'vitest';
import { apiPath } from '../../../hosting/src/lib/api-client.ts';
import type { Exception } from '../../../hosting/src/lib/api-types.ts';
import { addDays } from '../../../hosting/src/lib/due-dates.ts';
import {
  actorText,
  emptyExceptionValues,
  exceptionBody,
  exceptionProblemsOf,
  exceptionsQueryOf,
  expiryBounds,
  expiryText,
  reviewText,
  stateFrom,
  subjectText,
  subjectsOf,
  type ExceptionsQuery,
} from '../../../hosting/src/lib/exceptions.ts';

/** The path a page of exceptions is asked at, as the API client writes it. */
const exceptionsApiPath = (options?: ExceptionsQuery) => apiPath('/api/exceptions', { query: exceptionsQueryOf(options) });

const exception = (id: string, expiresOn: string, state: Exception['state'] = 'active'): Exception => ({
  id,
  controlId: 'IAM-01',
  subject: 'alice',
  justification: 'Accepted while the vendor ships a fix.',
  expiresOn,
  createdAt: '2026-11-01T09:00:00Z',
  requestedBy: { uid: 'u2', email: 'it-lead@example.com' },
  approver: { uid: 'u1', email: 'ciso@example.com' },
  state,
  review: null,
  revoked: null,
});

describe('the API path of a list of exceptions', () => {
  it('asks for active ones by default, ended or all of them when told, and of one control when named', () => {
    expect(exceptionsApiPath()).toBe('/api/exceptions');
    expect(exceptionsApiPath({ state: 'active' })).toBe('/api/exceptions');
    expect(exceptionsApiPath({ state: 'all' })).toBe('/api/exceptions?state=all');
    expect(exceptionsApiPath({ state: 'ended' })).toBe('/api/exceptions?state=ended');
    expect(exceptionsApiPath({ state: 'requested' })).toBe('/api/exceptions?state=requested');
    expect(exceptionsApiPath({ state: 'refused' })).toBe('/api/exceptions?state=refused');
    expect(exceptionsApiPath({ control: 'IAM-01' })).toBe('/api/exceptions?control=IAM-01');
    expect(exceptionsApiPath({ state: 'all', control: 'IAM-01' })).toBe('/api/exceptions?state=all&control=IAM-01');
  });

  it('asks for those expiring soon, and for the page after a cursor, encoded', () => {
    expect(exceptionsApiPath({ expiringWithin: 30 })).toBe('/api/exceptions?expiringWithin=30');
    expect(exceptionsApiPath({ state: 'ended', cursor: 'eyJvZiI6ImV4Y2VwdGlvbnMifQ==' })).toBe(
      '/api/exceptions?state=ended&cursor=eyJvZiI6ImV4Y2VwdGlvbnMifQ%3D%3D',
    );
  });

  it('reads the page filter from the address: all only when it says so', () => {
    expect(stateFrom(new URLSearchParams('state=all'))).toBe('all');
    expect(stateFrom(new URLSearchParams('state=revoked'))).toBe('active');
    expect(stateFrom(new URLSearchParams(''))).toBe('active');
  });
});

describe('an expiry as seen on the list day', () => {
  it('counts the days left from the list day, not the browser clock', () => {
    expect(expiryText(exception('a', '2026-12-24'), '2026-11-24')).toBe('expires in 30 days');
    expect(expiryText(exception('a', '2026-11-26'), '2026-11-24')).toBe('expires in 2 days');
    expect(expiryText(exception('a', '2026-11-25'), '2026-11-24')).toBe('expires tomorrow');
    expect(expiryText(exception('a', '2026-11-24'), '2026-11-24')).toBe('expires today');
  });

  it('says that a refused one was refused, whenever it would have expired', () => {
    expect(expiryText(exception('a', '2027-01-01', 'refused'), '2026-11-24')).toBe('refused');
  });

  it('says how long ago an expired one ended, and that a revoked one was revoked', () => {
    expect(expiryText(exception('a', '2026-11-23', 'expired'), '2026-11-24')).toBe('expired 1 day ago');
    expect(expiryText(exception('a', '2026-11-14', 'expired'), '2026-11-24')).toBe('expired 10 days ago');
    expect(expiryText(exception('a', '2027-01-01', 'revoked'), '2026-11-24')).toBe('revoked');
  });

  it('offers dates from tomorrow to 366 days ahead, across the year end and a leap day', () => {
    expect(expiryBounds('2026-11-24')).toEqual({ min: '2026-11-25', max: '2027-11-25' });
    expect(expiryBounds('2027-12-31')).toEqual({ min: '2028-01-01', max: '2028-12-31' });
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });
});

describe('an exception as a person reads it', () => {
  it('names what an exception covers and who approved it', () => {
    expect(subjectText(null)).toBe('Whole control');
    expect(subjectText('alice')).toBe('alice');
    expect(actorText({ uid: 'u1', email: 'a@example.com', name: 'A' })).toBe('a@example.com');
    expect(actorText({ uid: 'u1', name: 'A' })).toBe('A');
    expect(actorText({ uid: 'anonymous' })).toBe('anonymous');
  });
});

describe('the form', () => {
  it('offers the subjects the findings name, failing ones first, each once', () => {
    expect(
      subjectsOf([
        { outcome: 'pass', subject: 'bob' },
        { outcome: 'fail', subject: 'alice' },
        { outcome: 'missing' },
        { outcome: 'fail', subject: 'bob' },
        { outcome: 'pass', subject: 'carol' },
        { outcome: 'error', subject: 'dave' },
      ]),
    ).toEqual(['alice', 'bob', 'dave', 'carol']);
    expect(subjectsOf([{ outcome: 'missing' }])).toEqual([]);
  });

  it('sends the whole control as a null subject and the justification trimmed', () => {
    expect(exceptionBody('IAM-01', { subject: '', justification: '  Fixed next sprint.  ', expiresOn: '2026-12-01' })).toEqual({
      controlId: 'IAM-01',
      subject: null,
      justification: 'Fixed next sprint.',
      expiresOn: '2026-12-01',
    });
    expect(exceptionBody('IAM-01', { ...emptyExceptionValues(), subject: 'alice' })).toEqual({
      controlId: 'IAM-01',
      subject: 'alice',
      justification: '',
      expiresOn: '',
    });
  });

  it("places each body error under the field its pointer names, in the server's words", () => {
    const problems = exceptionProblemsOf({
      type: 'https://evident.example/problems/validation_failed',
      title: 'The request is not valid',
      status: 400,
      code: 'validation_failed',
      detail: 'The body does not match ExceptionInput.',
      errors: [
        { in: 'body', pointer: '/expiresOn', message: 'must be after today (2026-11-24, UTC)' },
        { in: 'body', pointer: '/justification', message: 'must have at least 10 characters' },
        { in: 'body', pointer: '/subject', message: "is not a subject of IAM-01's findings" },
        { in: 'body', pointer: '/controlId', message: 'names no control' },
        { in: 'query', name: 'x', message: 'is unknown' },
      ],
    } as never);
    expect(problems).toEqual({
      byField: {
        expiresOn: ['Expiry date must be after today (2026-11-24, UTC)'],
        justification: ['Justification must have at least 10 characters'],
        subject: ["Subject is not a subject of IAM-01's findings"],
      },
      summary: 'The body does not match ExceptionInput.',
    });
  });
});

describe('a review as a person reads it', () => {
  const review = {
    at: '2026-11-02T09:00:00Z',
    by: { uid: 'u1', email: 'ciso@example.com' },
    independent: true,
    caveat: null,
  };

  it('names the approver, with the comment when there is one', () => {
    expect(reviewText({ ...review, decision: 'approved', comment: null })).toBe('Approved by ciso@example.com');
    expect(reviewText({ ...review, decision: 'approved', comment: 'Until the migration.' })).toBe(
      'Approved by ciso@example.com: Until the migration.',
    );
  });

  it('names who refused it and why', () => {
    expect(reviewText({ ...review, decision: 'refused', comment: 'Migrate first.' })).toBe(
      'Refused by ciso@example.com: Migrate first.',
    );
  });
});
