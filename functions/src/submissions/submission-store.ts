/**
 * Submissions in the object store. The files go first (`attachments/<id>/<index>`), then the
 * attestation evidence item, then the submission record (`submissions/<id>.json`): a record
 * exists only once everything it points to does. All three are create-only.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { components } from '../generated/api-types.js';
import type { EvidenceStore } from '../evidence/evidence-store.js';
import type { UploadedFile } from '../http/multipart.js';
import { inBatches, listNames, type ObjectStore } from '../storage/object-store.js';

export type Submission = components['schemas']['Submission'];

const recordsPrefix = 'submissions/';
export const submissionObjectName = (id: string) => `${recordsPrefix}${id}.json`;
export const attachmentObjectName = (id: string, index: number) => `attachments/${id}/${index}`;

export function newSubmissionId(now: Date): string {
  return `sub-${now.getTime().toString(36).padStart(9, '0')}${randomBytes(6).toString('hex')}`;
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export type NewSubmission = Pick<
  Submission,
  'controls' | 'statement' | 'subject' | 'effectiveDate' | 'expiresAt' | 'notApplicable' | 'submittedBy'
> & { files: UploadedFile[] };

export class SubmissionStore {
  readonly #store: ObjectStore;
  readonly #evidence: EvidenceStore;
  readonly #cache = new Map<string, Submission>();

  constructor(store: ObjectStore, evidence: EvidenceStore) {
    this.#store = store;
    this.#evidence = evidence;
  }

  async create(input: NewSubmission, now: Date): Promise<Submission> {
    const id = newSubmissionId(now);
    const attachments = await Promise.all(
      input.files.map(async (file, index) => {
        await this.#store.create(attachmentObjectName(id, index), file.data, {
          contentType: file.mediaType,
          metadata: { sha256: sha256(file.data) },
        });
        return {
          name: file.name,
          mediaType: file.mediaType,
          size: file.data.length,
          sha256: sha256(file.data),
          href: `/api/submissions/${id}/attachments/${index}`,
        };
      }),
    );
    const submission: Submission = {
      id,
      controls: input.controls,
      statement: input.statement,
      subject: input.subject,
      effectiveDate: input.effectiveDate,
      ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
      notApplicable: input.notApplicable,
      submittedAt: now.toISOString(),
      submittedBy: input.submittedBy,
      evidenceId: id,
      attachments,
    };
    await this.#evidence.ingest(
      [
        {
          id,
          kind: 'attestation',
          source: 'submission',
          subject: input.subject,
          collectedAt: submission.submittedAt,
          effectiveDate: input.effectiveDate,
          ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
          controls: input.controls,
          data: {
            statement: input.statement,
            ...(input.notApplicable ? { notApplicable: true } : {}),
            submittedBy: input.submittedBy.email ?? input.submittedBy.uid,
            submissionId: id,
          },
        },
      ],
      { receivedAt: now, pointer: () => '', extra: { attachments, submissionId: id } },
    );
    await this.#store.create(submissionObjectName(id), JSON.stringify(submission), { contentType: 'application/json' });
    this.#cache.set(id, submission);
    return submission;
  }

  /** `ObjectNotFound` when there is no such submission. */
  async get(id: string): Promise<Submission> {
    const cached = this.#cache.get(id);
    if (cached) return cached;
    const submission = JSON.parse((await this.#store.read(submissionObjectName(id))).data.toString('utf8')) as Submission;
    this.#cache.set(id, submission);
    return submission;
  }

  /** Every submission, newest first. */
  async all(): Promise<Submission[]> {
    const ids = (await listNames(this.#store, recordsPrefix)).map((name) => name.slice(recordsPrefix.length, -'.json'.length));
    const submissions = await inBatches(ids, 32, (id) => this.get(id));
    return submissions.sort((a, b) =>
      a.submittedAt < b.submittedAt ? 1 : a.submittedAt > b.submittedAt ? -1 : a.id < b.id ? 1 : -1,
    );
  }

  async attachment(id: string, index: number): Promise<Buffer> {
    return (await this.#store.read(attachmentObjectName(id, index))).data;
  }
}
