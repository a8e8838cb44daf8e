/**
 * The top-level values of a JSON file, one at a time, each with the line it starts on: the
 * elements of a top-level array (`[{…},{…}]`, Prowler's `json-ocsf`), or a sequence of values
 * separated by white space (NDJSON, one per line). Told apart by the first character, so the
 * same reader takes either whatever the file is named.
 *
 * Only one value's text is held at a time, so a 100 MB scan never needs 100 MB of heap, and
 * each value is parsed with `JSON.parse` (V8's parser), so reading costs little more than
 * parsing the whole file at once. Streaming JSON libraries (stream-json, @streamparser/json)
 * parse token by token several times slower and cannot say which line a value starts on, which
 * every import error names; this splitter only tracks nesting and strings to find where each
 * value ends.
 *
 * Import-free (but for Node's own modules), so the collector runs it from source.
 */

export type JsonPiece =
  | { line: number; value: unknown }
  /**
   * Something that is not JSON where a value was expected. `element`: a value whose text is not
   * JSON, after which reading goes on; otherwise the file's structure is broken and reading stops.
   */
  | { line: number; error: string; element?: true };

// Plain constants, not an enum: Node's type stripping (the collector runs this from source) has no enums.
const Mode = {
  Start: 0,
  /** Between the elements of the top-level array. */
  Array: 1,
  /** Between values of a white-space separated sequence. */
  Sequence: 2,
  /** After the top-level array closed: only white space may follow. */
  Done: 3,
} as const;
type Mode = (typeof Mode)[keyof typeof Mode];

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff;

/** Pushes text in, takes the complete values out. */
export class JsonValueSplitter {
  #mode: Mode = Mode.Start;
  #line = 1;
  /** Text of the value being read, in pieces; undefined between values. */
  #parts: string[] | undefined;
  #valueLine = 0;
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** In the array: a comma was read, so a value must come before `]`. */
  #expectValue = false;
  /** In the array: a value ended, so a comma or `]` must come next. */
  #afterValue = false;
  #failed = false;

  /** The values completed by `text`. */
  push(text: string): JsonPiece[] {
    const out: JsonPiece[] = [];
    let i = 0;
    while (i < text.length && !this.#failed) {
      if (this.#parts) {
        i = this.#continueValue(text, i, out);
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === 0x0a) this.#line++;
      if (isSpace(c)) {
        i++;
        continue;
      }
      i = this.#between(text, i, c, out);
    }
    return out;
  }

  /** What is left when the input ends: a value cut short, or an array never closed. */
  end(): JsonPiece[] {
    if (this.#failed) return [];
    if (this.#parts) {
      const started = this.#valueLine;
      if (this.#depth === 0 && !this.#inString) {
        const out: JsonPiece[] = [];
        this.#finishValue(out);
        if (this.#mode === Mode.Array) out.push({ line: this.#line, error: 'the file ends before the array is closed with "]"' });
        return out;
      }
      return [{ line: started, error: `the file ends inside the value that starts on line ${started}` }];
    }
    if (this.#mode === Mode.Array) return [{ line: this.#line, error: 'the file ends before the array is closed with "]"' }];
    return [];
  }

  /** Outside any value: the start of the file, separators, or the start of the next value. */
  #between(text: string, i: number, c: number, out: JsonPiece[]): number {
    switch (this.#mode) {
      case Mode.Start:
        if (c === 0x5b /* [ */) {
          this.#mode = Mode.Array;
          return i + 1;
        }
        this.#mode = Mode.Sequence;
        return this.#startValue(text, i);
      case Mode.Sequence:
        return this.#startValue(text, i);
      case Mode.Done:
        out.push({ line: this.#line, error: 'unexpected text after the closing "]" of the array' });
        this.#failed = true;
        return text.length;
      case Mode.Array:
        if (c === 0x5d /* ] */ && !this.#expectValue) {
          this.#mode = Mode.Done;
          return i + 1;
        }
        if (c === 0x2c /* , */ && this.#afterValue) {
          this.#afterValue = false;
          this.#expectValue = true;
          return i + 1;
        }
        if (this.#afterValue) {
          out.push({ line: this.#line, error: `expected "," or "]" after the value, found "${text[i]}"` });
          this.#failed = true;
          return text.length;
        }
        if (c === 0x5d || c === 0x2c) {
          out.push({ line: this.#line, error: `expected a value, found "${text[i]}"` });
          this.#failed = true;
          return text.length;
        }
        this.#expectValue = false;
        return this.#startValue(text, i);
    }
  }

  #startValue(text: string, i: number): number {
    this.#parts = [];
    this.#valueLine = this.#line;
    this.#depth = 0;
    this.#inString = false;
    this.#escaped = false;
    return i;
  }

  /** Reads on through the current value; returns where reading stopped in `text`. */
  #continueValue(text: string, start: number, out: JsonPiece[]): number {
    let i = start;
    while (i < text.length) {
      if (this.#inString) {
        i = this.#skipString(text, i);
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === 0x22 /* " */) {
        this.#inString = true;
        i++;
      } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        this.#depth++;
        i++;
      } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
        if (this.#depth === 0) break; // the array's own `]` after a bare value
        this.#depth--;
        i++;
        if (this.#depth === 0) {
          this.#parts!.push(text.slice(start, i));
          this.#finishValue(out);
          return i;
        }
      } else if (this.#depth === 0 && (isSpace(c) || c === 0x2c) /* , */) {
        break; // the end of a bare value (a number, `true`, …)
      } else {
        if (c === 0x0a) this.#line++;
        i++;
      }
    }
    this.#parts!.push(text.slice(start, i));
    if (i < text.length) this.#finishValue(out);
    return i;
  }

  /** Inside a string: jumps to its closing quote, or to the end of `text`. */
  #skipString(text: string, i: number): number {
    if (this.#escaped) {
      this.#escaped = false;
      i++;
    }
    for (;;) {
      const quote = text.indexOf('"', i);
      const backslash = text.indexOf('\\', i);
      if (backslash !== -1 && (quote === -1 || backslash < quote)) {
        if (backslash + 1 >= text.length) {
          this.#escaped = true;
          return text.length;
        }
        i = backslash + 2;
        continue;
      }
      if (quote === -1) return text.length;
      this.#inString = false;
      return quote + 1;
    }
  }

  #finishValue(out: JsonPiece[]): void {
    const source = this.#parts!.join('');
    const line = this.#valueLine;
    this.#parts = undefined;
    if (this.#mode === Mode.Array) this.#afterValue = true;
    try {
      out.push({ line, value: JSON.parse(source) });
    } catch (error) {
      const message = (error as Error).message
        .replace(/, ".*" is not valid JSON$/s, '')
        .replace(/ in JSON at position \d.*$/s, '');
      out.push({ line, error: `not valid JSON: ${message}`, element: true });
    }
  }
}

/** The values of a byte or text stream, in order; invalid UTF-8 is an error at the line it is on. */
export async function* jsonValues(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<JsonPiece> {
  const splitter = new JsonValueSplitter();
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  for await (const chunk of chunks) {
    let text: string;
    try {
      text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    } catch {
      yield { line: 0, error: 'the file is not UTF-8 text' };
      return;
    }
    yield* splitter.push(text);
  }
  try {
    yield* splitter.push(decoder.decode());
  } catch {
    yield { line: 0, error: 'the file is not UTF-8 text' };
    return;
  }
  yield* splitter.end();
}
