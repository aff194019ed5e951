// Who may open the advanced logs (issue 13 item 8, tarkan-reference §3.4): with the Plus
// licence, administrators (everything) and managers (the rows of their own tree; the server
// narrows what they get).
import { canManageUsers, type MenuContext } from '@rastro/domain/menus';

export function canReadLogs(ctx: MenuContext): boolean {
  if (!ctx.server.plus) return false;
  return ctx.user.administrator === true || canManageUsers(ctx);
}
