/**
 * The four-eyes rule (functions/src/common/four-eyes.ts): who may review what another person
 * requested, in each mode, and what the review records when the two cannot be told apart.
 */
import { describe, expect, it } from 'vitest';
import { caveats, reviewVerdict } from '../../../functions/src/common/four-eyes.ts';

const ada = { uid: 'user-1' };
const bo = { uid: 'user-2' };
const anonymous = { uid: 'anonymous' };

describe('reviewVerdict', () => {
  it.each([
    ['protected', ada, bo, { outcome: 'independent' }],
    ['protected', ada, ada, { outcome: 'self' }],
    ['protected', anonymous, bo, { outcome: 'not-independent', caveat: caveats.anonymousRequest }],
    ['public', anonymous, anonymous, { outcome: 'not-independent', caveat: caveats.publicMode }],
    ['public', ada, anonymous, { outcome: 'not-independent', caveat: caveats.publicMode }],
    ['public', ada, bo, { outcome: 'not-independent', caveat: caveats.publicMode }],
    ['public', ada, ada, { outcome: 'self' }],
  ] as const)('in %s mode, requested by %j and reviewed by %j: %j', (mode, requester, reviewer, verdict) => {
    expect(reviewVerdict(requester, reviewer, mode)).toEqual(verdict);
  });
});
