/**
 * Submissions in the object store. The files go first (`attachments/<id>/<index>`), then the
 * attestation evidence item, then the submission record (`submissions/<id>.json`): a record
 * exists only once everything it points to does. All three are create-only. Last come the
 * listing index entries, newest first (`submissions-index/all/<key>` and, per control it
 * supports, `submissions-index/control/<id>/<key>`), so a page is one `list` and a read per
 * submission shown.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { components } from '../generated/api-types.js';
import type { EvidenceStore } from '../evidence/evidence-store.js';
import { newestFirstKey, pageNewestFirst, idOfKey, type PlacedPage } from '../storage/newest-first.js';
import { inBatches, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';
import type { AttachmentFile } from './attachment-checks.js';

export type Submission = components['schemas']['Submission'];

const recordsPrefix = 'submissions/';
export const submissionObjectName = (id: string) => `${recordsPrefix}${id}.json`;
const indexPrefix = (control?: string) => (control ? `submissions-index/control/${control}/` : 'submissions-index/all/');
export const attachmentObjectName = (id: string, index: number) => `attachments/${id}/${index}`;

export function newSubmissionId(now: Date): string {
  return `sub-${now.getTime().toString(36).padStart(9, '0')}${randomBytes(6).toString('hex')}`;
}

const submissionIdPattern = /^sub-([0-9a-z]{9})[0-9a-f]{12}$/;

/** A submission's place in the listing, from the creation time its id records; undefined for a malformed id. */
export function submissionKey(id: string): string | undefined {
  const time = submissionIdPattern.exec(id)?.[1];
  return time === undefined ? undefined : newestFirstKey(parseInt(time, 36), id);
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export type NewSubmission = Pick<
  Submission,
  'controls' | 'statement' | 'subject' | 'effectiveDate' | 'expiresAt' | 'notApplicable' | 'submittedBy'
> & { files: AttachmentFile[] };

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
      { receivedAt: now, extra: { attachments, submissionId: id } },
    );
    await this.#store.create(submissionObjectName(id), JSON.stringify(submission), { contentType: 'application/json' });
    this.#cache.set(id, submission);
    await this.index(submission);
    return submission;
  }

  /** Files a submission in the listing indexes; create-only, so doing it again changes nothing. */
  async index(submission: Submission): Promise<void> {
    const key = submissionKey(submission.id)!;
    await Promise.all(
      [undefined, ...submission.controls].map((control) =>
        this.#store.create(`${indexPrefix(control)}${key}`, '').catch((error: unknown) => {
          if (!(error instanceof PreconditionFailed)) throw error;
        }),
      ),
    );
  }

  /** `ObjectNotFound` when there is no such submission. */
  async get(id: string): Promise<Submission> {
    const cached = this.#cache.get(id);
    if (cached) return cached;
    const submission = JSON.parse((await this.#store.read(submissionObjectName(id))).data.toString('utf8')) as Submission;
    this.#cache.set(id, submission);
    return submission;
  }

  /** A page of submissions, newest first (of one control's, when given), after the index key `after`. */
  async page(query: { control?: string; after?: string; limit: number }): Promise<PlacedPage<Submission>> {
    const { entries, hasMore, next } = await pageNewestFirst(this.#store, indexPrefix(query.control), {
      limit: query.limit,
      ...(query.after !== undefined ? { after: query.after } : {}),
    });
    const items = await inBatches(entries, 32, (entry) => this.get(idOfKey(entry.key)));
    return { items, hasMore, ...(next !== undefined ? { next } : {}) };
  }

  async attachment(id: string, index: number): Promise<Buffer> {
    return (await this.#store.read(attachmentObjectName(id, index))).data;
  }
}
