/**
 * File names that cross HTTP: the name a client gave an upload, made safe to keep and to show,
 * and the `Content-Disposition` that hands it back on download (RFC 6266, with RFC 8187's
 * `filename*` for what plain ASCII cannot say). Pure functions of strings.
 */

/** Longer names are cut; counted in code points, so a record and a header line stay small. */
const maxCodePoints = 200;
/** An extension this short survives the cut, so a shortened name still opens with the right program. */
const maxExtensionCodePoints = 16;

/**
 * Control characters (C0, DEL, C1) and the bidirectional formatting characters: a name with
 * U+202E shows `in\u202Etxt.exe` as "inexe.txt" in a file dialog.
 */
const unwanted = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The name without what must not be shown; a lone surrogate (which no header or URL can carry) becomes U+FFFD. */
export function printableName(name: string): string {
  return name.toWellFormed().replace(unwanted, '');
}

const codePoints = (text: string) => [...text].length;

/** Keeps whole user-perceived characters from the start while they fit in `budget` code points. */
function head(text: string, budget: number): string {
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    used += codePoints(segment);
    if (used > budget) break;
    kept += segment;
  }
  return kept;
}

/** Cut to `maxCodePoints` between user-perceived characters (an emoji and its modifiers stay together), keeping a short extension. */
function shorten(name: string): string {
  if (codePoints(name) <= maxCodePoints) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && codePoints(name.slice(dot)) <= maxExtensionCodePoints ? name.slice(dot) : '';
  return head(name.slice(0, name.length - extension.length), maxCodePoints - codePoints(extension)) + extension;
}

/**
 * The name to keep for an uploaded file. Browsers send a bare name, but nothing stops a client
 * sending `../../x`, `C:\x` or control characters.
 */
export function cleanFileName(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  return shorten(printableName(base)) || 'attachment';
}

/** RFC 8187 `attr-char` is narrower than what `encodeURIComponent` leaves alone. */
const extValue = (text: string) =>
  encodeURIComponent(text).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `attachment; filename="…"; filename*=UTF-8''…`: an ASCII fallback (anything else, quotes,
 * backslashes and `%` replaced, one `_` per code point) for old clients, and the exact name for
 * the rest. Any stored name gives a valid header, whatever an earlier version let through.
 */
export function contentDisposition(name: string): string {
  const shown = printableName(name) || 'attachment';
  const ascii = shown.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${extValue(shown)}`;
}
