/**
 * The submit page's upload flow (SubmissionUpload), compiled by Svelte with real runes, with a
 * stand-in upload: files chosen and left out (and said so), progress while sending, one upload at
 * a time, a stored submission emptying the form, the server's problems placed by field, no answer
 * worded as such, and leaving the page stopping the upload.
 */
import { describe, expect, it } from 'vitest';
import { unreachable } from '../../../hosting/src/lib/api.ts';
import type { UploadOptions } from '../../../hosting/src/lib/upload.ts';
import { SubmissionUpload, type SendForm } from '../../../hosting/src/lib/submission-upload.svelte.ts';

const policy = () => new File(['We review access every quarter.'], 'policy.txt', { type: 'text/plain', lastModified: 1 });
const empty = () => new File([], 'empty.txt', { type: 'text/plain', lastModified: 2 });

const stored = {
  id: 'sub-0123456789',
  evidenceId: 'submission-sub-0123456789',
  controls: ['PPL-06'],
  effectiveDate: '2026-11-24',
  notApplicable: false,
  attachments: [{ name: 'policy.txt', size: 31 }],
};

/** An upload that waits to be answered, recording what it was given. */
function pendingUpload() {
  const sent: { form: FormData; options: UploadOptions }[] = [];
  const answers: ((response: Response) => void)[] = [];
  const send: SendForm = (form, options) => {
    sent.push({ form, options });
    return new Promise((resolve) => answers.push(resolve));
  };
  return { sent, send, answer: (response: Response) => answers.shift()!(response) };
}

describe('SubmissionUpload', () => {
  it('keeps the files the API would take, says why the others were left out, and says what a removal did', () => {
    const upload = new SubmissionUpload(pendingUpload().send, () => undefined);
    upload.choose([policy(), empty()]);
    expect(upload.files.map((file) => file.name)).toEqual(['policy.txt']);
    expect(upload.announcement).toBe('1 file added. empty.txt was left out: it is empty.');
    expect(upload.messagesOf('attachments')).toEqual(['empty.txt is empty.']);
    expect(upload.describedBy('attachments', 'attachments-hint')).toBe('attachments-hint attachments-error');

    upload.remove(0);
    expect([upload.files, upload.announcement, upload.invalid('attachments')]).toEqual([[], 'policy.txt removed.', false]);
    expect(upload.describedBy('notApplicable')).toBeUndefined();
  });

  it('reports progress while sending, one upload at a time, then shows what was stored and empties the form', async () => {
    const network = pendingUpload();
    let storedCalls = 0;
    const upload = new SubmissionUpload(network.send, () => (storedCalls += 1));
    upload.values.controls = 'PPL-06';
    upload.values.statement = 'Access is reviewed quarterly.';
    upload.choose([policy()]);

    const first = upload.submit();
    expect([upload.uploading, upload.percent]).toEqual([true, undefined]);
    network.sent[0]!.options.onProgress!({ loaded: 5, total: 20 });
    expect(upload.percent).toBe(25);
    expect(await upload.submit()).toBe(false);
    expect(network.sent).toHaveLength(1);
    expect(network.sent[0]!.form.getAll('controls')).toEqual(['PPL-06']);
    expect((network.sent[0]!.form.get('attachments') as File).name).toBe('policy.txt');

    network.answer(new Response(JSON.stringify(stored), { status: 201, headers: { 'Content-Type': 'application/json' } }));
    expect(await first).toBe(true);
    expect(upload.created).toEqual(stored);
    expect([upload.uploading, upload.problems, upload.values.controls, upload.files, upload.announcement]).toEqual([
      false,
      undefined,
      '',
      [],
      '',
    ]);
    expect(storedCalls).toBe(1);
  });

  it("places the server's problems under the fields they name, keeping what was typed", async () => {
    const network = pendingUpload();
    const upload = new SubmissionUpload(network.send, () => undefined);
    upload.values.controls = 'ZZZ-99';
    const submitted = upload.submit();
    const problem = {
      title: 'Invalid request',
      status: 400,
      detail: 'The request has 2 errors.',
      code: 'invalid_request',
      errors: [
        { in: 'body', pointer: '/controls/0', message: 'names no control in the catalog' },
        { in: 'body', pointer: '/statement', message: 'is required' },
      ],
    };
    network.answer(
      new Response(JSON.stringify(problem), { status: 400, headers: { 'Content-Type': 'application/problem+json' } }),
    );
    await submitted;
    expect(upload.problems).toEqual({
      byField: { controls: ['ZZZ-99 names no control in the catalog'], statement: ['Statement is required'] },
      summary: 'The request has 2 errors.',
    });
    expect(upload.describedBy('controls', 'controls-hint')).toBe('controls-hint controls-error');
    expect([upload.values.controls, upload.created]).toEqual(['ZZZ-99', undefined]);
  });

  it('says the server could not be reached when no answer came', async () => {
    const upload = new SubmissionUpload(
      () => Promise.reject(new TypeError('The upload could not reach the server.')),
      () => undefined,
    );
    expect(await upload.submit()).toBe(true);
    expect(upload.problems).toEqual({ byField: {}, summary: unreachable });
    expect(upload.uploading).toBe(false);
  });

  it('stops the upload under way when the page goes away', () => {
    const network = pendingUpload();
    const upload = new SubmissionUpload(network.send, () => undefined);
    void upload.submit();
    upload.stop();
    expect(network.sent[0]!.options.signal?.aborted).toBe(true);
  });
});
