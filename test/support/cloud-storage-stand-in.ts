/**
 * A stand-in for the Cloud Storage JSON API v1, on loopback, for driving the real
 * `@google-cloud/storage` SDK (and so Evident's Cloud Storage driver) in unit tests. It speaks
 * the parts of the protocol the driver uses, as Google's description gives them
 * (cloud-storage-json-api.ts): objects.insert as a multipart upload, objects.get as the resource
 * or as a media download whose headers carry the generation, size, type, time and custom
 * metadata, objects.delete, objects.list with prefix, offsets, page size and page tokens; the
 * generation preconditions with their 412 and the 404 of a missing object, in the JSON API's
 * error shape. A parameter its method does not declare is refused with a 400.
 *
 * Not Cloud Storage: one bucket in memory, no auth (the SDK sends none to a custom endpoint), no
 * versioning, no resumable uploads, one metageneration. Cloud Storage does not document how it
 * writes a custom metadata value that is not printable ASCII into an `x-goog-meta-*` header;
 * the stand-in percent-encodes such a value as UTF-8, and the driver does not trust any header
 * value with a `%` (see cloud-storage-store.ts).
 *
 * Faults for retry tests: `failNext` answers the next matching requests with 429 or 503, or
 * resets their connection before they are served; `holdNext` keeps one in flight until the test
 * lets it go; `requests` logs every request in order.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { commonParameters, errorReasons, objectMethods, type ObjectMethod } from './cloud-storage-json-api.ts';
import { ApiError, StandInBucket, type Preconditions, type StoredVersion } from './cloud-storage-stand-in-bucket.ts';

/** What a request asked for: a JSON API method, `download` being objects.get with `alt=media`. */
export type Operation = ObjectMethod | 'download';

export type Fault = { status: 429 | 503 } | 'reset';

export interface LoggedRequest {
  operation: Operation | 'unknown';
  method: string;
  /** The object's name, for the methods on one object. */
  object?: string;
  query: Record<string, string>;
  /** The status answered, or `reset` when the connection was dropped instead. */
  answer: number | 'reset';
  /** The credentials the request carried, if any (the driver's requests to a stand-in carry none). */
  authorization?: string;
}

export interface CloudStorageStandIn {
  /** `http://127.0.0.1:<port>`: the SDK's `apiEndpoint`. */
  origin: string;
  bucket: string;
  requests: LoggedRequest[];
  /** Answers the next `count` requests for `operation` (any, when omitted) with `fault`. */
  failNext(count: number, fault: Fault, operation?: Operation): void;
  /** Holds the next request for `operation` unanswered until the returned function is called. */
  holdNext(operation: Operation): () => void;
  close(): Promise<void>;
}

interface Route {
  operation: Operation;
  object?: string;
}

/** Which method a request is, from its HTTP method, path and `alt`. */
function routeOf(method: string, path: string, bucket: string, alt: string | undefined): Route | undefined {
  const objectPath = `/storage/v1/b/${bucket}/o/`;
  if (method === 'POST' && path === `/upload/storage/v1/b/${bucket}/o`) return { operation: 'insert' };
  if (method === 'GET' && path === `/storage/v1/b/${bucket}/o`) return { operation: 'list' };
  if (!path.startsWith(objectPath) || path.length === objectPath.length) return undefined;
  const object = decodeURIComponent(path.slice(objectPath.length));
  if (method === 'GET') return { operation: alt === 'media' ? 'download' : 'get', object };
  if (method === 'DELETE') return { operation: 'delete', object };
  return undefined;
}

function sendError(res: http.ServerResponse, status: keyof typeof errorReasons, message: string): void {
  const body = { error: { code: status, message, errors: [{ message, domain: 'global', reason: errorReasons[status] }] } };
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
}

/** Refuses the parameters that neither the method nor every method declares. */
function checkParameters(operation: Operation, query: Record<string, string>): void {
  const declared = new Set<string>([
    ...commonParameters,
    ...objectMethods[operation === 'download' ? 'get' : operation].parameters,
  ]);
  for (const name of Object.keys(query))
    if (!declared.has(name)) throw new ApiError(400, `Invalid argument: unknown parameter "${name}".`);
  for (const name of ['generation', 'ifGenerationMatch', 'ifGenerationNotMatch', 'maxResults'])
    if (query[name] !== undefined && !/^\d{1,19}$/.test(query[name]!)) throw new ApiError(400, `Invalid value for ${name}.`);
}

const preconditionsOf = (query: Record<string, string>): Preconditions => ({
  ...(query['ifGenerationMatch'] !== undefined ? { ifGenerationMatch: query['ifGenerationMatch'] } : {}),
  ...(query['ifGenerationNotMatch'] !== undefined ? { ifGenerationNotMatch: query['ifGenerationNotMatch'] } : {}),
});

/** A header value as HTTP can carry it: printable ASCII kept, anything else percent-encoded as UTF-8. */
const headerValue = (value: string) => value.replace(/[^\x20-\x7e]+/g, (run) => encodeURIComponent(run));

/** The media download: the bytes, and the object's info in response headers as Cloud Storage sends them. */
function sendMedia(res: http.ServerResponse, bucket: StandInBucket, version: StoredVersion): void {
  const headers: http.OutgoingHttpHeaders = {
    'content-type': version.contentType,
    'content-length': version.data.length,
    etag: Buffer.from(`${version.generation}/1`).toString('base64'),
    'last-modified': version.created.toUTCString(),
    'x-goog-hash': bucket.hashHeader(version),
    'x-goog-generation': version.generation,
    'x-goog-metageneration': '1',
    'x-goog-stored-content-encoding': 'identity',
    'x-goog-stored-content-length': String(version.data.length),
    'x-goog-storage-class': 'STANDARD',
  };
  for (const [key, value] of Object.entries(version.metadata)) headers[`x-goog-meta-${key}`] = headerValue(value);
  res.writeHead(200, headers);
  res.end(version.data);
}

