/** The `submissions` family: evidence a person submits by hand, with attached files. */
import type { PathsObject } from 'openapi3-ts/oas31';
import { access, cursorParameter, jsonResponse, ref, responseRef } from '../components.ts';
import { formLimits, uploadLimits } from '@evident/contract/upload-limits';
import {
  controlIdPattern,
  maxReviewReasonLength,
  pageLimits,
  submissionIdPattern,
  submissionReviewDecisions,
} from '@evident/contract';

export const tag = {
  name: 'submissions',
  description:
    'Manual evidence: a statement that controls operate (or do not apply), with files. Each submission becomes an ' +
    '`attestation` evidence item. Attachments are hashed with SHA-256 on upload and checked on every download.',
};

const bodyLimit = uploadLimits.maxFiles * uploadLimits.maxFileBytes + 1024 * 1024;

export const schemas = {
  SubmissionForm: {
    type: 'object',
    required: ['controls', 'statement'],
    properties: {
      controls: {
        type: 'array',
        minItems: 1,
        maxItems: 50,
        uniqueItems: true,
        items: { type: 'string', pattern: controlIdPattern },
        description: 'The controls the submission supports; repeat the field once per control.',
      },
      statement: { type: 'string', minLength: 1, maxLength: 4000, description: 'What is being attested, in plain words.' },
      subject: {
        type: 'string',
        minLength: 1,
        maxLength: 300,
        description: 'What it is about, e.g. a policy; defaults to "manual submission".',
      },
      effectiveDate: { type: 'string', format: 'date', description: 'The day the statement speaks for; defaults to today.' },
      expiresAt: { type: 'string', format: 'date-time', description: 'When the statement stops counting; none by default.' },
      notApplicable: {
        type: 'string',
        enum: ['true', 'false'],
        description: '`true` when the statement scopes the controls out; the statement must say why.',
      },
      attachments: {
        type: 'array',
        maxItems: uploadLimits.maxFiles,
        items: { type: 'string', contentMediaType: 'application/octet-stream' },
        description:
          `Up to ${uploadLimits.maxFiles} files of at most ${uploadLimits.maxFileBytes / 1024 / 1024} MiB each, of types ` +
          `${uploadLimits.mediaTypes.join(', ')}.`,
      },
    },
  },
  Submission: {
    type: 'object',
    required: [
      'id',
      'controls',
      'statement',
      'subject',
      'effectiveDate',
      'notApplicable',
      'submittedAt',
      'submittedBy',
      'evidenceId',
      'attachments',
      'review',
    ],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: submissionIdPattern },
      controls: { type: 'array', items: { type: 'string' } },
      statement: { type: 'string' },
      subject: { type: 'string' },
      effectiveDate: { type: 'string', format: 'date' },
      expiresAt: { type: 'string', format: 'date-time' },
      notApplicable: { type: 'boolean' },
      submittedAt: { type: 'string', format: 'date-time' },
      submittedBy: ref('Actor'),
      evidenceId: { type: 'string', description: 'The attestation evidence item the submission became.' },
      attachments: { type: 'array', items: ref('Attachment') },
      review: ref('SubmissionReview'),
    },
  },
  SubmissionReview: {
    type: 'object',
    required: ['state'],
    additionalProperties: false,
    description:
      'Whether someone other than the submitter accepted or rejected the submission. With `SUBMISSION_REVIEW` ' +
      '`required`, its attestation counts for its controls only once accepted; with `optional` (the default) it ' +
      'counts at once, whatever its review.',
    properties: {
      state: { type: 'string', enum: ['pending', ...submissionReviewDecisions] },
      at: { type: 'string', format: 'date-time', description: 'When it was reviewed; absent while pending.' },
      by: { ...ref('Actor'), description: 'Who reviewed it; absent while pending.' },
      reason: {
        type: ['string', 'null'],
        description: 'Why it was rejected, or the reviewer\u2019s comment on accepting it; absent while pending.',
      },
      independent: {
        type: 'boolean',
        description:
          'Whether the reviewer is known to be another person than the submitter (false in public mode, where callers ' +
          'need not sign in, and for a submission made without signing in); absent while pending.',
      },
      caveat: {
        type: ['string', 'null'],
        description: 'When `independent` is false, why, in a sentence; null otherwise; absent while pending.',
      },
    },
  },
  ReviewDecision: {
    type: 'object',
    required: ['decision'],
    additionalProperties: false,
    properties: {
      decision: { type: 'string', enum: [...submissionReviewDecisions] },
      reason: {
        type: 'string',
        minLength: 1,
        maxLength: maxReviewReasonLength,
        description: 'Why: required to reject (the submitter reads it), optional to accept.',
      },
    },
  },
  SubmissionPage: {
    type: 'object',
    required: ['items', 'hasMore'],
    additionalProperties: false,
    properties: {
      items: { type: 'array', items: ref('Submission'), description: 'Newest first.' },
      hasMore: { type: 'boolean', description: 'True when more submissions follow this page.' },
      nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page; present when `hasMore`.' },
    },
  },
} as const;

