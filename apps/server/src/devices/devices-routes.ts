import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

// Placeholder: routes of this feature are being written.
export async function devicesRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
