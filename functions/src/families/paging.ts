/**
 * How every listing pages (`GET /api/evidence`, `/api/submissions`, `/api/analyses`, `/api/runs`,
 * `/api/runs/sources`, `/api/runs/populations`, `/api/exceptions`, `/api/report/{date}/versions`,
 * `/api/controls/{id}/population`). The stores page by place — a newest-first index key
 * (storage/newest-first.ts); for exceptions, which list soonest expiry first, an exception id;
 * for a report's versions, oldest first, a version number; for the sources of runs, a source
 * segment; for a control's population, the report version and the index of a subject — and know
 * nothing of cursors; here a place becomes the opaque `nextCursor` a client sends back as `cursor`,
 * and back again. A cursor names its listing, so one listing's cursor is not taken by another,
 * and a cursor this API did not give out (made up, truncated, or naming a place that cannot
 * be one) is refused with the same 400 everywhere, never quietly read as "from the start".
 */
import { invalidRequest } from '../http/problem.js';
import { isExceptionId } from '../exceptions/exception-layout.js';
import { isSourceSegment } from '../runs/run-layout.js';
import { isIndexKey, type PlacedPage } from '../storage/newest-first.js';

export type Listing =
  | 'evidence'
  | 'submissions'
  | 'analyses'
  | 'deliveries'
  | 'exceptions'
  | 'versions'
  | 'settings'
  | 'runs'
  | 'sources'
  | 'populations'
  | 'population';

/** A day's report version (`versions`) or a settings version (`settings`): a number from 1. */
const isReportVersion = (place: string) => /^[1-9]\d{0,5}$/.test(place);
const isSettingsVersion = (place: string) => /^[1-9]\d{0,8}$/.test(place);
/** A control's population: `<day>/<report run id>/<control>/<kind>/<index of the next subject>` (control-population.ts). */
const isPopulationPlace = (place: string) => /^\d{4}-\d{2}-\d{2}\/[^/]+\/[^/]+\/[^/]+\/[1-9]\d{0,8}$/.test(place);

/**
 * What a place looks like in each listing: an index key, but an exception id for exceptions, a
 * number for versions and a source segment for the sources of runs.
 */
const isPlaceOf = (listing: Listing): ((place: string) => boolean) =>
  listing === 'exceptions'
    ? isExceptionId
    : listing === 'versions'
      ? isReportVersion
      : listing === 'settings'
        ? isSettingsVersion
        : listing === 'sources'
          ? isSourceSegment
          : listing === 'population'
            ? isPopulationPlace
            : isIndexKey;

/** A page as a listing answers it. */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
  nextCursor?: string;
}

interface CursorBody {
  of: Listing;
  after: string;
}

export function encodeCursor(listing: Listing, place: string): string {
  const body: CursorBody = { of: listing, after: place };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/**
 * The place a listing's cursor stands for; undefined when no cursor was sent. `isPlace` is the
 * listing's own test of a place (that a run's key agrees with the time its id records, say).
 * Anything else is refused with a 400 `invalid_request` naming the `cursor` parameter.
 */
export function placeOf(listing: Listing, cursor: string | undefined, isPlace: (place: string) => boolean = () => true) {
  if (cursor === undefined) return undefined;
  const place = decode(listing, cursor);
  if (place === undefined || !isPlaceOf(listing)(place) || !isPlace(place)) {
    throw invalidRequest([{ in: 'query', name: 'cursor', message: 'is not a cursor this API gave out' }]);
  }
  return place;
}

function decode(listing: Listing, cursor: string): string | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody> | null;
    if (parsed?.of === listing && typeof parsed.after === 'string') return parsed.after;
  } catch {
    // not a cursor of ours
  }
  return undefined;
}

/** The answer for a page: its items, whether more follow, and the cursor to continue from. */
export function pageBody<T>(listing: Listing, page: PlacedPage<T>): Page<T> {
  return {
    items: page.items,
    hasMore: page.hasMore,
    ...(page.next !== undefined ? { nextCursor: encodeCursor(listing, page.next) } : {}),
  };
}
