// How request input is read before any route sees it:
// - JSON bodies must be UTF-8, nest at most MAX_JSON_DEPTH levels and hold no unpaired UTF-16
//   surrogate nor NUL; checked in one linear pass before parsing (json-scan.ts). Fastify's own
//   parser then refuses `__proto__` / `constructor.prototype` keys. Bodies over the app's
//   bodyLimit get Fastify's 413.
// - Form bodies (Traccar's login and token forms) and query strings must be correctly
//   percent-encoded UTF-8 without NUL: the usual parsers keep a malformed `%ED%A0%80` or `%ZZ`
//   as literal text, which would then be stored or compared as if the client had meant it, and
//   a `%00` makes PostgreSQL fail the query that uses it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import { pathText } from '@rastro/domain/schemas/messages';
import { textProblem } from '@rastro/domain/schemas/text';
import { badRequest } from './errors.ts';
import { MAX_JSON_DEPTH, scanJson } from './json-scan.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes one percent-encoded form or query component (`+` is a space). */
function decodeComponent(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

const malformed = (key: string) => badRequest(`Invalid ${pathText([key])} - malformed percent-encoding, UTF-8 is expected`);

/**
 * Reads `a=1&b=2&b=3` into `{ a: '1', b: ['2', '3'] }` (repeated keys become arrays, as
 * @fastify/formbody and Fastify's query parser do), refusing malformed percent-encoding.
 * The result has no prototype, so a `__proto__` key is only a key.
 */
export function parseUrlEncoded(text: string): Record<string, string | string[]> {
  const result = Object.create(null) as Record<string, string | string[]>;
  if (text === '') return result;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const rawKey = at < 0 ? pair : pair.slice(0, at);
    const key = decodeComponent(rawKey);
    if (key === null) throw malformed(rawKey);
    const value = decodeComponent(at < 0 ? '' : pair.slice(at + 1));
    if (value === null) throw malformed(key);
    const problem = textProblem(key) ?? textProblem(value);
    if (problem) throw badRequest(`Invalid ${pathText([key])} - ${problem}`);
    const previous = result[key];
    if (previous === undefined) result[key] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else result[key] = [previous, value];
  }
  return result;
}

/** Refuses a request whose query string is not well-formed percent-encoded UTF-8. */
function checkQuery(req: FastifyRequest): void {
  const at = req.url.indexOf('?');
  if (at >= 0) parseUrlEncoded(req.url.slice(at + 1));
}

export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      done(badRequest('Invalid body - the JSON text is not valid UTF-8'), undefined);
      return;
    }
    const problem = scanJson(text, MAX_JSON_DEPTH);
    if (problem?.kind === 'depth') {
      done(badRequest(`Invalid body - JSON nested deeper than ${problem.maxDepth} levels`), undefined);
    } else if (problem?.kind === 'text') {
      done(badRequest(`Invalid ${problem.path} - ${problem.message}`), undefined);
    } else {
      parseJson(req, text, done);
    }
  });
  await app.register(formbody, { parser: parseUrlEncoded });
  app.addHook('preValidation', async (req) => checkQuery(req));
}
