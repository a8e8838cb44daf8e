/**
 * The submit page's form as `POST /api/submissions` takes it (multipart: `controls` repeated once
 * per control, text fields, `attachments` files), and the server's answer mapped back onto it:
 * each error's JSON pointer names the field it belongs under. The server validates; the page
 * only says where. Pure, so it is tested without a browser.
 */
import { controlIdPattern } from '@evident/contract';
import type { Problem } from './api.ts';
import { controlIdsIn } from './control-ids.ts';

export const fields = ['controls', 'statement', 'subject', 'effectiveDate', 'expiresAt', 'notApplicable', 'attachments'] as const;
export type Field = (typeof fields)[number];

/** Each field's label, which also names it in the server's messages ("Statement is required"). */
export const fieldLabels: Record<Field, string> = {
  controls: 'Controls',
  statement: 'Statement',
  subject: 'Subject',
  effectiveDate: 'Effective date',
  expiresAt: 'Expires at',
  notApplicable: 'Not applicable',
  attachments: 'Attachments',
};

export interface SubmissionValues {
  /** Control ids as typed: separated by commas, spaces or new lines. */
  controls: string;
  statement: string;
  subject: string;
  /** `YYYY-MM-DD` from a date input, or empty. */
  effectiveDate: string;
  /** `YYYY-MM-DDTHH:mm` from a local date-time input, or empty. */
  expiresAt: string;
  notApplicable: boolean;
}

export const emptyValues = (): SubmissionValues => ({
  controls: '',
  statement: '',
  subject: '',
  effectiveDate: '',
  expiresAt: '',
  notApplicable: false,
});

/**
 * The controls a link asks the form to start with: "Submit evidence for this control" opens
 * `/submit?control=IAM-01` (repeatable). What is not a control id is left out, as typed text would
 * be refused by the server anyway.
 */
export function controlsAskedIn(query: URLSearchParams): string {
  const isControlId = new RegExp(controlIdPattern);
  return query
    .getAll('control')
    .filter((id) => isControlId.test(id))
    .join(', ');
}

/** A local date-time input's value as the instant it names, in the browser's time zone; other text as is. */
export function instantOf(local: string): string {
  const date = new Date(local);
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(local) && !Number.isNaN(date.getTime()) ? date.toISOString() : local;
}

/** The multipart body: optional fields only when given, so the server's defaults apply. */
export function formDataOf(values: SubmissionValues, files: readonly File[]): FormData {
  const form = new FormData();
  for (const id of controlIdsIn(values.controls)) form.append('controls', id);
  form.append('statement', values.statement);
  if (values.subject.trim()) form.append('subject', values.subject.trim());
  if (values.effectiveDate) form.append('effectiveDate', values.effectiveDate);
  if (values.expiresAt) form.append('expiresAt', instantOf(values.expiresAt));
  if (values.notApplicable) form.append('notApplicable', 'true');
  for (const file of files) form.append('attachments', file, file.name);
  return form;
}

/** The field a body pointer names: `/controls/2` → `controls`; the root or an unknown name → none. */
export function fieldOf(pointer: string | undefined): Field | undefined {
  const name = pointer?.split('/')[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
  return (fields as readonly string[]).includes(name ?? '') ? (name as Field) : undefined;
}

export interface FormProblems {
  /** Messages to show under each field, in the server's words. */
  byField: Partial<Record<Field, string[]>>;
  /** What to say at the top of the form. */
  summary: string;
}

/** Problems about the files as a whole, which the API answers without pointers. */
const attachmentCodes = new Set<Problem['code']>(['attachment_too_large', 'attachment_type_not_allowed', 'payload_too_large']);

/** What was sent, so an error about one element (`/controls/1`, `/attachments/0`) can name it. */
export interface Sent {
  controls: readonly string[];
  /** The attachments' file names, in order. */
  files: readonly string[];
}

/**
 * Places a problem answer on the form: each body error under its field, worded with what it is
 * about ("ZZZ-99 names no control in the catalog", "Statement is required"). Errors outside
 * the body, or about the body as a whole, stay in the summary only.
 */
export function problemsOf(problem: Problem, sent: Sent): FormProblems {
  const byField: Partial<Record<Field, string[]>> = {};
  const add = (field: Field, message: string) => (byField[field] ??= []).push(message);
  for (const error of problem.errors ?? []) {
    const field = error.in === 'body' ? fieldOf(error.pointer) : undefined;
    if (!field) continue;
    const index = /^\/[^/]+\/(\d+)$/.exec(error.pointer ?? '')?.[1];
    const element =
      index === undefined
        ? undefined
        : (field === 'controls' ? sent.controls : field === 'attachments' ? sent.files : [])[Number(index)];
    add(field, `${element ?? fieldLabels[field]} ${error.message}`);
  }
  if (attachmentCodes.has(problem.code)) add('attachments', problem.detail ?? problem.title);
  return { byField, summary: problem.detail ?? problem.title };
}
