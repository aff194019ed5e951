// The audit feature as app.ts wires it: the recorder's hooks (registered before every other
// route, after authentication), the log routes, and the retention job.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { registerAuditRecorder } from './audit-recorder.ts';
import { auditRoutes } from './audit-routes.ts';
import { startAuditRetention } from './audit-retention.ts';

export async function registerAudit(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerAuditRecorder(app, ctx);
  await auditRoutes(app, ctx);
  ctx.onClose.push(startAuditRetention(ctx));
}
