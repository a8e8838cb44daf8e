/**
 * The `submissions` family: manual evidence with attachments, reading it back, and its review.
 * Who may review a submission is the four-eyes rule (common/four-eyes.ts), judged in the
 * server's mode, as for exceptions.
 */
import { dayIn } from '../assessment/dates.js';
import { reviewVerdict } from '../common/four-eyes.js';
import { actorOf } from '../http/bearer-token.js';
import { createFamily, type FamilyOptions } from '../http/create-family.js';
import type { OperationInput, OperationResult, RequestContext } from '../http/operation-types.js';
import { rethrowAsProblem } from '../http/domain-problems.js';
import { contentDisposition } from '../http/file-name.js';
import { loadOnce, type MaybePromise } from '../common/maybe-async.js';
import type { UploadedFile } from '../http/multipart.js';
import { ApiProblem, invalidRequest, type RequestError } from '../http/problem.js';
import { logs } from '../logs.js';
import { ObjectNotFound } from '../storage/object-store.js';
import { checkAttachments } from '../submissions/attachment-checks.js';
import { idOfKey } from '../storage/newest-first.js';
import {
  reviewView,
  sha256,
  submissionKey,
  SubmissionStore,
  type StoredSubmission,
  type Submission,
  type SubmissionReviewRecord,
} from '../submissions/submission-store.js';
import { uploadLimits } from '@evident/contract/upload-limits';
import { pageBody, placeOf } from './paging.js';
import { servicesFrom, type ServiceOptions, type Services } from './services.js';

export type SubmissionsFamilyOptions = FamilyOptions & ServiceOptions;

interface Form {
  controls: string[];
  statement: string;
  subject?: string;
  effectiveDate?: string;
  expiresAt?: string;
  notApplicable?: 'true' | 'false';
  attachments?: UploadedFile[];
}

/** The services with the submission store over them, opened on first use. */
type OpenSubmissions = () => MaybePromise<{ s: Services; store: SubmissionStore }>;

export function createSubmissionsFamily(options: SubmissionsFamilyOptions = {}) {
  const services = servicesFrom(options);
  const submissions = loadOnce(async () => {
    const s = await services();
    return { s, store: new SubmissionStore(s.store, s.evidence) };
  });

  return createFamily(
    'submissions',
    {
      createSubmission: (input, context) => createSubmission(submissions, input, context),
      listSubmissions: (input) => listSubmissions(submissions, input),
      getSubmission: async ({ path }) => ({ status: 200, body: await find(submissions, path.id) }),
      downloadAttachment: (input) => downloadAttachment(submissions, input),
      reviewSubmission: (input, context) => reviewSubmission(submissions, input, context),
    },
    options,
  );
}

/** The submission with its review, or its record alone (`record`) for what needs no review. */
async function find(submissions: OpenSubmissions, id: string): Promise<Submission>;
async function find(submissions: OpenSubmissions, id: string, part: 'record'): Promise<StoredSubmission>;
async function find(submissions: OpenSubmissions, id: string, part?: 'record') {
  const { store } = await submissions();
  try {
    return await (part === 'record' ? store.record(id) : store.get(id));
  } catch (error) {
    if (error instanceof ObjectNotFound) throw new ApiProblem('submission_not_found', `No submission has the id "${id}".`);
    throw error;
  }
}

async function createSubmission(
  submissions: OpenSubmissions,
  { body }: OperationInput<'createSubmission'>,
  context: RequestContext,
): Promise<OperationResult<'createSubmission'>> {
  const { s, store } = await submissions();
  const form = body as unknown as Form;
  const files = form.attachments ?? [];
  try {
    checkAttachments(files, uploadLimits);
  } catch (error) {
    rethrowAsProblem({ items: '/attachments' })(error);
  }
  const now = s.now();
  const errors = formErrors(s, form, now);
  if (errors.length > 0) throw invalidRequest(errors);
  const submission = await store.create(
    {
      controls: form.controls,
      statement: form.statement,
      subject: form.subject ?? 'manual submission',
      effectiveDate: form.effectiveDate ?? dayIn(s.timeZone(), now),
      ...(form.expiresAt ? { expiresAt: form.expiresAt } : {}),
      notApplicable: form.notApplicable === 'true',
      submittedBy: actorOf(context.caller),
      files,
    },
    now,
  );
  return { status: 201, body: submission, headers: { Location: `/api/submissions/${submission.id}` } };
}

