/**
 * Chat: the warm 95th-percentile answer on a 500-control report with a year of history beside
 * parsing the report (target ≤ 20 ms, issue 34's figure for the offline reader), and the first
 * byte of a streamed answer from the `chat` function on demo data beside node:http sending the
 * same bytes (target ≤ 100 ms).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../lib/paths.ts';
import { resetStore, seedDemo } from '../../lib/seed-demo.ts';
import { benchChatCorpus, timeChatAnswers } from '../chat.ts';
import type { Comparison } from '../comparison.ts';
import { benchStore, firstByte, startBareServer, startFunction, stop, waitFor200, work } from '../functions-host.ts';
import type { BenchGroup } from '../group.ts';
import { median } from '../median.ts';

const chatQuestions = [
  'What needs attention?',
  'What is our score?',
  'What is the status of IAM-01?',
  'Which controls map to CC6.1?',
  'How do we fix CHG-02?',
  'What changed since yesterday?',
];

function askForStream(url: string, message: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ message }),
  });
}

async function warmAnswer(): Promise<Comparison> {
  const corpus = benchChatCorpus(500);
  const timing = await timeChatAnswers(corpus, 20);
  const bytes = JSON.stringify(corpus.report);
  const parses: number[] = [];
  for (let n = 0; n < 20; n++) {
    const started = performance.now();
    JSON.parse(bytes);
    parses.push(performance.now() - started);
  }
  return {
    figure: 'chat: warm p95 answer, 500-control report, 365 days of history',
    measured: timing.p95AnswerMs,
    baselineName: 'JSON.parse of the report',
    baseline: median(parses),
    unit: 'ms',
    target: { withinMs: 20 },
  };
}

/** The function's median first byte over 30 questions, and one stream's bytes for the baseline to send. */
async function functionFirstByte(): Promise<{ measured: number; streamBody: Buffer }> {
  const url = 'http://127.0.0.1:18500/api/chat';
  const child = startFunction({ name: 'chat', source: paths.functions, target: 'chat', path: '/' }, 18500);
  try {
    await waitFor200(url, performance.now() + 20_000, () => askForStream(url, 'What is our score?'));
    const streamBody = Buffer.from(await (await askForStream(url, 'What needs attention?')).arrayBuffer());
    const times: number[] = [];
    for (let n = 0; n < 30; n++) times.push(await firstByte(() => askForStream(url, chatQuestions[n % chatQuestions.length]!)));
    return { measured: median(times), streamBody };
  } finally {
    await stop(child);
  }
}

async function firstStreamByte(): Promise<Comparison> {
  await resetStore(benchStore);
  await seedDemo({ storeDir: benchStore, today: new Date().toISOString().slice(0, 10), timeZone: 'UTC' });
  const { measured, streamBody } = await functionFirstByte();
  const bodyFile = join(work, 'chat-stream.body');
  writeFileSync(bodyFile, streamBody);
  const bare = await startBareServer(18501, 'text/event-stream; charset=utf-8', bodyFile);
  try {
    const times: number[] = [];
    for (let n = 0; n < 30; n++) times.push(await firstByte(() => fetch('http://127.0.0.1:18501/')));
    return {
      figure: 'chat: first stream byte (POST /api/chat, Accept: text/event-stream)',
      measured,
      baselineName: 'node:http, same bytes',
      baseline: median(times),
      unit: 'ms',
      target: { withinMs: 100 },
    };
  } finally {
    await stop(bare);
  }
}

export const chatGroup: BenchGroup = {
  name: 'chat',
  heading: () => 'Chat: answers on a 500-control report with a year of history; first stream byte on demo data (warm)',
  async measure() {
    const answer = await warmAnswer();
    return [answer, await firstStreamByte()];
  },
};
