/**
 * The names a question may use for the demo report's subjects and owners (entities.ts): found
 * word by word as written or one slip away, longest first, a short one-word name only as
 * written, and a long adversarial question read in one pass.
 */
import { describe, expect, it } from 'vitest';
import { entitiesOf } from '../../../functions/src/chat/offline/entities.ts';
import type { ReportIndex } from '../../../functions/src/chat/report-index.ts';
import { useEvaluationHistory } from '../../support/chat-evaluation.ts';

const demo = useEvaluationHistory();
const named = (text: string) =>
  entitiesOf(demo().index)
    .mentions(text)
    .map(({ entity }) => `${entity.kind}:${entity.display}`);

describe('the names a question uses for subjects and owners', () => {
  it('finds a subject by its full name or a shorter one, joined by any of the marks names use', () => {
    expect(named('what is wrong with acme/billing-service?')).toEqual(['subject:acme/billing-service']);
    expect(named('and billing service?')).toEqual(['subject:acme/billing-service']);
    expect(named('what does priya.patel fail')).toEqual(['subject:priya.patel@acme.example']);
    expect(named('is Priya Patel trained?')).toEqual(['subject:priya.patel@acme.example']);
  });

  it('names each entity once, by the longest name the question uses for it', () => {
    expect(named('is priya.patel@acme.example ok')).toEqual(['subject:priya.patel@acme.example']);
    expect(entitiesOf(demo().index).mentions('is priya.patel@acme.example ok')[0]).toMatchObject({
      alias: 'priya patel acme example',
      at: 3,
      end: 27,
    });
  });

  it('finds a long word one slip away, but a short one-word name only as written', () => {
    expect(named('what about the webhook-sigining key')).toEqual([
      'subject:projects/acme-prod/locations/europe-west1/keyRings/signing/cryptoKeys/webhook-signing',
    ]);
    expect(named('is lucas ok')).toEqual(['subject:lucas.silva@acme.example']);
    expect(named('is lukas ok')).toEqual([]);
    expect(named('what is the datadgo status')).toEqual([]);
  });

  it('finds an owner by its words, not inside another word', () => {
    expect(named('what does the it lead own')).toEqual(['owner:IT lead']);
    expect(named('what does the audit lead own')).toEqual([]);
    expect(named('which controls does the securty lead own')).toEqual(['owner:Security lead']);
  });

  it('reads a long question of near-names in one pass', () => {
    const text = `${'priya priya.x '.repeat(10_000)}acme-xps-004`;
    expect(named(text)).toEqual(['subject:ACME-XPS-004', 'subject:priya.patel@acme.example']);
    expect(named(`${'x.'.repeat(30_000)}okta`)).toEqual(['subject:Okta']);
  });

  it('finds one of 60,000 subjects that share their first word, in a question repeating that word', () => {
    const findings = Array.from({ length: 60_000 }, (_, n) => ({
      outcome: 'fail',
      message: 'no MFA',
      subject: `user-${n}@example.com`,
    }));
    // Only what the entities read of an index: each control's findings, expiring items and owner.
    const index = { controls: [{ result: { findings, expiring: [] } }] } as unknown as ReportIndex;
    const mentions = entitiesOf(index).mentions(`${'is user ok, '.repeat(160)}and user-4711?`);
    expect(mentions.map(({ entity, alias }) => [entity.display, alias])).toEqual([['user-4711@example.com', 'user 4711']]);
  });
});
