/**
 * The chat's question kinds as MCP tools: one tool per kind, its input schema the JSON Schema the
 * question model gives that kind's slots (chat/question.ts, the one the model reader fills too),
 * and a call answered as the chat answers that question — checked against today's report, then
 * answered from it and its history by the offline composer, with citations. No model writes
 * anything here: the caller's own assistant reads the answer.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { answerAsked, type AskedReport, type ComposedAnswer } from '../chat/answer.js';
import { questionOfCall, questionTools } from '../chat/question.js';
import { checkedQuestion } from '../chat/question-slots.js';

/** Today's report as a tool call reads it: its index, the reports of earlier days, and their history. */

/**
 * What every tool's `structuredContent` holds: the answer as `POST /api/chat` gives it, without
 * its id and suggestions. One schema, declared as every tool's `outputSchema`, so a client checks
 * what it gets.
 */
export const answerSchema = {
  type: 'object',
  required: ['date', 'answer', 'citations', 'grounded'],
  additionalProperties: false,
  properties: {
    date: { type: 'string', description: 'The day of the report the answer is drawn from: today.' },
    answer: { type: 'string', description: 'Markdown. Text taken from evidence is escaped.' },
    citations: {
      type: 'array',
      description: 'The controls and evidence the answer rests on, quoting the report.',
      items: {
        type: 'object',
        required: ['controlId', 'quote'],
        additionalProperties: false,
        properties: { controlId: { type: 'string' }, evidenceId: { type: 'string' }, quote: { type: 'string' } },
      },
    },
    grounded: { type: 'boolean', description: 'False when the question was declined: the report cannot answer it.' },
  },
} satisfies Tool['outputSchema'];

export type StructuredAnswer = Pick<ComposedAnswer, 'answer' | 'citations' | 'grounded'> & { date: string };

let tools: Tool[] | undefined;

/** The tools, made once per instance on the first request that lists or calls them. */
export function questionToolList(): Tool[] {
  tools ??= questionTools().map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters as Tool['inputSchema'],
    outputSchema: answerSchema,
  }));
  return tools;
}

/** Whether `name` is one of the tools (a call of anything else is a protocol error, not a tool's). */
export const isQuestionTool = (name: string) => questionToolList().some((tool) => tool.name === name);

/**
 * A call of one question tool, answered. Arguments that do not fit the kind's schema are the
 * tool's error, listing each problem, so the calling model can correct them; names the report
 * does not hold are declined, as the chat declines them.
 */
export async function answerToolCall(name: string, args: unknown, today: () => Promise<AskedReport>): Promise<CallToolResult> {
  const call = questionOfCall(name, args);
  if ('problems' in call) {
    const lines = call.problems.map((problem) => `- ${problem}`);
    return {
      isError: true,
      content: [{ type: 'text', text: [`The arguments do not fit the ${name} tool:`, ...lines].join('\n') }],
    };
  }
  const asked = await today();
  const question = checkedQuestion(call.question, asked.index);
  const composed = await answerAsked(question, asked.index, { days: asked.days, reportOn: asked.reportOn });
  const structured: StructuredAnswer = {
    date: asked.index.report.date,
    answer: composed.answer,
    citations: composed.citations,
    grounded: composed.grounded,
  };
  return { content: [{ type: 'text', text: composed.answer }], structuredContent: structured };
}
