// Which entry of DELIBERATE, if any, accepts a difference. Request names and paths are
// globs: in a request name `*` is any text; in a path `*` is any text within one step (no `.`
// or `[`), so `$[*].attributes` is that key of every element, and `**` is any text at all.
import type { Difference } from './compare.ts';
import type { Deliberate } from './deliberate-differences.ts';

const cache = new Map<string, RegExp>();

function glob(pattern: string, one: string): RegExp {
  const key = `${one}\u0000${pattern}`;
  let re = cache.get(key);
  if (!re) {
    const body = pattern
      .split('**')
      .map((part) => part.split('*').map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(one))
      .join('.*');
    cache.set(key, (re = new RegExp(`^${body}$`)));
  }
  return re;
}

export function accepts(entry: Deliberate, diff: Difference): boolean {
  return entry.kind === diff.kind && glob(entry.request, '.*').test(diff.request) && glob(entry.path, '[^.[]*').test(diff.path);
}

export function deliberateFor(diff: Difference, list: readonly Deliberate[]): Deliberate | undefined {
  return list.find((entry) => accepts(entry, diff));
}
