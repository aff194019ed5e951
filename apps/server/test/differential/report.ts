// The differences as a Markdown report, for people: grouped by request, one line per difference
// (the same difference in every element of a list is one line with a count and examples),
// Rastro's extra keys apart, and a summary by category.
import type { DiffKind, Difference } from './compare.ts';
import type { Deliberate } from './deliberate-differences.ts';

export interface RequestResult {
  name: string;
  traccarStatus: number | undefined;
  ourStatus: number;
  /** Traccar's answer was not recorded (an empty entry in the fixture): nothing compared. */
  notRecorded: boolean;
  differences: Array<Difference & { deliberate?: Deliberate }>;
}

const KIND_TITLE: Record<DiffKind, string> = {
  status: 'status',
  missing: 'missing key/element',
  extra: 'extra key/element',
  type: 'type',
  value: 'value',
  order: 'order',
};

const show = (value: unknown): string => {
  if (value === undefined) return '—';
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
};

/** `$[id=3].attributes` and `$[7].attributes` are the same place of two elements. */
const general = (path: string) => path.replace(/\[(id=|type=)?(ours:)?[^\]=]*\]/g, '[*]');

/** The same difference at the same place of several elements, together. */
function grouped(diffs: RequestResult['differences']): Array<RequestResult['differences']> {
  const groups = new Map<string, RequestResult['differences']>();
  for (const d of diffs) {
    const key = `${d.kind}\u0000${general(d.path)}\u0000${d.deliberate?.reason ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  return [...groups.values()];
}

function lines(diffs: RequestResult['differences']): string[] {
  return grouped(diffs).map((group) => {
    const first = group[0]!;
    const tag = first.deliberate ? ` _(deliberate: ${first.deliberate.reason})_` : '';
    const note = first.note ? ` (${first.note})` : '';
    if (group.length === 1) {
      return `- ${KIND_TITLE[first.kind]} \`${first.path}\` — Traccar: ${show(first.traccar)} — ours: ${show(first.ours)}${note}${tag}`;
    }
    const same = group.every((d) => show(d.traccar) === show(first.traccar) && show(d.ours) === show(first.ours));
    if (same) {
      return `- ${KIND_TITLE[first.kind]} \`${general(first.path)}\` ×${group.length} — Traccar: ${show(first.traccar)} — ours: ${show(first.ours)}${note}${tag}`;
    }
    const examples = group.slice(0, 4).map((d) => `\`${d.path}\` ${show(d.traccar)} → ${show(d.ours)}`).join('; ');
    return `- ${KIND_TITLE[first.kind]} \`${general(first.path)}\` ×${group.length} — e.g. ${examples}${group.length > 4 ? '; …' : ''}${tag}`;
  });
}

export function markdownReport(backend: string, results: RequestResult[], unusedDeliberate: readonly Deliberate[]): string {
  const all = results.flatMap((r) => r.differences);
  const open = all.filter((d) => !d.deliberate);
  const count = (list: typeof all, kind: DiffKind) => list.filter((d) => d.kind === kind).length;
  const openLines = results.flatMap((r) => grouped(r.differences.filter((d) => !d.deliberate)));
  const lineCount = (kind: DiffKind) => openLines.filter((g) => g[0]!.kind === kind).length;
  const out: string[] = [
    `# Rastro vs Traccar 6.14.5 — differential test world-1 (${backend})`,
    '',
    `Made by \`apps/server/test/differential/world-1.test.ts\` (RASTRO_DIFF_REPORT) on ${new Date().toISOString()}.`,
    'Paths: `$` is the body, `[id=N]` the element Traccar numbered N (paired with ours through the id map), `[N]` an index,',
    '`[*]` every such element. Ids are compared through the map, server times by type only (compare.ts says how).',
    '',
    '## Summary',
    '',
    'Open: not accepted by DELIBERATE. Lines: the report\'s lines (one per place, the same place of every element of a list together).',
    '',
    '| category | open | open lines | deliberate |',
    '| --- | ---: | ---: | ---: |',
    ...(Object.keys(KIND_TITLE) as DiffKind[]).map((k) => `| ${KIND_TITLE[k]} | ${count(open, k)} | ${lineCount(k)} | ${count(all, k) - count(open, k)} |`),
    `| **all** | **${open.length}** | **${openLines.length}** | **${all.length - open.length}** |`,
    '',
    `${results.length} requests; ${results.filter((r) => r.differences.some((d) => !d.deliberate)).length} with open differences; ` +
      `${results.filter((r) => r.notRecorded).length} not recorded by Traccar (not compared).`,
    '',
    '## Differences by request (extra keys apart)',
    '',
  ];
  for (const r of results) {
    const diffs = r.differences.filter((d) => d.kind !== 'extra');
    if (r.notRecorded) {
      out.push(`### ${r.name}`, '', `- not compared: Traccar's answer was not recorded (ours: ${r.ourStatus})`, '');
      continue;
    }
    if (diffs.length === 0) continue;
    out.push(`### ${r.name} (Traccar ${r.traccarStatus}, ours ${r.ourStatus})`, '', ...lines(diffs), '');
  }
  out.push('## Extra keys and elements (ours only)', '');
  for (const r of results) {
    const extras = r.differences.filter((d) => d.kind === 'extra');
    if (extras.length) out.push(`### ${r.name}`, '', ...lines(extras), '');
  }
  out.push('## Requests without differences', '');
  out.push(...results.filter((r) => !r.notRecorded && r.differences.length === 0).map((r) => `- ${r.name} (${r.ourStatus})`), '');
  if (unusedDeliberate.length) {
    out.push('## DELIBERATE entries that matched nothing', '');
    out.push(...unusedDeliberate.map((d) => `- ${d.kind} \`${d.path}\` in ${d.request}: ${d.reason}`), '');
  }
  return out.join('\n');
}
