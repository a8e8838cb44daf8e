/**
 * `npm start` never stops to ask for a setting: each demo project's `.env` file gives every
 * param a deploy asks for a value. The functions emulator prompts for a param without one, and
 * a person starting Evident for the first time reads the prompt as a hang.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { askedSettingNames } from '../../functions/src/config.ts';
import { projects } from '../../scripts/lib/emulators.ts';
import { paths } from '../../scripts/lib/paths.ts';

const namesIn = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.slice(1, 2) ?? []);

describe('the demo projects’ settings', () => {
  it('reads the params the functions declare', () => {
    expect(askedSettingNames()).toContain('REMINDER_DAYS');
    expect(askedSettingNames()).not.toContain('WEBHOOK_SECRET_KEY');
  });

  for (const project of Object.values(projects)) {
    it(`give every param a value in functions/.env.${project}`, () => {
      const given = namesIn(join(paths.functions, `.env.${project}`));
      expect(askedSettingNames().filter((name) => !given.includes(name))).toEqual([]);
    });
  }
});
