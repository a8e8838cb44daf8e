/**
 * Reads a request body with a hard limit, before anything buffers or inflates it.
 *
 * Both functions runtimes parse every body ahead of user code with body-parser, at up to 1 GB
 * (functions-framework) or 32 MB (the emulator), inflating gzip, deflate, br and zstd as they go,
 * and offer no option to lower that. A 60 KB gzip of `[{},…]` then costs gigabytes before a
 * handler could refuse it. So the runtime guard reads the body first, through this module:
 * a declared length over the limit is refused without reading a byte, and a body (or what it
 * inflates to) is refused as soon as it passes the limit, so memory stays within the limit.
 * body-parser then finds the request already read and leaves it alone.
 */
import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createZstdDecompress } from 'node:zlib';
import { ApiProblem } from './problem.js';
import { contentCodings, maxInflatedBytes } from '@evident/contract/request-limits';

/** Every function accepts at least this much, so a stray small body still reaches the family's own answer (405, 400). */
export const minimumBodyLimit = 64 * 1024;

const decoders: Record<(typeof contentCodings)[number], () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
  zstd: createZstdDecompress,
};

/** Whether a request carries a body at all (RFC 9112 § 6.3: a length, or a transfer coding). */
export function carriesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function tooLarge(detail: string): ApiProblem {
  return new ApiProblem('payload_too_large', detail);
}

/**
 * The body, decoded from its `Content-Encoding`, or an `ApiProblem`: 413 past `limit` bytes
 * (as sent or as inflated), 415 for an encoding the server does not know, 400 for a body that
 * is not the encoding it claims or that ends early. A refused body is left unread and paused
 * for `drainAfterAnswer`.
 */
export function readLimitedBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > limit) {
    return Promise.reject(tooLarge(`The body is ${declared} bytes; this function accepts at most ${limit}.`));
  }
  let decoder: Transform | undefined;
  if (encoding !== 'identity') {
    decoder = Object.hasOwn(decoders, encoding) ? decoders[encoding as keyof typeof decoders]() : undefined;
    if (!decoder) {
      const accepted = contentCodings.join(', ');
      return Promise.reject(
        new ApiProblem(
          'unsupported_media_type',
          `The body's Content-Encoding "${encoding}" is not accepted; send it uncompressed or as ${accepted}.`,
        ),
      );
    }
  }
  const source: Readable = decoder ? req.pipe(decoder) : req;
  // The largest limits are for files, which arrive compressed already; inflating tens of megabytes is the bomb.
  const most = decoder ? Math.min(limit, maxInflatedBytes) : limit;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      source.off('data', onData).off('end', onEnd);
      req.off('error', onRequestError);
      if (decoder) {
        req.unpipe(decoder);
        decoder.off('error', onSourceError).on('error', () => undefined); // zlib may still report the input it was cut off from
        decoder.destroy();
      }
      req.pause();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= most) return void chunks.push(chunk);
      stop();
      const what = decoder ? `The body inflates (${encoding}) to` : 'The body is';
      reject(tooLarge(`${what} more than ${most} bytes, the most this function accepts.`));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onRequestError = () => {
      stop();
      reject(new ApiProblem('invalid_request', 'The request body ended before its declared end.'));
    };
    const onSourceError = () => {
      stop();
      reject(new ApiProblem('invalid_request', `The body is not valid ${encoding} data.`));
    };
    source.on('data', onData).on('end', onEnd);
    decoder?.on('error', onSourceError);
    req.on('error', onRequestError);
  });
}

/** How much of a refused body is read and dropped at most; past it the connection is cut. */
export const maxDrainedBytes = 32 * 1024 * 1024;

/**
 * Reads and drops the rest of a refused body, holding none of it. Closing a connection while
 * the client is still sending resets it: the client loses the answer with its receive buffer,
 * and a proxy in between (the emulator's) may fail outright. So the connection is closed only
 * once the body is drained, or cut when more than `maxDrainedBytes` arrive. Call it before
 * answering.
 */
export function drainAfterAnswer(req: IncomingMessage): void {
  if (req.readableEnded || req.destroyed) return;
  const socket = req.socket;
  let drained = 0;
  req.on('error', () => undefined); // the client may go away meanwhile; there is nothing left to tell it
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > maxDrainedBytes) socket.destroy();
  });
  req.resume();
  // Node ends a `Connection: close` exchange as soon as the answer is flushed, unread data and all.
  const destroySoon = socket.destroySoon.bind(socket);
  socket.destroySoon = () => (req.readableEnded ? destroySoon() : void req.once('end', destroySoon));
}
