/**
 * The one question model (question.ts): a tool per kind with a JSON Schema a model or an MCP
 * client can fill, calls checked against it, and every question the offline reader reads from the
 * question sets a valid `Question` — so whichever reader reads, the same answerers answer.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readQuestion } from '../../../functions/src/chat/offline/reader.ts';
import { questionOfCall, questionSchema, questionTools, type Question } from '../../../functions/src/chat/question.ts';
import { checkedQuestion } from '../../../functions/src/chat/question-slots.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { readEntries, useEvaluationHistory } from '../../support/chat-evaluation.ts';

describe('the question tools', () => {
  const tools = questionTools();

  it('offers one tool per kind, named as a function a model may call, each described, with an object schema of its slots', () => {
    expect(tools).toHaveLength(31);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(31);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/);
      expect(tool.description.length).toBeGreaterThan(20);
      expect(tool.parameters.type).toBe('object');
      expect(tool.parameters).not.toHaveProperty('$schema');
      expect(Object.keys((tool.parameters.properties ?? {}) as object)).not.toContain('kind');
    }
  });

  it('describes a slot with its enumeration, as the model must fill it', () => {
    const list = tools.find((tool) => tool.name === 'list')!;
    expect(list.parameters).toMatchObject({
      required: ['statuses'],
      properties: { statuses: { type: 'array', items: { enum: ['passing', 'failing', 'stale', 'missing', 'not_applicable'] } } },
    });
  });

  it('reads a call as a question, and names each slot a call filled wrongly', () => {
    expect(questionOfCall('ownership', { controlIds: ['IAM-01'] })).toEqual({
      question: { kind: 'ownership', controlIds: ['IAM-01'] },
    });
    expect(questionOfCall('trend', { period: { from: '2026-11-01', to: 'last week', phrase: 'x' } })).toEqual({
      problems: ['period.to: Invalid ISO date'],
    });
    expect(questionOfCall('list', { statuses: ['red'] })).toEqual({
      problems: ['statuses.0: Invalid option: expected one of "passing"|"failing"|"stale"|"missing"|"not_applicable"'],
    });
    expect(questionOfCall('launch', {})).toMatchObject({ problems: [expect.stringContaining('kind')] });
  });
});

describe('the offline reader', () => {
  const demo = useEvaluationHistory();

  it('checks what a call filled against the report: unknown names and later days are declined, owners take its spelling', () => {
    const checked = (question: Question) => checkedQuestion(question, demo().index);
    const topic = { controlIds: ['END-02'], label: 'END-02', source: 'id' as const };
    expect(checked({ kind: 'status', topic })).toEqual({ kind: 'status', topic });
    expect(checked({ kind: 'status', topic: { ...topic, controlIds: ['END-02', 'IAM-42'] } })).toEqual({
      kind: 'decline',
      reason: 'unknown_subject',
      subject: 'IAM-42',
    });
    expect(checked({ kind: 'owner', owner: 'it LEAD' })).toEqual({ kind: 'owner', owner: 'IT lead' });
    expect(checked({ kind: 'owner', owner: 'Head of Sales' })).toEqual({
      kind: 'decline',
      reason: 'unknown_subject',
      subject: 'Head of Sales',
    });
    expect(checked({ kind: 'day', date: '2026-11-25', phrase: 'Wednesday' })).toEqual({
      kind: 'decline',
      reason: 'not_earlier',
      subject: '2026-11-25',
    });
    expect(checked({ kind: 'readiness', framework: 'soc2', requirements: ['CC6'], gaps: false })).toMatchObject({
      kind: 'readiness',
    });
    expect(checked({ kind: 'readiness', framework: 'soc2', requirements: ['CC42.1'], gaps: false })).toMatchObject({
      reason: 'unknown_subject',
      subject: 'CC42.1',
    });
    expect(checked({ kind: 'subject', name: 'ACME-CB-002', keys: ['acme-cb-002'] })).toMatchObject({ kind: 'subject' });
    expect(checked({ kind: 'subject', name: 'ACME-ZZ-999', keys: ['acme-zz-999'] })).toMatchObject({
      reason: 'unknown_subject',
      subject: 'ACME-ZZ-999',
    });
    expect(checked({ kind: 'checks', checks: [{ controlId: 'IAM-01', checkId: 'no-such-check' }] })).toMatchObject({
      reason: 'unknown_subject',
      subject: 'IAM-01 no-such-check',
    });
    expect(checked({ kind: 'evidenceKinds', kinds: ['hr.salary'], only: false })).toMatchObject({ subject: 'hr.salary' });
  });

  it('reads every question of every set as a valid Question', async () => {
    const files = (await readdir(join(paths.root, 'test/fixtures/chat'))).filter((file) => file.endsWith('.json'));
    let read = 0;
    const kinds = new Set<string>();
    for (const file of files) {
      for (const entry of await readEntries(file)) {
        const question = await readQuestion(entry.question, entry.history ?? [], demo().index, demo().days);
        expect(questionSchema.safeParse(question).error?.issues, `${file}: ${entry.question}`).toBeUndefined();
        kinds.add(question.kind);
        read++;
      }
    }
    expect(read).toBeGreaterThan(700);
    // The sets reach nearly every kind; the rest are tested with the answerers that take them.
    expect(kinds.size).toBeGreaterThanOrEqual(25);
  });
});
