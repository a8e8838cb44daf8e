/**
 * A scanner's OCSF file, as one request sends it, read whole into evidence inputs before anything
 * is stored: one finding at a time (json-values.ts), each converted (ocsf-findings.ts). Any
 * finding that cannot be read refuses the file with every problem's line, so an import is never
 * partial.
 *
 * What the file makes is counted as it is made, against the limits of one import (`@evident/contract`):
 * findings, items and their bytes. Crossing one stops the reading at once (`ScanTooLarge`), so
 * neither the work nor the memory grows past the limits, whatever the file holds.
 */
import { maxOcsfImportFindings, maxOcsfImportItems, maxOcsfImportStoredBytes } from '@evident/contract';
import { ScanTooLarge, ScanUnreadable, type ScanProblem } from './evidence-errors.js';
import { JsonValueSplitter, type JsonPiece } from './json-values.js';
import { convertFinding, type ScannerFindingInput } from '../common/ocsf-findings.js';

/** Characters handed to the splitter at a time. */
const sliceLength = 256 * 1024;
/** Problems listed in a refusal; the rest are counted. */
const maxListedProblems = 100;

export interface ScanRead {
  findings: number;
  items: ScannerFindingInput[];
  /** The items' bytes as stored JSON. */
  bytes: number;
}

/** The findings of a file's bytes as evidence inputs; throws `ScanUnreadable` or `ScanTooLarge`. */
export function readScan(bytes: Uint8Array): ScanRead {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ScanUnreadable([{ line: 1, message: 'the file is not UTF-8 text' }], 0);
  }
  const inArray = /^[\s\uFEFF]*\[/.test(text.slice(0, 1024));
  const splitter = new JsonValueSplitter();
  // Fed a slice at a time, so only one slice's findings are held parsed, not the whole file's.
  const pieces = function* () {
    for (let start = 0; start < text.length; start += sliceLength) yield* splitter.push(text.slice(start, start + sliceLength));
    yield* splitter.end();
  };
  const scan = new ScanReader(inArray);
  for (const piece of pieces()) scan.read(piece);
  return scan.result();
}

/** What the pieces of one file make, counted against the limits as it is made. */
class ScanReader {
  readonly #inArray: boolean;
  readonly #items: ScannerFindingInput[] = [];
  readonly #problems: ScanProblem[] = [];
  #moreProblems = 0;
  /** The line of the finding that made each item, to name a repeat. */
  readonly #lineOf = new Map<string, number>();
  #findings = 0;
  #bytes = 0;

  constructor(inArray: boolean) {
    this.#inArray = inArray;
  }

  read(piece: JsonPiece): void {
    const element = 'value' in piece || piece.element === true;
    const at = { line: piece.line, ...(this.#inArray && element ? { index: this.#findings } : {}) };
    if (element && ++this.#findings > maxOcsfImportFindings) {
      throw new ScanTooLarge('findings', maxOcsfImportFindings, piece.line);
    }
    if ('error' in piece) return this.#problem({ ...at, message: piece.error });
    const converted = convertFinding(piece.value);
    if ('problem' in converted) return this.#problem({ ...at, message: converted.problem });
    for (const item of converted.items) {
      const earlier = this.#lineOf.get(item.id);
      if (earlier !== undefined) {
        return this.#problem({ ...at, message: `the finding repeats, for ${item.subject}, the finding on line ${earlier}` });
      }
      this.#lineOf.set(item.id, piece.line);
      // One at a time, never spread: a spread of a huge array overflows the stack.
      this.#items.push(item);
      if (this.#items.length > maxOcsfImportItems) throw new ScanTooLarge('items', maxOcsfImportItems, piece.line);
      this.#bytes += Buffer.byteLength(JSON.stringify(item));
      if (this.#bytes > maxOcsfImportStoredBytes) throw new ScanTooLarge('bytes', maxOcsfImportStoredBytes, piece.line);
    }
  }

  #problem(problem: ScanProblem): void {
    if (this.#problems.length < maxListedProblems) this.#problems.push(problem);
    else this.#moreProblems++;
  }

  result(): ScanRead {
    if (this.#problems.length > 0) throw new ScanUnreadable(this.#problems, this.#moreProblems);
    return { findings: this.#findings, items: this.#items, bytes: this.#bytes };
  }
}
