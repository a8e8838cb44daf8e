/**
 * Submissions in the object store. The files go first (`attachments/<id>/<index>`), then the
 * attestation evidence item, then the submission record (`submissions/<id>.json`): a record
 * exists only once everything it points to does. All three are create-only. Last come the
 * listing index entries, newest first (`submissions-index/all/<key>` and, per control it
 * supports, `submissions-index/control/<id>/<key>`), so a page is one `list` and two reads per
 * submission shown: its record and its review.
 *
 * A review (`submission-reviews/<id>.json`) is written create-only beside its submission, so of
 * two reviewers at once exactly one wins, and it is final: the record and the evidence item never
 * change, and a rejected submission is made again as a new one. Being final, a review once read
 * is kept in memory; only "not reviewed yet" is read again.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { components } from '../generated/api-types.js';
import type { EvidenceStore } from '../evidence/evidence-store.js';
import { newestFirstKey, pageNewestFirst, idOfKey, type PlacedPage } from '../storage/newest-first.js';
import { inBatches, ObjectNotFound, PreconditionFailed, type ObjectStore } from '../storage/object-store.js';
import type { AttachmentFile } from './attachment-checks.js';
import type { submissionReviewDecisions } from '@evident/contract';

/** A submission as the API shows it, with its review. */
export type Submission = components['schemas']['Submission'];
/** A submission as its record stores it: everything but the review, which is kept beside it. */
export type StoredSubmission = Omit<Submission, 'review'>;
type Decision = (typeof submissionReviewDecisions)[number];

/** A submission's review as stored: who decided what, when, and whether they are known to be another person. */
export interface SubmissionReviewRecord {
  decision: Decision;
  at: string;
  by: Submission['submittedBy'];
  reason: string | null;
  independent: boolean;
  caveat: string | null;
}

/** What a review found: its own decision `recorded`, or `already` with the review that stands. */
export type ReviewOutcome = { outcome: 'recorded' | 'already'; standing: SubmissionReviewRecord };

const recordsPrefix = 'submissions/';
export const submissionObjectName = (id: string) => `${recordsPrefix}${id}.json`;
const indexPrefix = (control?: string) => (control ? `submissions-index/control/${control}/` : 'submissions-index/all/');
export const attachmentObjectName = (id: string, index: number) => `attachments/${id}/${index}`;
export const reviewObjectName = (id: string) => `submission-reviews/${id}.json`;

/** The API's view of a review: `pending` without one. */
export function reviewView(review: SubmissionReviewRecord | undefined): Submission['review'] {
  if (!review) return { state: 'pending' };
  const { decision, ...rest } = review;
  return { state: decision, ...rest };
}

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
  readonly #cache = new Map<string, StoredSubmission>();
  /** Reviews read or written so far; a review is final, so it never goes stale. */
  readonly #reviews = new Map<string, SubmissionReviewRecord>();

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
    const submission: StoredSubmission = {
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
    return { ...submission, review: reviewView(undefined) };
  }

  /** Files a submission in the listing indexes; create-only, so doing it again changes nothing. */
  async index(submission: Pick<Submission, 'id' | 'controls'>): Promise<void> {
    const key = submissionKey(submission.id)!;
    await Promise.all(
      [undefined, ...submission.controls].map((control) =>
        this.#store.create(`${indexPrefix(control)}${key}`, '').catch((error: unknown) => {
          if (!(error instanceof PreconditionFailed)) throw error;
        }),
      ),
    );
  }

  /** The submission with its review; `ObjectNotFound` when there is no such submission. */
  async get(id: string): Promise<Submission> {
    const [submission, review] = await Promise.all([this.record(id), this.reviewOf(id)]);
    return { ...submission, review: reviewView(review) };
  }

  /** The submission's record alone; `ObjectNotFound` when there is no such submission. */
  async record(id: string): Promise<StoredSubmission> {
    const cached = this.#cache.get(id);
    if (cached) return cached;
    const submission = JSON.parse((await this.#store.read(submissionObjectName(id))).data.toString('utf8')) as StoredSubmission;
    this.#cache.set(id, submission);
    return submission;
  }

  /** The submission's review; undefined while it awaits one (or when there is no such submission). */
  async reviewOf(id: string): Promise<SubmissionReviewRecord | undefined> {
    const known = this.#reviews.get(id);
    if (known) return known;
    try {
      const review = JSON.parse((await this.#store.read(reviewObjectName(id))).data.toString('utf8')) as SubmissionReviewRecord;
      this.#reviews.set(id, review);
      return review;
    } catch (error) {
      if (error instanceof ObjectNotFound) return undefined;
      throw error;
    }
  }

  /**
   * Records the review of an existing submission unless it has one: the create-only write
   * decides between two reviewers at once.
   */
  async review(id: string, review: SubmissionReviewRecord): Promise<ReviewOutcome> {
    try {
      await this.#store.create(reviewObjectName(id), JSON.stringify(review), { contentType: 'application/json' });
      this.#reviews.set(id, review);
      return { outcome: 'recorded', standing: review };
    } catch (error) {
      if (!(error instanceof PreconditionFailed)) throw error;
      this.#reviews.delete(id);
      const standing = await this.reviewOf(id);
      if (!standing) throw error; // written and gone again: never, as reviews are not deleted
      return { outcome: 'already', standing };
    }
  }

  /**
   * The decisions on the given submissions, for one evaluation (assessment/submission-review.ts):
   * one read per submission not known to be reviewed, in batches.
   */
  async decisions(ids: Iterable<string>): Promise<Map<string, Pick<SubmissionReviewRecord, 'decision' | 'at'>>> {
    const unique = [...new Set(ids)];
    const reviews = await inBatches(unique, 32, async (id) => [id, await this.reviewOf(id)] as const);
    return new Map(reviews.flatMap(([id, review]) => (review ? [[id, { decision: review.decision, at: review.at }]] : [])));
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
