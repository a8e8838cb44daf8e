/**
 * The Requests page's logic (docs/audit-requests.md): where an answer leads, how a request's
 * status and steps read, and how a failed import's problem lists its rows. Pure, so it is tested
 * without a browser.
 */
import type { AuditAnswer, AuditRequest } from './api-types.ts';

export const statusLabels: Record<AuditRequest['status'], string> = {
  open: 'Open',
  answered: 'Answered, awaiting the auditor',
  accepted: 'Accepted',
  returned: 'Returned',
};

/** The page or API address that shows an answer: the evidence item, the submission, the control's population or sample. */
export function answerHref(controlId: string, answer: Pick<AuditAnswer, 'kind' | 'ref'>): string {
  const control = encodeURIComponent(controlId);
  switch (answer.kind) {
    case 'evidence':
      return `/evidence/${encodeURIComponent(answer.ref)}`;
    case 'submission':
      return `/api/submissions/${encodeURIComponent(answer.ref)}`;
    case 'population': {
      const slash = answer.ref.indexOf('/');
      const query = new URLSearchParams({ date: answer.ref.slice(0, slash), kind: answer.ref.slice(slash + 1) });
      return `/api/controls/${control}/population?${query}`;
    }
    case 'sample':
      return `/api/controls/${control}/sample?${answer.ref}`;
  }
}

/** One step of a request's history as a line: when, what, who, and the comment. */
export function stepLine(step: AuditRequest['history'][number]): string {
  const who = step.by.email ?? step.by.uid;
  return `${step.at.slice(0, 16).replace('T', ' ')} UTC · ${step.action} by ${who}${step.comment ? `: ${step.comment}` : ''}`;
}

/** Each error of an import's problem as a line: its line number and message. */
export function importErrorLines(errors: readonly { line?: number; pointer?: string; message: string }[]): string[] {
  return errors.map(
    (error) =>
      `${error.line !== undefined ? `Line ${error.line}` : 'The file'}${error.pointer ? `, column ${error.pointer.slice(1)}` : ''}: ${error.message}`,
  );
}
