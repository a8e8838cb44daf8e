/**
 * The one question model (question.ts): a tool per kind with a JSON Schema a model or an MCP
 * client can fill, calls checked against it, and every question the offline reader reads from the
 * question sets a valid `Question` — so whichever reader reads, the same answerers answer.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readQuestion } from '../../../functions/src/chat/answer.ts';
import { questionOfCall, questionSchema, questionTools } from '../../../functions/src/chat/question.ts';
import { logs } from '../../../functions/src/logs.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { readEntries, seedEvaluationHistory, type DemoHistory } from '../../support/chat-evaluation.ts';

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
  let demo: DemoHistory;

  beforeAll(async () => {
    for (const name of ['reportPublished', 'reportAlreadyExists', 'evidenceSnapshotLoaded'] as const)
      vi.spyOn(logs, name).mockImplementation(() => undefined);
    demo = await seedEvaluationHistory();
  }, 120_000);

  afterAll(async () => {
    vi.restoreAllMocks();
    await demo?.close();
  });

  it('reads every question of every set as a valid Question', async () => {
    const files = (await readdir(join(paths.root, 'test/fixtures/chat'))).filter((file) => file.endsWith('.json'));
    let read = 0;
    const kinds = new Set<string>();
    for (const file of files) {
      for (const entry of await readEntries(file)) {
        const question = await readQuestion(entry.question, entry.history ?? [], demo.index, demo.days);
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
