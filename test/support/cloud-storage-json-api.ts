/**
 * What the Cloud Storage stand-in is held to: the parts of Google's published description of the
 * Cloud Storage JSON API v1 that Evident's driver uses, written down here as facts (names and
 * types, not Google's text). Source: the API's discovery document (`storage:v1`, served at
 * `https://storage.googleapis.com/$discovery/rest?version=v1`; the copy read was retrieved in
 * August 2026), the JSON API reference pages for objects.get/insert/delete/list and for its
 * headers and errors, and, for the headers of a media download, a captured response of the real
 * service (`x-goog-generation`, `x-goog-metageneration`, `x-goog-stored-content-length`,
 * `x-goog-hash`, `last-modified` …) beside the documented `x-goog-meta-KEY`.
 *
 * The stand-in refuses a query parameter its method does not declare (400), so a request the
 * SDK builds differently from the description fails a test instead of passing unnoticed; a test
 * checks the Object resources it answers against `objectResourceFields`.
 */

/** Query parameters every method takes (the description's top-level `parameters`). */
export const commonParameters = ['alt', 'fields', 'key', 'oauth_token', 'prettyPrint', 'quotaUser', 'uploadType', 'userIp'];

/** The object methods the driver calls: HTTP method, path under `storage/v1/`, declared parameters. */
export const objectMethods = {
  get: {
    httpMethod: 'GET',
    path: 'b/{bucket}/o/{object}',
    // supportsMediaDownload: `alt=media` answers the bytes instead of the resource.
    parameters: [
      'bucket',
      'generation',
      'ifGenerationMatch',
      'ifGenerationNotMatch',
      'ifMetagenerationMatch',
      'ifMetagenerationNotMatch',
      'object',
      'projection',
      'restoreToken',
      'softDeleted',
      'userProject',
    ],
  },
  insert: {
    httpMethod: 'POST',
    // mediaUpload.protocols.simple.path, with `uploadType=multipart`.
    path: '/upload/storage/v1/b/{bucket}/o',
    parameters: [
      'bucket',
      'contentEncoding',
      'ifGenerationMatch',
      'ifGenerationNotMatch',
      'ifMetagenerationMatch',
      'ifMetagenerationNotMatch',
      'kmsKeyName',
      'name',
      'predefinedAcl',
      'projection',
      'userProject',
    ],
  },
  delete: {
    httpMethod: 'DELETE',
    path: 'b/{bucket}/o/{object}',
    parameters: [
      'bucket',
      'generation',
      'ifGenerationMatch',
      'ifGenerationNotMatch',
      'ifMetagenerationMatch',
      'ifMetagenerationNotMatch',
      'object',
      'userProject',
    ],
  },
  list: {
    httpMethod: 'GET',
    path: 'b/{bucket}/o',
    parameters: [
      'bucket',
      'delimiter',
      'endOffset',
      'filter',
      'includeFoldersAsPrefixes',
      'includeTrailingDelimiter',
      'matchGlob',
      'maxResults',
      'pageToken',
      'prefix',
      'projection',
      'softDeleted',
      'startOffset',
      'userProject',
      'versions',
    ],
  },
} as const;

export type ObjectMethod = keyof typeof objectMethods;

/** A field's JSON type and, for strings that carry numbers or times, their format. */
export interface FieldType {
  type: 'string' | 'integer' | 'boolean' | 'object' | 'array';
  format?: 'int64' | 'uint64' | 'int32' | 'date-time';
}

/**
 * The Object resource's fields that the stand-in answers, with their types in the description
 * (`schemas.Object.properties`); `metadata` is an object of string values.
 */
export const objectResourceFields: Record<string, FieldType> = {
  kind: { type: 'string' },
  id: { type: 'string' },
  selfLink: { type: 'string' },
  mediaLink: { type: 'string' },
  name: { type: 'string' },
  bucket: { type: 'string' },
  generation: { type: 'string', format: 'int64' },
  metageneration: { type: 'string', format: 'int64' },
  contentType: { type: 'string' },
  storageClass: { type: 'string' },
  size: { type: 'string', format: 'uint64' },
  md5Hash: { type: 'string' },
  crc32c: { type: 'string' },
  etag: { type: 'string' },
  timeCreated: { type: 'string', format: 'date-time' },
  updated: { type: 'string', format: 'date-time' },
  timeStorageClassUpdated: { type: 'string', format: 'date-time' },
  timeFinalized: { type: 'string', format: 'date-time' },
  metadata: { type: 'object' },
};

/** `schemas.Objects.properties`: a page of a listing. */
export const objectsResourceFields: Record<string, FieldType> = {
  kind: { type: 'string' },
  items: { type: 'array' },
  nextPageToken: { type: 'string' },
  prefixes: { type: 'array' },
};

/** `objects.list` `maxResults`: "this parameter or 1,000 items, whichever is smaller". */
export const maxListResults = 1000;

/**
 * The error reasons the stand-in answers, as the JSON API reports them in
 * `{ error: { code, message, errors: [{ domain, reason, message }] } }`.
 */
export const errorReasons = {
  400: 'invalid',
  404: 'notFound',
  412: 'conditionNotMet',
  429: 'rateLimitExceeded',
  503: 'backendError',
} as const;
