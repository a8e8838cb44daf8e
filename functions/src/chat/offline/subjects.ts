/**
 * The subject a question names, if any ("what does priya.patel fail?", "is ACME-XPS-004 ok?"),
 * under any name people use for it (entities.ts), and a person the report knows nothing of.
 */
import { emailPattern, entitiesOf } from './entities.js';
import { checksMeeting } from './checks.js';
import type { ReportIndex } from '../report-index.js';
import { stem } from '../vocabulary.js';
import type { Query } from '../question.js';

export type SubjectQuery = Extract<Query, { kind: 'subject' }>;

/** The subject a question names (the longest name that fits), if any, and the checks the rest of it speaks of. */
export function subjectQuery(text: string, index: ReportIndex): SubjectQuery | undefined {
  const mention = entitiesOf(index)
    .mentions(text)
    .find(({ entity }) => entity.kind === 'subject');
  if (!mention) return undefined;
  const { display, keys } = mention.entity;
  const checks = checksMeeting(`${text.slice(0, mention.at)} ${text.slice(mention.end)}`, index);
  return { kind: 'subject', name: display, keys: [...keys], ...(checks.length > 0 ? { checks } : {}) };
}

/**
 * An email address, or a first.last handle, the question names that no finding or item of the
 * report does: a person the report knows nothing of.
 */
export function unknownSubject(text: string, index: ReportIndex): string | undefined {
  const known = entitiesOf(index).byAlias;
  const email = (text.match(emailPattern) ?? []).find((address) => !known.has(address.toLowerCase()));
  if (email) return email;
  const handles = text.match(/(?<![\w@./-])[a-z]{2,}\.[a-z]{2,}(?![\w@-]|\.[a-z])/g) ?? [];
  // An evidence kind ("idp.user") is the catalog's word, not a person's handle.
  return handles.find(
    (handle) =>
      !known.has(handle) &&
      !index.evidenceKinds.has(handle) &&
      !domainEnd.test(handle) &&
      !index.vocabulary.has(stem(handle.split('.')[0]!)),
  );
}

const domainEnd = /\.(com|org|net|io|dev|app|co|example|internal|local|cloud|ai|md|json|txt|csv|pdf|yaml|yml)$/;
