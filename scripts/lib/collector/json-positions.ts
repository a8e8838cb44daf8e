/**
 * Where things are in a JSON text, so a problem can be shown at its `file:line`: the line each
 * value starts on, by JSON pointer, and the line and column of a parse error.
 */

/** V8's JSON error without the echoed input, and where it happened when V8 says so. */
export function describeJsonError(error: Error, text: string): { message: string; line?: number; column?: number } {
  let message = error.message.replace(/, ".*" is not valid JSON$/s, '');
  const located = / in JSON at position (\d+)(?: \(line (\d+) column (\d+)\))?$/.exec(message);
  if (located) {
    message = message.slice(0, located.index);
    const position = Number(located[1]);
    const before = text.slice(0, position).split('\n');
    const line = located[2] ? Number(located[2]) : before.length;
    const column = located[3] ? Number(located[3]) : before.at(-1)!.length + 1;
    return { message, line, column };
  }
  if (/^Unexpected end of JSON input/.test(message)) return { message, line: text.trimEnd().split('\n').length };
  return { message };
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The line each value of a valid JSON text starts on, by JSON pointer. Iterative, so deep
 * nesting cannot overflow the stack; assumes `JSON.parse` accepted the text.
 */
export function valueLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let pos = 0;
  let line = 1;
  const skipSpace = () => {
    for (; pos < text.length; pos++) {
      const c = text[pos];
      if (c === '\n') line++;
      else if (c !== ' ' && c !== '\t' && c !== '\r' && c !== '\uFEFF') break;
    }
  };
  const readString = (): string => {
    const start = pos++;
    while (text[pos] !== '"') pos += text[pos] === '\\' ? 2 : 1;
    pos++;
    return JSON.parse(text.slice(start, pos)) as string;
  };
  const stack: { pointer: string; array: boolean; index: number }[] = [];
  /** Positions on the next member's value and returns its pointer. */
  const next = (frame: { pointer: string; array: boolean; index: number }): string => {
    if (frame.array) return `${frame.pointer}/${frame.index}`;
    skipSpace();
    const key = readString();
    skipSpace();
    pos++; // ':'
    return `${frame.pointer}/${escapePointer(key)}`;
  };

  let pointer = '';
  for (;;) {
    skipSpace();
    lines.set(pointer, line);
    const c = text[pos];
    if (c === '{' || c === '[') {
      pos++;
      skipSpace();
      if (text[pos] === (c === '{' ? '}' : ']')) {
        pos++;
      } else {
        const frame = { pointer, array: c === '[', index: 0 };
        stack.push(frame);
        pointer = next(frame);
        continue;
      }
    } else if (c === '"') {
      readString();
    } else {
      while (pos < text.length && !/[\s,\]}]/.test(text[pos]!)) pos++;
    }
    // The value is complete: move to the next member, closing containers on the way.
    for (;;) {
      const frame = stack.at(-1);
      if (!frame) return lines;
      skipSpace();
      if (text[pos++] === ',') {
        frame.index++;
        pointer = next(frame);
        break;
      }
      stack.pop();
    }
  }
}
