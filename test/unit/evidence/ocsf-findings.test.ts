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

  it('reads the requirements an OCSF finding names once per framework, however many times its standards name it', () => {
    // 50,000 standards × 50,000 requirements (1.8 MB): read once per standard, that was 2.5 billion ids (40 s).
    const compliance = {
      standards: Array.from({ length: 50_000 }, (_, n) => (n === 0 ? 'NIST-800-53 r5' : 'AICPA SOC 2')),
      requirements: [...Array.from({ length: 49_998 }, () => 'not-a-requirement'), 'CC6.1', 'AC-2(3)(a)'],
    };
    const converted = convertFinding({ ...valid, unmapped: undefined, compliance });
    expect('items' in converted && converted.items[0]!.data.requirements).toEqual({ soc2: ['CC6.1'], nist80053: ['ac-2.3'] });
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

describe('what a finding costs', () => {
  const itemsOf = (value: unknown) => {
    const converted = convertFinding(value);
    if ('problem' in converted) throw new Error(converted.problem);
    return converted.items;
  };
  const texts = {
    finding_info: { uid: 'prowler-aws-s3-1', title: 'S3 buckets are encrypted' },
    status_detail: 'The bucket is not encrypted.',
    remediation: { desc: 'Turn on default encryption.' },
  };

  it("stores a finding's texts once: on the first resource's item, with the count, and the others name that item", () => {
    const items = itemsOf({ ...valid, ...texts, resources: [{ uid: 'a' }, { uid: 'b' }, { uid: 'c' }] });
    const common = {
      check: 'iam_root_mfa_enabled',
      status: 'FAIL',
      muted: false,
      severity: 'unknown',
      product: 'Prowler',
      findingUid: 'prowler-aws-s3-1',
      requirements: { soc2: ['CC6.1'], nist80053: ['ia-2', 'ia-2.1'] },
    };
    expect(items.map((item) => [item.subject, item.data])).toEqual([
      [
        'a',
        {
          ...common,
          title: 'S3 buckets are encrypted',
          message: 'The bucket is not encrypted.',
          remediation: 'Turn on default encryption.',
          resourceCount: 3,
        },
      ],
      ['b', { ...common, textsIn: items[0]!.id }],
      ['c', { ...common, textsIn: items[0]!.id }],
    ]);
  });

  it('keeps the texts on the item of a finding that names one resource, as before', () => {
    const [item] = itemsOf({ ...valid, ...texts });
    expect([item!.data.message, item!.data.resourceCount, item!.data.textsIn]).toEqual([
      'The bucket is not encrypted.',
      undefined,
      undefined,
    ]);
  });

  it('clips every string, by code points, and cleans control characters and lone surrogates', () => {
    const long = (length: number) => '\u{1F525}'.repeat(length);
    const [item] = itemsOf({
      ...valid,
      metadata: { event_code: `check-${long(300)}`, product: { name: long(150) } },
      severity: `High\u0000${long(60)}`,
      status_detail: `broken \ud800 and \u0007 bell\n${long(5000)}`,
      cloud: { provider: long(60), account: { uid: long(150) }, region: 'eu-west-1' },
      resources: [{ uid: 'arn:aws:s3:::b\u0001', region: long(150), type: long(250) }],
    });
    const points = (text: string | undefined) => Array.from(text ?? '').length;
    expect({
      check: points(item!.data.check),
      severity: points(item!.data.severity),
      product: points(item!.data.product),
      provider: points(item!.data.provider),
      account: points(item!.data.account),
      region: points(item!.data.region),
      resourceType: points(item!.data.resourceType),
      message: points(item!.data.message),
      source: points(item!.source),
    }).toEqual({
      check: 200,
      severity: 50,
      product: 100,
      provider: 50,
      account: 100,
      region: 100,
      resourceType: 200,
      message: 4000,
      source: 200,
    });
    expect(item!.data.check.endsWith('\u2026')).toBe(true);
    expect(item!.data.message!.slice(0, 20)).toBe('broken \uFFFD and \uFFFD bell\n');
    expect(item!.subject).toBe('arn:aws:s3:::b\uFFFD');
    for (const text of [item!.source, item!.subject, ...Object.values(item!.data).filter((v) => typeof v === 'string')]) {
      expect((text as string).isWellFormed()).toBe(true);
    }
  });

  it('cleans a message of a million control characters in one pass', () => {
    const [item] = itemsOf({ ...valid, status_detail: `x${'\u0001'.repeat(1_000_000)}` });
    expect(item!.data.message).toBe(`x${'\uFFFD'.repeat(3998)}\u2026`);
  });

  it('keeps the largest finding it accepts within the 64 KiB an item may take', () => {
    const worst = (length: number) => '\u0001'.repeat(length);
    const items = itemsOf({
      ...valid,
      metadata: { event_code: worst(300), product: { name: worst(300) } },
      severity: worst(300),
      finding_info: { uid: worst(600), title: worst(5000) },
      status_detail: worst(5000),
      remediation: { desc: worst(5000) },
      cloud: { provider: worst(300), account: { uid: worst(300) } },
      resources: [{ uid: 'a', region: worst(300), type: worst(300) }, { uid: 'b' }],
      unmapped: {
        compliance: {
          SOC2: Array.from({ length: 100 }, (_, n) => `pi_${10 + (n % 90)}_${10 + Math.floor(n / 90)}`),
          'ISO27001-2022': Array.from({ length: 100 }, (_, n) => `A.${5 + (n % 4)}.${10 + Math.floor(n / 4)}`),
          'NIST-800-53-Revision-5': Array.from({ length: 100 }, (_, n) => `ac_${10 + (n % 90)}_${10 + Math.floor(n / 90)}`),
        },
      },
    });
    for (const item of items) expect(Buffer.byteLength(JSON.stringify(item.data))).toBeLessThanOrEqual(64 * 1024);
  });

  it.each([
    [
      'more than 1,000 resources, before reading any',
      { ...valid, resources: Array.from({ length: 1001 }, () => null) },
      'the finding names 1001 resources; at most 1000 are read per finding, split it',
    ],
    [
      'a resource named twice',
      { ...valid, resources: [{ uid: 'a' }, { uid: 'b' }, { name: 'a' }] },
      'resources[2] names the same resource as resources[0]',
    ],
    [
      'more than 100 requirements of one framework',
      {
        ...valid,
        unmapped: { compliance: { SOC2: Array.from({ length: 101 }, (_, n) => `cc_${1 + (n % 9)}_${1 + Math.floor(n / 9)}`) } },
      },
      'the finding names more than 100 soc2 requirements',
    ],
  ])('is refused with %s', (_case, value, problem) => {
    expect(convertFinding(value)).toEqual({ problem });
  });
});
