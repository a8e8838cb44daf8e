/**
 * The string formats request validation checks: ajv-formats' full set, with one change. RFC 3339
 * allows a leap second (`23:59:60`) in a `date-time`, which `Date.parse` reads as NaN — and every
 * time Evident compares, files or evaluates goes through it, so such a value would pass
 * validation and then be mis-sorted, mis-filed or never counted. Here a `date-time` must also be
 * one JavaScript can read, so the request is refused with a 400 instead.
 *
 * The generated route tables load this module (scripts/lib/route-tables.ts sets it as Ajv's
 * `code.formats`); tests compiling tables in memory register the same functions.
 */
import type { FormatDefinition } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';

const rfc3339 = fullFormats['date-time'] as FormatDefinition<string>;
const validRfc3339 = rfc3339.validate as (value: string) => boolean;

export const formats = {
  ...fullFormats,
  'date-time': {
    ...rfc3339,
    validate: (value: string) => validRfc3339(value) && !Number.isNaN(Date.parse(value)),
  } satisfies FormatDefinition<string>,
};
