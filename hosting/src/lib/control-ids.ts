/** Control ids as people type them ("iam-01, NET-02") and as the catalog writes them (`IAM-01`). */
import { controlIdPattern } from '@evident/contract';

const controlId = new RegExp(controlIdPattern);

/** The words of a list, upper-cased, each once, in order: what the person meant to name. */
export function controlIdsIn(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .filter(Boolean)
        .map((word) => word.toUpperCase()),
    ),
  ];
}

/** Those words split into catalog-form ids and, as typed, what cannot be one. */
export function parseControlIds(text: string): { ids: string[]; invalid: string[] } {
  const words = [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
  return {
    ids: controlIdsIn(words.filter((word) => controlId.test(word.toUpperCase())).join(' ')),
    invalid: words.filter((word) => !controlId.test(word.toUpperCase())),
  };
}
