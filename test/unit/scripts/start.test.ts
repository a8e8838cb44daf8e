/**
 * What `npm start` does with its options (scripts/lib/start-options.ts) and how it shows the
 * emulators' log (scripts/lib/emulator-log.ts): the lines that only look like a failure are left
 * out, every other line passes as it came, and a line split across chunks is judged whole.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedLines, isExpectedLine, lineFilter } from '../../../scripts/lib/emulator-log.ts';
import { paths } from '../../../scripts/lib/paths.ts';
import { startOptions } from '../../../scripts/lib/start-options.ts';

describe('npm start’s options', () => {
  it('seeds the demo in its own store by default', () => {
    expect(startOptions([], {})).toEqual({
      mode: 'public',
      storeDir: join(paths.root, '.local', 'store'),
      seedDemo: true,
      reset: false,
    });
  });

  it('starts empty in a store of its own with --empty, leaving the demo’s alone', () => {
    expect(startOptions(['--empty', '--protected'], {})).toEqual({
      mode: 'protected',
      storeDir: join(paths.root, '.local', 'own-store'),
      seedDemo: false,
      reset: false,
    });
    expect(startOptions(['--empty', '--reseed'], {}).reset).toBe(true);
  });

  it('keeps objects where EVIDENT_STORE_DIR says', () => {
    expect(startOptions(['--empty'], { EVIDENT_STORE_DIR: '/tmp/mine' }).storeDir).toBe('/tmp/mine');
  });

  it('refuses an option it does not know rather than starting something else', () => {
    expect(() => startOptions(['--emtpy'], {})).toThrow('npm start takes --empty, --protected and --reseed, not --emtpy.');
  });
});

describe('the emulators’ log as npm start shows it', () => {
  const ui = '⚠  emulators: The Emulator UI is not starting because none of the running emulators have a UI component.';

  it('leaves out the UI warning and the SDK’s discovery server, and nothing else', () => {
    expect([ui, 'Serving at port 8990'].map(isExpectedLine)).toEqual([true, true]);
    expect(
      [
        '✔  functions: Loaded functions definitions from source: auth, docs.',
        '⚠  functions: Failed to load function definition from source: FirebaseError: boom',
        'Serving at port 8990 and more',
      ].map(isExpectedLine),
    ).toEqual([false, false, false]);
    expect(expectedLines.map(({ why }) => why)).toEqual([
      'the Emulator UI is turned off on purpose',
      'the functions SDK reading the exports',
    ]);
  });

  it('passes the other lines on in order, a line split across chunks judged whole', () => {
    const written: string[] = [];
    const filter = lineFilter((text) => written.push(text));
    filter.push('i  emulators: Starting emulators\n⚠  emulators: The Emulator UI is not ');
    filter.push('starting because none of the running emulators have a UI component.\r\nServing at ');
    filter.push('port 8990\n✔  All emulators ready!');
    filter.end();
    expect(written).toEqual(['i  emulators: Starting emulators\n', '✔  All emulators ready!']);
  });

  it('takes a linear time over a long line that is nearly one it leaves out', () => {
    const long = `Serving at port ${'9'.repeat(200_000)}x`;
    expect(isExpectedLine(long)).toBe(false);
    expect(isExpectedLine(`${'The Emulator UI is not starting '.repeat(10_000)}`)).toBe(false);
  });
});
