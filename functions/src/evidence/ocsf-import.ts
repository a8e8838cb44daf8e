/**
 * A scanner's OCSF file, as one request sends it, read whole into evidence inputs before anything
 * is stored: one finding at a time (json-values.ts), each converted (ocsf-findings.ts). Any
 * finding that cannot be read refuses the file with every problem's line, so an import is never
 * partial.
 */
import { ScanUnreadable, type ScanProblem } from './evidence-errors.js';
import { JsonValueSplitter } from './json-values.js';
import { convertFinding, type ScannerFindingInput } from '../common/ocsf-findings.js';

/** Characters handed to the splitter at a time. */
const sliceLength = 256 * 1024;
/** Problems listed in a refusal; the rest are counted. */
const maxListedProblems = 100;

export interface ScanRead {
  findings: number;
  items: ScannerFindingInput[];
}

/** The findings of a file's bytes as evidence inputs; throws `ScanUnreadable` when any cannot be read. */
export function readScan(bytes: Uint8Array): ScanRead {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ScanUnreadable([{ line: 1, message: 'the file is not UTF-8 text' }], 0);
  }
  const inArray = /^[\s\uFEFF]*\[/.test(text.slice(0, 1024));
  const splitter = new JsonValueSplitter();
  const problems: ScanProblem[] = [];
  const items: ScannerFindingInput[] = [];
  let findings = 0;
  // Fed a slice at a time, so only one slice's findings are held parsed, not the whole file's.
  const pieces = function* () {
    for (let start = 0; start < text.length; start += sliceLength) yield* splitter.push(text.slice(start, start + sliceLength));
    yield* splitter.end();
  };
  for (const piece of pieces()) {
    const element = 'value' in piece || piece.element === true;
    const at = { line: piece.line, ...(inArray && element ? { index: findings } : {}) };
    if (element) findings++;
    if ('error' in piece) {
      problems.push({ ...at, message: piece.error });
      continue;
    }
    const converted = convertFinding(piece.value);
    if ('problem' in converted) problems.push({ ...at, message: converted.problem });
    else items.push(...converted.items);
  }
  if (problems.length > 0) {
    throw new ScanUnreadable(problems.slice(0, maxListedProblems), Math.max(0, problems.length - maxListedProblems));
  }
  return { findings, items };
}
