// What PUT /api/server checks besides the body's shape (server-json.ts): the product's server
// attributes (spec §6 options, the QR driver rules, the device limit) hold values the clients
// can read, and only the first administrator moves the server-wide device limit
// (tarkan-reference §5.2). The rules themselves are @rastro/domain/server-settings, which the
// web client's settings form checks with too.
import { changesServerDeviceLimit, mayChangeServerDeviceLimit, serverAttributeIssues } from '@rastro/domain/server-settings';
import { issueText } from '@rastro/domain/schemas/messages';
import { badRequest, forbidden } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import type { UserRow } from '../users/user-json.ts';
import type { ServerRow } from './server-repo.ts';

export const DEVICE_LIMIT_OWNER_TEXT = 'Server device limit - only the first administrator may change it';

/**
 * Refuses attributes a PUT would store (JSON text, as the update holds it) with a 400 naming the
 * first bad key. Only keys that change are judged, so a value stored long ago by another client
 * never blocks an unrelated save.
 */
export function assertServerAttributes(nextJson: string | undefined, current: ServerRow, caller: UserRow): void {
  if (nextJson === undefined) return;
  const next = parseAttributes(nextJson);
  const previous = parseAttributes(current.attributes);
  const [issue] = serverAttributeIssues(next, previous);
  if (issue) throw badRequest(issueText({ message: issue.message, path: ['attributes', ...issue.path] }));
  if (changesServerDeviceLimit(next, previous) && !mayChangeServerDeviceLimit({ id: caller.id, administrator: caller.administrator === 1 })) {
    throw forbidden(DEVICE_LIMIT_OWNER_TEXT);
  }
}