const submissionId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: submissionIdPattern },
} as const;

export const paths: PathsObject = {
  '/api/submissions': {
    post: {
      operationId: 'createSubmission',
      summary: 'Submit manual evidence',
      description:
        'A `multipart/form-data` form. The submitter is taken from the ID token when there is one. Too many or too ' +
        'large files answer 413, a file type outside the list 415, an unknown control 400. The form is read only up ' +
        `to ${formLimits.fields} text fields, ${formLimits.files} files and ${formLimits.parts} parts in all ` +
        `(\`x-form-limits\`), each text field up to ${formLimits.fieldBytes / 1024} KiB: past a count it is refused ` +
        'with 413 `too_many_form_parts`, past the size with 400, before anything else is checked.',
      tags: ['submissions'],
      security: access.protected,
      'x-body-limit': bodyLimit,
      'x-form-limits': formLimits,
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: ref('SubmissionForm'),
            encoding: { attachments: { contentType: uploadLimits.mediaTypes.join(', ') } },
          },
        },
      },
      responses: {
        '201': jsonResponse('The submission, stored and turned into evidence.', ref('Submission'), {
          Location: { description: 'The new submission.', schema: { type: 'string' } },
        }),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '413': responseRef('FormTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
      },
    },
    get: {
      operationId: 'listSubmissions',
      summary: 'List submissions',
      tags: ['submissions'],
      security: access.protected,
      parameters: [
        { name: 'control', in: 'query', required: false, schema: { type: 'string', pattern: controlIdPattern } },
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: {
            type: 'integer',
            minimum: 1,
            maximum: pageLimits.submissions.maximum,
            default: pageLimits.submissions.default,
          },
        },
        cursorParameter,
      ],
      responses: {
        '200': jsonResponse('A page of submissions.', ref('SubmissionPage')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/submissions/{id}': {
    get: {
      operationId: 'getSubmission',
      summary: 'Get one submission',
      tags: ['submissions'],
      security: access.protected,
      parameters: [submissionId],
      responses: {
        '200': jsonResponse('The submission.', ref('Submission')),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('SubmissionNotFound'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/submissions/{id}/review': {
    post: {
      operationId: 'reviewSubmission',
      summary: 'Accept or reject a submission',
      description:
        'Records the caller\u2019s decision on a submission, with a reason (required to reject). A submission is ' +
        'reviewed once, by someone other than its submitter: the submitter answers 403 `self_review`, and a ' +
        'submission already reviewed answers 409 `submission_already_reviewed` (of two people reviewing it at once, ' +
        'one wins). A review is final: a rejected submission is made again as a new one. In public mode callers need ' +
        'not sign in, so the server cannot tell the submitter and the reviewer apart: the review is recorded with ' +
        '`independent` false and says why in `caveat`; only a caller signed in as the submitter is refused there. ' +
        'With `SUBMISSION_REVIEW` `required`, reports from the next one on (or an analysis that publishes today\u2019s) ' +
        'count an accepted submission\u2019s attestation, and never a rejected one\u2019s.',
      tags: ['submissions'],
      security: access.protected,
      'x-body-limit': 8 * 1024,
      parameters: [submissionId],
      requestBody: { required: true, content: { 'application/json': { schema: ref('ReviewDecision') } } },
      responses: {
        '201': jsonResponse('The submission, with the review just recorded.', ref('Submission'), {
          Location: { description: 'The submission, where its review is read.', schema: { type: 'string' } },
        }),
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '403': responseRef('SelfReview'),
        '404': responseRef('SubmissionNotFound'),
        '409': responseRef('SubmissionReviewed'),
        '413': responseRef('PayloadTooLarge'),
        '415': responseRef('UnsupportedMediaType'),
        '500': responseRef('InternalError'),
      },
    },
  },
  '/api/submissions/{id}/attachments/{index}': {
    get: {
      operationId: 'downloadAttachment',
      summary: 'Download an attachment',
      description: 'The file, after checking it still has the SHA-256 recorded at upload; a mismatch is never served.',
      tags: ['submissions'],
      security: access.protected,
      parameters: [
        submissionId,
        {
          name: 'index',
          in: 'path',
          required: true,
          schema: { type: 'integer', minimum: 0, maximum: uploadLimits.maxFiles - 1 },
        },
      ],
      responses: {
        '200': {
          description: 'The file, with its recorded media type and SHA-256 (`Digest`-style in `X-Content-SHA256`).',
          headers: {
            'Content-Disposition': { schema: { type: 'string' } },
            'X-Content-SHA256': { schema: { type: 'string' } },
          },
          content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
        },
        '400': responseRef('BadRequest'),
        '401': responseRef('Unauthorized'),
        '404': responseRef('SubmissionNotFound'),
        '409': responseRef('AttachmentTampered'),
        '500': responseRef('InternalError'),
      },
    },
  },
};
