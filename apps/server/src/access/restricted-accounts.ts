// What share visitors and QR drivers may not do, whatever their flags (spec §6: a shared user
// has a limited, expiring UI; a QR driver sees only the driver screen). Neither is readonly in
// Traccar's sense (the product creates them that way), so without this they could write
// through the API what their screens never offer. Applied by one preHandler in app.ts.
//   - Both: no writes, except their session's own mechanics (sign in and out, tokens, password
//     recovery: /api/session*, /api/password*), and sending a command (a share may allow
//     locking; /api/commands/send checks that on its own). The QR check-in routes join the
//     allowed writes when they land.
//   - QR drivers also get no live feed and no positions: their screen reads only the device.
import type { FastifyRequest } from 'fastify';
import { isQrDriver, isSharedUser } from '@rastro/domain/permissions';
import { forbidden } from '../http/errors.ts';
import { permissionSubject } from './advanced-perms.ts';

const WRITES_ALLOWED = new Set(['POST /api/commands/send']);
const SESSION_MECHANICS = /^\/api\/(session|password)(\/|$)/;
const DRIVER_READS_REFUSED = new Set(['GET /api/socket', 'GET /api/positions']);

/** The refusal for a request of a restricted account, or null when it may go on. */
export function restrictedAccountRefusal(method: string, url: string, user: Parameters<typeof permissionSubject>[0]): string | null {
  const subject = permissionSubject(user);
  const driver = isQrDriver(subject);
  if (!driver && !isSharedUser(subject)) return null;
  const verb = method === 'HEAD' ? 'GET' : method;
  const route = `${verb} ${url}`;
  if (verb !== 'GET' && !WRITES_ALLOWED.has(route) && !SESSION_MECHANICS.test(url)) {
    // "Write access denied - …": the client reads WRITE_ACCESS_DENIED from it (spec §8).
    return driver ? 'Write access denied - a QR driver account only checks in and out of vehicles' : 'Write access denied - a shared access only views what was shared';
  }
  if (driver && DRIVER_READS_REFUSED.has(route)) return 'Device access denied - a QR driver account only checks in and out of vehicles';
  return null;
}

export function restrictedAccountsGuard() {
  return async (req: FastifyRequest): Promise<void> => {
    const user = req.user;
    const url = req.routeOptions.url;
    if (!user || user.administrator === 1 || url === undefined) return;
    const refusal = restrictedAccountRefusal(req.method, url, user);
    if (refusal) throw forbidden(refusal);
  };
}
