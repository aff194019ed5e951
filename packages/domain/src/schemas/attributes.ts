// The free-form `attributes` object every entity carries: a JSON object (not an array),
// nested at most ATTRIBUTES_MAX_DEPTH levels, whose keys and texts are storable, and whose
// JSON stays under a size limit. Walked without recursion, so no input can overflow the stack.
import { hasLoneSurrogate, LONE_SURROGATE_TEXT } from './text.ts';

export const ATTRIBUTES_MAX_DEPTH = 32;
export const ATTRIBUTES_MAX_BYTES = 256 * 1024;

export type Attributes = Record<string, unknown>;

export interface AttributesProblem {
  /** Where, below the attributes object (keys and array indexes). */
  path: (string | number)[];
  message: string;
}

export const isPlainObject = (value: unknown): value is Attributes =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why `value` is not a usable attributes object, or null. */
export function attributesProblem(value: unknown, maxBytes = ATTRIBUTES_MAX_BYTES): AttributesProblem | null {
  if (!isPlainObject(value)) return { path: [], message: 'a JSON object is expected' };
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const current = item.value;
    if (typeof current === 'string') {
      if (hasLoneSurrogate(current)) return { path: item.path, message: LONE_SURROGATE_TEXT };
    } else if (typeof current === 'number') {
      if (!Number.isFinite(current)) return { path: item.path, message: 'a finite number is expected' };
    } else if (typeof current === 'object' && current !== null) {
      if (item.path.length >= ATTRIBUTES_MAX_DEPTH) return { path: item.path, message: `nested deeper than ${ATTRIBUTES_MAX_DEPTH} levels` };
      const entries: [string | number, unknown][] = Array.isArray(current) ? current.map((v, i) => [i, v]) : Object.entries(current);
      for (const [key, child] of entries) {
        if (typeof key === 'string' && hasLoneSurrogate(key)) return { path: item.path, message: 'a key holds an unpaired UTF-16 surrogate' };
        stack.push({ value: child, path: [...item.path, key] });
      }
    }
  }
  // Depth is bounded above, so serialising cannot overflow the stack.
  if (JSON.stringify(value).length > maxBytes) return { path: [], message: `too large, at most ${maxBytes / 1024} KB` };
  return null;
}
