// Free-text device search (spec §4, reference §5.3): case- and accent-insensitive match over
// the name, plate attribute, uniqueId, model, phone, contact, every attribute value and the
// group name. Each device's normalised search text is built once per device object (the live
// store replaces objects when they change), so a keystroke only runs `includes` on prepared text.

/** Lower case without accents ("Caminhão" → "caminhao"). */
export function normalizeText(text: string): string {
  const lower = text.toLowerCase();
  // Fast path: plain ASCII needs no decomposition.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(lower)) return lower;
  return lower.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/** Search terms of a query: normalised, split on white space; every term must match. */
export function parseQuery(query: string): string[] {
  return normalizeText(query).split(/\s+/).filter((t) => t.length > 0);
}

/** Fields never worth searching (secrets and internal attributes). */
const SKIP_ATTRIBUTES = new Set(['password']);
/** Separates fields so a term cannot match across two of them. */
const SEP = '\u0001';

interface SearchableDevice {
  name: string;
  uniqueId: string;
  model?: string | null;
  phone?: string | null;
  contact?: string | null;
  attributes?: Record<string, unknown> | null;
}

function attributeText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** The normalised text a query is matched against (not memoised; see deviceSearchKey). */
export function buildSearchKey(device: SearchableDevice, groupName?: string | null): string {
  const parts: string[] = [device.name ?? '', device.uniqueId ?? ''];
  const plate = device.attributes?.plate;
  if (typeof plate === 'string') parts.push(plate);
  if (device.model) parts.push(device.model);
  if (device.phone) parts.push(device.phone);
  if (device.contact) parts.push(device.contact);
  if (device.attributes) {
    for (const [k, v] of Object.entries(device.attributes)) {
      if (k === 'plate' || SKIP_ATTRIBUTES.has(k)) continue;
      const text = attributeText(v);
      if (text) parts.push(text);
    }
  }
  if (groupName) parts.push(groupName);
  return normalizeText(parts.join(SEP));
}

const keys = new WeakMap<object, { group: string; key: string }>();

/** buildSearchKey memoised on the device object (and its group name). */
export function deviceSearchKey(device: SearchableDevice, groupName?: string | null): string {
  const group = groupName ?? '';
  const cached = keys.get(device);
  if (cached && cached.group === group) return cached.key;
  const key = buildSearchKey(device, group);
  keys.set(device, { group, key });
  return key;
}

/** True when every term occurs in the key (no terms: everything matches). */
export function matchesTerms(key: string, terms: readonly string[]): boolean {
  for (const term of terms) if (!key.includes(term)) return false;
  return true;
}
