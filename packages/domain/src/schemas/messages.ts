// Turns a schema's refusal into the one-line text the API answers (Traccar style: a title,
// " - ", an explanation; clients derive error codes from the title). Schemas here write their
// messages in one of two forms:
// - a whole message, which contains " - " ("Name is required - fill in the name field");
// - a tail naming no field ("must be a number from -90 to 90"), which is prefixed with
//   "Invalid <field> - " where <field> is the path of the value in the body.
import type { z } from 'zod';

/** `attributes.color`, `[2].deviceId`; "body" for the body itself. */
export function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else {
      // Keys come from the client: shortened and kept on one line.
      const key = [...String(part).slice(0, 64)].map((c) => (c < ' ' || c === '\u007f' ? ' ' : c)).join('');
      text += text === '' ? key : `.${key}`;
    }
  }
  return text === '' ? 'body' : text;
}

export function issueText(issue: Pick<z.core.$ZodIssue, 'message' | 'path'>): string {
  // Only the first line counts for clients: a message never spans lines.
  const message = issue.message.replace(/\s*[\r\n]+\s*/g, ' ');
  return message.includes(' - ') ? message : `Invalid ${pathText(issue.path)} - ${message}`;
}

/** The text of the first problem of a failed parse. */
export function errorText(error: z.ZodError): string {
  const first = error.issues[0];
  return first ? issueText(first) : 'Invalid body - the request could not be read';
}

/** True when an update body carries at least one field the endpoint writes. */
export function hasWritableField(values: object): boolean {
  return Object.values(values).some((v) => v !== undefined);
}

/** The refusal of an update that would change nothing. */
export function nothingToUpdateText(fields: readonly string[]): string {
  return `Nothing to update - the body has none of the writable fields (${fields.join(', ')})`;
}
