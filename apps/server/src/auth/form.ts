// Reads a text field from a Traccar-style form body (x-www-form-urlencoded) or the same
// field from a JSON body; clients of both kinds post to the auth endpoints.

export function formField(body: unknown, name: string): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  // A field repeated in a form arrives as an array: the first one counts.
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}
