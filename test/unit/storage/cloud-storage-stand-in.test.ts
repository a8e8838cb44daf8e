/**
 * The Cloud Storage stand-in held to the description it names (test/support/cloud-storage-json-api.ts):
 * the resources it answers have the described fields and types, its errors the JSON API's shape,
 * it refuses parameters the method does not declare, and its checksums are Cloud Storage's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectResourceFields, objectsResourceFields, type FieldType } from '../../support/cloud-storage-json-api.ts';
import { crc32c, crc32cBase64 } from '../../support/cloud-storage-stand-in-bucket.ts';
import { startCloudStorageStandIn, type CloudStorageStandIn } from '../../support/cloud-storage-stand-in.ts';

/** The fields of `value` that break the described types, as `field: why` lines. */
function offDescription(value: Record<string, unknown>, fields: Record<string, FieldType>): string[] {
  const problems: string[] = [];
  for (const [name, field] of Object.entries(value)) {
    const described = fields[name];
    const actual = Array.isArray(field) ? 'array' : typeof field;
    if (!described) problems.push(`${name}: not in the description`);
    else if (actual !== (described.type === 'integer' ? 'number' : described.type)) problems.push(`${name}: ${actual}`);
    else if ((described.format === 'int64' || described.format === 'uint64') && !/^\d+$/.test(field as string))
      problems.push(`${name}: not a decimal integer`);
    else if (described.format === 'date-time' && Number.isNaN(Date.parse(field as string))) problems.push(`${name}: not a time`);
  }
  return problems;
}

describe('the Cloud Storage stand-in', () => {
  let standIn: CloudStorageStandIn;
  const url = (path: string) => `${standIn.origin}${path}`;
  beforeAll(async () => {
    standIn = await startCloudStorageStandIn('bucket');
  });
  afterAll(() => standIn.close());

  async function upload(name: string, data: string, query = ''): Promise<Response> {
    const body =
      '--b\r\nContent-Type: application/json\r\n\r\n' +
      JSON.stringify({ name, contentType: 'text/plain', metadata: { runId: 'r1' } }) +
      `\r\n--b\r\nContent-Type: text/plain\r\n\r\n${data}\r\n--b--`;
    return fetch(url(`/upload/storage/v1/b/bucket/o?uploadType=multipart${query}`), {
      method: 'POST',
      headers: { 'content-type': 'multipart/related; boundary=b' },
      body,
    });
  }

  it('answers Object and Objects resources with the described fields and types', async () => {
    const inserted = (await (await upload('a/1', 'hello')).json()) as Record<string, unknown>;
    expect(offDescription(inserted, objectResourceFields)).toEqual([]);
    expect(inserted).toMatchObject({ kind: 'storage#object', name: 'a/1', size: '5', metadata: { runId: 'r1' } });
    const listed = (await (await fetch(url('/storage/v1/b/bucket/o?prefix=a%2F'))).json()) as Record<string, unknown>;
    expect(offDescription(listed, objectsResourceFields)).toEqual([]);
    expect(listed['items']).toEqual([inserted]);
  });

  it('answers a media download with the object in its headers', async () => {
    const inserted = (await (await upload('doc', 'hello')).json()) as Record<string, string>;
    const response = await fetch(url('/storage/v1/b/bucket/o/doc?alt=media'));
    expect(await response.text()).toBe('hello');
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!['date', 'connection', 'keep-alive'].includes(name)) headers[name] = value;
    });
    expect(headers).toEqual({
      'content-type': 'text/plain',
      'content-length': '5',
      etag: inserted['etag'],
      'last-modified': new Date(inserted['updated']!).toUTCString(),
      'x-goog-generation': inserted['generation'],
      'x-goog-metageneration': '1',
      'x-goog-hash': `crc32c=${inserted['crc32c']},md5=${inserted['md5Hash']}`,
      'x-goog-stored-content-encoding': 'identity',
      'x-goog-stored-content-length': '5',
      'x-goog-storage-class': 'STANDARD',
      'x-goog-meta-runid': 'r1',
    });
  });

  it('answers 412 conditionNotMet and 404 notFound in the JSON API error shape', async () => {
    await upload('once', 'x');
    const refused = await upload('once', 'y', '&ifGenerationMatch=0');
    expect([refused.status, await refused.json()]).toEqual([
      412,
      {
        error: {
          code: 412,
          message: 'At least one of the pre-conditions you specified did not hold.',
          errors: [
            {
              message: 'At least one of the pre-conditions you specified did not hold.',
              domain: 'global',
              reason: 'conditionNotMet',
            },
          ],
        },
      },
    ]);
    const missing = await fetch(url('/storage/v1/b/bucket/o/nothing'));
    expect([missing.status, await missing.json()]).toEqual([
      404,
      {
        error: {
          code: 404,
          message: 'No such object: bucket/nothing',
          errors: [{ message: 'No such object: bucket/nothing', domain: 'global', reason: 'notFound' }],
        },
      },
    ]);
  });

  it('refuses a parameter its method does not declare', async () => {
    const response = await fetch(url('/storage/v1/b/bucket/o?prefix=a&colour=blue'));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { errors: { reason: string }[] } }).error.errors[0]!.reason).toBe('invalid');
  });

  it('computes CRC32C (Castagnoli) as Cloud Storage does', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32cBase64(Buffer.from(''))).toBe('AAAAAA==');
  });
});
