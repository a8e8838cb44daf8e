/**
 * Reading scanner output: framework ids in the catalog's notation whatever notation the scanner
 * writes, a finding that cannot be read said plainly, and a file split into findings at their lines.
 */
import { describe, expect, it } from 'vitest';
import { JsonValueSplitter } from '../../../functions/src/evidence/json-values.ts';
import { convertFinding, frameworkOfStandard, normaliseRequirement } from '../../../functions/src/common/ocsf-findings.ts';

describe('framework requirement ids', () => {
  it.each([
    ['soc2', 'cc_6_1', 'CC6.1'],
    ['soc2', 'CC6.1', 'CC6.1'],
    ['soc2', 'cc 6.1', 'CC6.1'],
    ['soc2', 'cc_c_1_1', 'C1.1'],
    ['soc2', 'a_1_2', 'A1.2'],
    ['soc2', 'pi_1_3', 'PI1.3'],
    ['iso27001', 'A.8.24', 'A.8.24'],
    ['iso27001', 'a_8_24', 'A.8.24'],
    ['nist80053', 'ac_2_1', 'ac-2.1'],
    ['nist80053', 'AC-2(3)(a)', 'ac-2.3'],
    ['nist80053', 'ac_2_d_1', 'ac-2'],
    ['nist80053', 'sc-28', 'sc-28'],
  ] as const)('reads %s %s as %s', (framework, id, expected) => {
    expect(normaliseRequirement(framework, id)).toBe(expected);
  });

  it.each([
    ['soc2', '1.20'],
    ['iso27001', 'A.9.4.2'],
    ['nist80053', 'Enabled security services'],
  ] as const)('refuses %s %s', (framework, id) => {
    expect(normaliseRequirement(framework, id)).toBeUndefined();
  });

  it('knows the standards by their names, and not other editions', () => {
    expect(
      [
        'SOC2',
        'SOC 2',
        'ISO27001-2022',
        'ISO/IEC 27001:2022',
        'ISO27001-2013',
        'NIST-800-53-Revision-5',
        'NIST-800-53-Revision-4',
        'CIS-2.0',
      ].map(frameworkOfStandard),
    ).toEqual(['soc2', 'soc2', 'iso27001', 'iso27001', undefined, 'nist80053', undefined, undefined]);
  });
});

const valid = {
  class_uid: 2004,
  metadata: { event_code: 'iam_root_mfa_enabled', product: { name: 'Prowler' } },
  status_code: 'FAIL',
  finding_info: { uid: 'prowler-aws-iam_root_mfa_enabled-1-root' },
  resources: [{ uid: 'arn:aws:iam::1:root' }],
  time: 1739539623,
  unmapped: { compliance: { SOC2: ['cc_6_1'], 'CIS-2.0': ['1.5'], 'NIST-800-53-Revision-5': ['ia_2_1', 'ia_2'] } },
};

describe('a finding', () => {
  it("keeps the framework requirements it names, in the catalog's notation", () => {
    const converted = convertFinding(valid);
    expect('items' in converted && converted.items[0]!.data.requirements).toEqual({
      soc2: ['CC6.1'],
      nist80053: ['ia-2', 'ia-2.1'],
    });
  });

  it("reads OCSF milliseconds as well as Prowler's seconds", () => {
    const converted = convertFinding({ ...valid, time: 1739539623000 });
    expect('items' in converted && converted.items[0]!.collectedAt).toBe('2025-02-14T13:27:03.000Z');
  });

  it.each([
    ['a list', [], 'a finding must be a JSON object'],
    ['another class', { ...valid, class_uid: 2003 }, '"class_uid" is 2003, not an OCSF Detection Finding (2004)'],
    ['no check', { ...valid, metadata: {} }, 'the finding names no check: expected "metadata.event_code"'],
    ['an unknown status', { ...valid, status_code: 'WARN' }, '"status_code" is "WARN"; expected PASS, FAIL or MANUAL'],
    ['no time', { ...valid, time: 'yesterday' }, 'the finding has no valid "time"'],
    ['no finding uid', { ...valid, finding_info: {} }, 'the finding has no "finding_info.uid"'],
    ['no resource', { ...valid, resources: [] }, 'the finding names no resource: "resources" is empty'],
    ['a resource without uid', { ...valid, resources: [{ type: 'x' }] }, 'resources[0] has no "uid" or "name"'],
  ])('is refused with %s', (_case, value, problem) => {
    expect(convertFinding(value)).toEqual({ problem });
  });
});

function split(text: string, chunk: number) {
  const splitter = new JsonValueSplitter();
  const pieces = [];
  for (let at = 0; at < text.length; at += chunk) pieces.push(...splitter.push(text.slice(at, at + chunk)));
  return [...pieces, ...splitter.end()];
}

describe('a file of findings', () => {
  it.each([1, 3, 1000])('is split into values at their lines, whatever the chunks (%i characters)', (chunk) => {
    expect(split('[\n  {"a": "x\\"}]"},\n  {"b": [1, {"c": 2}]}\n]\n', chunk)).toEqual([
      { line: 2, value: { a: 'x"}]' } },
      { line: 3, value: { b: [1, { c: 2 }] } },
    ]);
    expect(split('{"a":1}\n\n{"b":"\\\\"}\n', chunk)).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 3, value: { b: '\\' } },
    ]);
  });

  it('goes on after a value that is not JSON, and stops where the structure breaks', () => {
    expect(split('[{"a":1},\n{oops},\n{"b":2} {"c":3}]', 4)).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, error: "not valid JSON: Expected property name or '}'", element: true },
      { line: 3, value: { b: 2 } },
      { line: 3, error: 'expected "," or "]" after the value, found "{"' },
    ]);
    expect(split('[{"a":1},]', 4)).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 1, error: 'expected a value, found "]"' },
    ]);
    expect(split('[{"a":1}] []', 4)).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 1, error: 'unexpected text after the closing "]" of the array' },
    ]);
  });
});
