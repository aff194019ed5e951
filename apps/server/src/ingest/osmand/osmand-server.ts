// The OsmAnd / Traccar Client HTTP port (5055). Plain node:http with keep-alive: devices
// send small requests at high rates, and a web framework would only add cost. The answer is
// sent once the position is stored: 200 (empty, or the text of one queued command), 400 for
// a missing/unknown id or a bad value (404 for an unknown id in the JSON form), 413 for
// bodies over 64 KB. A refused message stores nothing; nothing a sender does can crash us.
// While the database is away the answer waits (the writer retries); once the writer's buffer is
// full, or when the device's lookup needs the database, the answer is 503 with Retry-After and
// no acknowledgement, so the device keeps the report and sends it again.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { AppContext } from '../../context.ts';
import type { DeviceEntry } from '../../processing/device-cache.ts';
import type { Pipeline } from '../../processing/pipeline.ts';
import { IngestUnavailable } from '../../processing/ingest-unavailable.ts';
import { DATABASE_UNAVAILABLE, RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../../storage/unavailable.ts';
import { DecodeError, type DecodedMessage } from '../decoded.ts';
import { decodeJsonText } from './decode-json.ts';
import { decodeQuery } from './decode-query.ts';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Returns the text of one command queued for the device (and marks it sent), or null. The
 * commands feature provides it; until then no command is ever answered.
 */
export type TakeQueuedCommand = (device: DeviceEntry) => Promise<string | null> | string | null;

export interface OsmandServerOptions {
  host: string;
  port: number;
  takeQueuedCommand?: TakeQueuedCommand;
  /** Time allowed to send the headers / the whole request (slow senders are cut off). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** How often Node looks for requests past those limits. */
  checkIntervalMs?: number;
}

export interface OsmandServer {
  port: number;
  close(): Promise<void>;
}

class BodyTooLarge extends Error {}

function readBody(req: http.IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        failed = true;
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (error) => {
      failed = true;
      reject(error);
    });
  });
}

function reply(res: http.ServerResponse, status: number, text = '', close = false, extra: http.OutgoingHttpHeaders = {}): void {
  if (res.headersSent || res.destroyed) return;
  // nosniff: a browser pointed at this port must never read a command text as HTML or script.
  const headers: http.OutgoingHttpHeaders = { ...extra, 'content-length': Buffer.byteLength(text), 'x-content-type-options': 'nosniff' };
  if (text) headers['content-type'] = 'text/plain; charset=utf-8';
  if (close) headers.connection = 'close';
  res.writeHead(status, headers);
  res.end(text);
}

export async function startOsmandServer(ctx: AppContext, pipeline: Pipeline, options: OsmandServerOptions): Promise<OsmandServer> {
  const takeQueuedCommand = options.takeQueuedCommand ?? (() => null);

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const receivedAt = Date.now();
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const json = (req.headers['content-type'] ?? '').toLowerCase().includes('application/json');
    let message: DecodedMessage | null;
    try {
      if (json) {
        message = decodeJsonText(await readBody(req), receivedAt);
      } else if (queryAt >= 0 && queryAt < url.length - 1) {
        req.resume(); // a body next to URL parameters is not read, only drained
        message = decodeQuery(new URLSearchParams(url.slice(queryAt + 1)), receivedAt);
      } else {
        message = decodeQuery(new URLSearchParams(await readBody(req)), receivedAt);
      }
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        req.resume();
        return reply(res, 413, `Request body too large - at most ${MAX_BODY_BYTES} bytes`, true);
      }
      if (error instanceof DecodeError) return reply(res, error.status, error.message);
      throw error;
    }
    if (!message) return reply(res, 400, 'Missing device id - send id=<uniqueId>');

    const result = await pipeline.submit(message, receivedAt);
    if (result.kind === 'unknown') {
      return reply(res, json ? 404 : 400, `Unknown device ${message.uniqueId.slice(0, 64)}`);
    }
    const command = await takeQueuedCommand(result.entry);
    reply(res, 200, command ?? '');
  }

  const server = http.createServer(
    {
      keepAlive: true,
      // Slow or silent senders lose their connection instead of holding it forever.
      headersTimeout: options.headersTimeoutMs ?? 10_000,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      connectionsCheckingInterval: options.checkIntervalMs ?? 2_000,
      maxHeaderSize: 16 * 1024,
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        // Not taken for now (buffer full, database away): the writer logs the outage once, not per message.
        if (error instanceof IngestUnavailable) {
          return reply(res, 503, error.message, false, { 'retry-after': String(error.retryAfterSeconds) });
        }
        if (isDatabaseUnavailable(error)) {
          return reply(res, 503, DATABASE_UNAVAILABLE, false, { 'retry-after': String(RETRY_AFTER_SECONDS) });
        }
        ctx.log.error({ err: error }, 'OsmAnd request failed');
        reply(res, 500, 'Internal server error', true);
      });
    },
  );
  server.keepAliveTimeout = 65_000;
  server.timeout = 120_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // Malformed requests (bad request line, oversized headers): answer if possible, then drop.
    if (socket.writable && !socket.destroyed) {
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    } else {
      socket.destroy();
    }
  });

  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: options.host, port: options.port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive connections would hold close() open; in-flight answers are cut short.
        server.closeIdleConnections();
        setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, 1000).unref();
      }),
  };
}
