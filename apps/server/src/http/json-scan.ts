// A single linear pass over JSON text, before it is parsed: how deep it nests and whether a
// string holds an unpaired UTF-16 surrogate (`"\ud800"`, which has no UTF-8 form) or a NUL
// (`"\u0000"`, which PostgreSQL text cannot hold, so a login or a lookup with it fails). Deep
// nesting is refused before parsing because later steps (JSON.stringify of attributes,
// recursive walks) would overflow the stack; the pass itself uses no recursion. Malformed
// JSON is left for the parser to refuse.
import { pathText } from '@rastro/domain/schemas/messages';
import { LONE_SURROGATE_TEXT, NUL_TEXT } from '@rastro/domain/schemas/text';

export const MAX_JSON_DEPTH = 64;

export type JsonScanProblem =
  | { kind: 'depth'; maxDepth: number }
  /** `path` names where the text sits (`attributes.note`, `[2].name`); "body" at the top. */
  | { kind: 'text'; path: string; message: string };

interface Level {
  array: boolean;
  /** The key being read or last read in an object (start and end of its text). */
  key: [number, number] | null;
  index: number;
  expectKey: boolean;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The code unit of a `\uXXXX` escape whose `u` is at `at`, or -1. */
function escapedUnit(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x75 /* u */) return -1;
  const hex = text.slice(at + 1, at + 5);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? parseInt(hex, 16) : -1;
}

/** The path of the string being read: its keys and array indexes (the key itself when `inKey`, left out). */
function pathOf(text: string, levels: Level[], inKey: boolean): string {
  const path: (string | number)[] = [];
  const last = levels.length - 1;
  levels.forEach((level, i) => {
    if (level.array) path.push(level.index);
    else if (level.key && !(inKey && i === last)) {
      const raw = text.slice(level.key[0], level.key[1]);
      try {
        path.push(JSON.parse(`"${raw}"`) as string);
      } catch {
        path.push(raw);
      }
    }
  });
  return pathText(path);
}

/**
 * False when `text` holds at most `depth` opening brackets, so it cannot nest deeper than that:
 * a quick native search that spares the full scan for ordinary stored JSON.
 */
export function mayNestDeeperThan(text: string, depth: number): boolean {
  let openers = 0;
  for (const bracket of ['[', '{']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++openers > depth) return true;
    }
  }
  return false;
}

export interface JsonScanOptions {
  /** Look for unpaired surrogates and NUL in strings too (default true). */
  texts?: boolean;
}

export function scanJson(text: string, maxDepth = MAX_JSON_DEPTH, options: JsonScanOptions = {}): JsonScanProblem | null {
  const texts = options.texts !== false;
  const levels: Level[] = [];
  let inString = false;
  let stringStart = 0;
  let stringIsKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x22 /* " */) {
        inString = false;
        const top = levels[levels.length - 1];
        if (stringIsKey && top) {
          top.key = [stringStart, i];
          top.expectKey = false;
        }
      } else if (c === 0x5c /* \ */) {
        const unit = texts ? escapedUnit(text, i + 1) : -1;
        if (unit === -1) {
          i += 1; // a short escape (\n, \", ...), or texts unchecked; a bad one is the parser's to refuse
        } else if (isHigh(unit) && text.charCodeAt(i + 6) === 0x5c && isLow(escapedUnit(text, i + 7))) {
          i += 11; // a proper pair written as two escapes
        } else if (isHigh(unit) || isLow(unit) || unit === 0) {
          return { kind: 'text', path: pathOf(text, levels, stringIsKey), message: unit === 0 ? NUL_TEXT : LONE_SURROGATE_TEXT };
        } else {
          i += 5;
        }
      } else if (texts && (isHigh(c) || isLow(c))) {
        if (isHigh(c) && isLow(text.charCodeAt(i + 1))) i += 1;
        else return { kind: 'text', path: pathOf(text, levels, stringIsKey), message: LONE_SURROGATE_TEXT };
      }
      continue;
    }
    switch (c) {
      case 0x22: {
        inString = true;
        stringStart = i + 1;
        const top = levels[levels.length - 1];
        stringIsKey = top !== undefined && !top.array && top.expectKey;
        break;
      }
      case 0x7b /* { */:
      case 0x5b /* [ */:
        if (levels.length >= maxDepth) return { kind: 'depth', maxDepth };
        levels.push({ array: c === 0x5b, key: null, index: 0, expectKey: c === 0x7b });
        break;
      case 0x7d /* } */:
      case 0x5d /* ] */:
        levels.pop();
        break;
      case 0x2c /* , */: {
        const top = levels[levels.length - 1];
        if (top?.array) top.index += 1;
        else if (top) top.expectKey = true;
        break;
      }
    }
  }
  return null;
}
