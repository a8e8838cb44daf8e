/**
 * A task goes to the queue of its function in the functions' region. The region is part of a
 * queue's address, and firebase-admin assumes us-central1 when it is not given, so functions
 * deployed anywhere else would queue work for workers that do not exist. Checked against a
 * stand-in for the tasks emulator, which firebase-admin calls as it calls Cloud Tasks.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cloudTaskQueue } from '../../../functions/src/common/cloud-tasks.ts';

interface Received {
  path: string;
  task: { name: string; httpRequest: { body: string } };
}

const received: Received[] = [];
const tasks = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const { task } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { task: Received['task'] };
    received.push({ path: req.url ?? '', task });
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => tasks.listen(0, '127.0.0.1', resolve));
  vi.stubEnv('CLOUD_TASKS_EMULATOR_HOST', `127.0.0.1:${(tasks.address() as AddressInfo).port}`);
  vi.stubEnv('GCLOUD_PROJECT', 'demo-tasks');
  // As in the emulators, where the queue names its tasks' service account without a metadata server.
  vi.stubEnv('FUNCTIONS_EMULATOR', 'true');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => tasks.close(resolve));
});

describe('cloudTaskQueue', () => {
  it("queues a task, under its id, in the queue of the function's region", async () => {
    await cloudTaskQueue<{ runId: string }>('regionProbe', 'europe-west1').enqueue({ runId: 'r1' }, 'run-r1');
    expect(received.map(({ path, task }) => [path, task.name])).toEqual([
      [
        '/projects/demo-tasks/locations/europe-west1/queues/regionProbe/tasks',
        'projects/demo-tasks/locations/europe-west1/queues/regionProbe/tasks/run-r1',
      ],
    ]);
    expect(JSON.parse(Buffer.from(received[0]!.task.httpRequest.body, 'base64').toString('utf8'))).toEqual({
      data: { runId: 'r1' },
    });
  });
});
