/**
 * The emulators' log as `npm start` shows it. A few lines the emulators print on every start
 * read like a failure or a missing piece although nothing is wrong here, and a person starting
 * Evident for the first time cannot tell: they are left out, and `npm start` says once, in its
 * own words, what is true instead (scripts/start.ts). Every other line passes unchanged.
 */

/** The lines left out, each with why it is expected. */
export const expectedLines: readonly { pattern: RegExp; why: string }[] = [
  {
    // firebase-tools warns whenever `emulators.ui.enabled` is false: the UI needs a download this
    // project does without, and everything it shows is in the web app and the API explorer.
    pattern: /The Emulator UI is not starting because none of the running emulators have a UI component\./,
    why: 'the Emulator UI is turned off on purpose',
  },
  {
    // The functions SDK's discovery server, which the emulator starts and stops to read the exports.
    pattern: /^Serving at port \d+$/,
    why: 'the functions SDK reading the exports',
  },
];

export function isExpectedLine(line: string): boolean {
  return expectedLines.some(({ pattern }) => pattern.test(line));
}

/**
 * Passes a stream's text on line by line without the expected lines; a partial last line waits
 * for the rest. Returns the function to call with each chunk, and one to flush at the end.
 */
export function lineFilter(write: (text: string) => void): { push(chunk: string): void; end(): void } {
  let pending = '';
  return {
    push(chunk) {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (!isExpectedLine(line.trimEnd())) write(`${line}\n`);
    },
    end() {
      if (pending !== '' && !isExpectedLine(pending.trimEnd())) write(pending);
      pending = '';
    },
  };
}