/** What the schema cannot check: controls missing from the catalog, an expiry already past, an effective day ahead. */
function formErrors(s: Services, form: Form, now: Date): RequestError[] {
  const known = new Set(s.catalog.controls.map((control) => control.id));
  const errors: RequestError[] = form.controls
    .map((id, index) => ({ id, index }))
    .filter(({ id }) => !known.has(id))
    .map(({ index }) => ({ in: 'body', pointer: `/controls/${index}`, message: 'names no control in the catalog' }));
  if (form.expiresAt && Date.parse(form.expiresAt) <= now.getTime()) {
    errors.push({ in: 'body', pointer: '/expiresAt', message: 'is already in the past' });
  }
  if (form.effectiveDate && form.effectiveDate > dayIn(s.timeZone(), now)) {
    errors.push({ in: 'body', pointer: '/effectiveDate', message: 'is in the future' });
  }
  return errors;
}

async function listSubmissions(
  submissions: OpenSubmissions,
  { query }: OperationInput<'listSubmissions'>,
): Promise<OperationResult<'listSubmissions'>> {
  const { store } = await submissions();
  const after = placeOf('submissions', query.cursor, (place) => submissionKey(idOfKey(place)) === place);
  const page = await store.page({
    limit: query.limit,
    ...(query.control ? { control: query.control } : {}),
    ...(after !== undefined ? { after } : {}),
  });
  return { status: 200, body: pageBody('submissions', page) };
}

const nameOf = (actor: { uid: string; email?: string }) => actor.email ?? actor.uid;

/** Accepts or rejects the submission once, as the four-eyes rule allows the caller. */
async function reviewSubmission(
  submissions: OpenSubmissions,
  { path, body }: OperationInput<'reviewSubmission'>,
  context: RequestContext,
): Promise<OperationResult<'reviewSubmission'>> {
  const reason = body.reason?.trim() || null;
  if (body.decision === 'rejected' && reason === null) {
    throw invalidRequest([{ in: 'body', pointer: '/reason', message: 'is required to reject: say why, for the submitter' }]);
  }
  const { s, store } = await submissions();
  const [submission, standing] = await Promise.all([find(submissions, path.id, 'record'), store.reviewOf(path.id)]);
  const already = (review: SubmissionReviewRecord) =>
    new ApiProblem(
      'submission_already_reviewed',
      `The submission ${path.id} was ${review.decision} at ${review.at} by ${nameOf(review.by)}; a review is final.`,
    );
  if (standing) throw already(standing);
  const reviewer = actorOf(context.caller);
  const verdict = reviewVerdict(submission.submittedBy, reviewer, context.authRequired ? 'protected' : 'public');
  if (verdict.outcome === 'self') {
    throw new ApiProblem('self_review', `You made the submission ${path.id}; another person accepts or rejects it.`);
  }
  const { outcome, standing: review } = await store.review(path.id, {
    decision: body.decision,
    at: s.now().toISOString(),
    by: reviewer,
    reason,
    independent: verdict.outcome === 'independent',
    caveat: verdict.outcome === 'not-independent' ? verdict.caveat : null,
  });
  if (outcome === 'already') throw already(review);
  logs.submissionReviewed(path.id, review.decision, review.independent);
  return {
    status: 201,
    body: { ...submission, review: reviewView(review) },
    headers: { Location: `/api/submissions/${path.id}` },
  };
}

/** Serves an attachment's bytes only when they still hash to what was recorded at upload. */
async function downloadAttachment(
  submissions: OpenSubmissions,
  { path }: OperationInput<'downloadAttachment'>,
): Promise<OperationResult<'downloadAttachment'>> {
  const submission = await find(submissions, path.id, 'record');
  const attachment = submission.attachments[path.index];
  if (!attachment) {
    throw new ApiProblem('submission_not_found', `Submission "${path.id}" has no attachment ${path.index}.`);
  }
  const { store } = await submissions();
  // A stored file that is gone fails the same check as one that was altered: it is not what was uploaded.
  const data = await store.attachment(path.id, path.index).catch((error: unknown) => {
    if (error instanceof ObjectNotFound) return undefined;
    throw error;
  });
  const actual = data ? sha256(data) : 'missing';
  if (!data || actual !== attachment.sha256) {
    logs.attachmentTampered(path.id, path.index, attachment.sha256, actual);
    throw new ApiProblem(
      'attachment_tampered',
      `The stored file for attachment ${path.index} of ${path.id} does not have the SHA-256 recorded at upload; it was not served.`,
    );
  }
  return {
    status: 200,
    body: data,
    contentType: attachment.mediaType,
    headers: { 'Content-Disposition': contentDisposition(attachment.name), 'X-Content-SHA256': attachment.sha256 },
    // The bytes of an attachment never change; an ETag lets a browser skip the download.
    etag: `"${attachment.sha256}"`,
    cacheControl: 'private, max-age=3600',
  };
}

export const handler = createSubmissionsFamily();