/** The parts of a `multipart/related` body: each part's headers and bytes. */
function multipartParts(body: Buffer, contentType: string): { headers: Record<string, string>; data: Buffer }[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) throw new ApiError(400, 'A multipart upload needs a boundary.');
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const parts: { headers: Record<string, string>; data: Buffer }[] = [];
  let at = body.indexOf(`--${boundary}`) + boundary.length + 2;
  for (;;) {
    if (body.subarray(at, at + 2).toString() === '--') return parts;
    const headerEnd = body.indexOf('\r\n\r\n', at);
    const end = body.indexOf(delimiter, headerEnd);
    if (headerEnd === -1 || end === -1) throw new ApiError(400, 'The multipart body is not well formed.');
    const headers: Record<string, string> = {};
    for (const line of body.subarray(at, headerEnd).toString('latin1').split('\r\n').filter(Boolean)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    parts.push({ headers, data: body.subarray(headerEnd + 4, end) });
    at = end + delimiter.length;
  }
}

/** objects.insert with `uploadType=multipart`: the resource's fields, then the media. */
function insert(bucket: StandInBucket, query: Record<string, string>, req: http.IncomingMessage, body: Buffer) {
  if (query['uploadType'] !== 'multipart') throw new ApiError(400, 'The stand-in takes multipart uploads only.');
  const [resourcePart, mediaPart] = multipartParts(body, req.headers['content-type'] ?? '');
  if (!resourcePart || !mediaPart) throw new ApiError(400, 'A multipart upload has the resource, then the media.');
  const resource = JSON.parse(resourcePart.data.toString('utf8')) as {
    name?: string;
    contentType?: string;
    metadata?: Record<string, unknown>;
  };
  const name = query['name'] ?? resource.name;
  if (!name) throw new ApiError(400, 'Required: the object name.');
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(resource.metadata ?? {})) if (value !== null) metadata[key] = String(value);
  const contentType = resource.contentType ?? mediaPart.headers['content-type'] ?? 'application/octet-stream';
  return bucket.insert({ name, data: Buffer.from(mediaPart.data), contentType, metadata }, preconditionsOf(query));
}

function serveRoute(
  bucket: StandInBucket,
  origin: string,
  route: Route,
  request: { query: Record<string, string>; req: http.IncomingMessage; body: Buffer; res: http.ServerResponse },
): void {
  const { query, req, body, res } = request;
  const conditions = preconditionsOf(query);
  switch (route.operation) {
    case 'insert':
      return sendJson(res, 200, bucket.resource(insert(bucket, query, req, body), origin));
    case 'get':
      return sendJson(res, 200, bucket.resource(bucket.get(route.object!, conditions, query['generation']), origin));
    case 'download':
      return sendMedia(res, bucket, bucket.get(route.object!, conditions, query['generation']));
    case 'delete':
      bucket.delete(route.object!, conditions);
      res.writeHead(204).end();
      return;
    case 'list': {
      const page = bucket.list({ ...query, ...(query['maxResults'] ? { maxResults: Number(query['maxResults']) } : {}) });
      return sendJson(res, 200, {
        kind: 'storage#objects',
        ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
        items: page.items.map((version) => bucket.resource(version, origin)),
      });
    }
  }
}

export async function startCloudStorageStandIn(bucketName = 'stand-in-bucket'): Promise<CloudStorageStandIn> {
  const bucket = new StandInBucket(bucketName);
  const requests: LoggedRequest[] = [];
  const faults: { fault: Fault; operation?: Operation }[] = [];
  const holds: { operation: Operation; released: Promise<void> }[] = [];
  let origin = '';

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', origin);
      const query = Object.fromEntries(url.searchParams);
      const route = routeOf(req.method ?? 'GET', url.pathname, bucketName, query['alt']);
      const logged: LoggedRequest = { operation: route?.operation ?? 'unknown', method: req.method ?? 'GET', query, answer: 0 };
      if (route?.object !== undefined) logged.object = route.object;
      if (req.headers.authorization !== undefined) logged.authorization = req.headers.authorization;
      requests.push(logged);
      const holdAt = holds.findIndex((entry) => entry.operation === route?.operation);
      if (holdAt !== -1) await holds.splice(holdAt, 1)[0]!.released;
      const faultAt = faults.findIndex((entry) => entry.operation === undefined || entry.operation === route?.operation);
      if (faultAt !== -1) {
        const [{ fault }] = faults.splice(faultAt, 1) as [{ fault: Fault }];
        if (fault === 'reset') {
          logged.answer = 'reset';
          req.socket.resetAndDestroy();
          return;
        }
        logged.answer = fault.status;
        return sendError(res, fault.status, fault.status === 429 ? 'Too many requests.' : 'Backend error.');
      }
      try {
        if (!route) throw new ApiError(404, `Not found: ${req.method} ${url.pathname}`);
        checkParameters(route.operation, query);
        serveRoute(bucket, origin, route, { query, req, body: Buffer.concat(chunks), res });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        sendError(res, error.status, error.message);
      }
      logged.answer = res.statusCode;
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    bucket: bucketName,
    requests,
    failNext(count, fault, operation) {
      for (let i = 0; i < count; i++) faults.push({ fault, ...(operation ? { operation } : {}) });
    },
    holdNext(operation) {
      let release = () => {};
      holds.push({ operation, released: new Promise<void>((resolve) => (release = resolve)) });
      return () => release();
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
