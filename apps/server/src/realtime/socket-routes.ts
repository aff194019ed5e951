// `GET /api/socket`: Traccar's live socket. Authenticated by `?token=` (a signed login token)
// or by the cookie session with the usual Origin check; anything else refuses the upgrade
// with 401. The hub (socket-hub.ts) does the rest, and remembers the credential the socket
// was opened with so the socket closes when it ends (logout, password change, revocation).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { sendUnauthorized, tokenLogin } from '../auth/authenticate.ts';
import { SocketHub } from './socket-hub.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The open sockets of this instance (raw-log subscribers, counts for tests). */
    socketHub: SocketHub;
  }
}

export async function socketRoutes(app: FastifyInstance, ctx: AppContext): Promise<SocketHub> {
  const hub = new SocketHub(ctx, { keepaliveMs: ctx.config.socketKeepaliveMs });
  ctx.onClose.push(() => hub.close());
  app.decorate('socketHub', hub);

  app.get(
    '/api/socket',
    {
      websocket: true,
      // Public so the app-wide hook lets a `?token=` caller through; checked right below.
      config: { public: true },
      preHandler: async (req, reply) => {
        const token = (req.query as { token?: unknown }).token;
        if (typeof token === 'string' && token !== '') {
          const login = await tokenLogin(ctx, token);
          req.user = login.user;
          req.credential = login.credential;
          return;
        }
        if (!req.user) return sendUnauthorized(req, reply);
      },
    },
    (socket, req) => {
      void hub.attach(socket, req.user!, req.credential).catch((error: unknown) => {
        ctx.log.error({ err: error }, 'socket: attach failed');
        socket.close(1011, 'Server error');
      });
    },
  );
  return hub;
}
