// The entity resources served on the shared path (resource-routes.ts), one definition each.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { calendarResource } from '../calendars/calendar-resource.ts';
import { driverResource } from '../drivers/driver-resource.ts';
import { maintenanceResource } from '../maintenance/maintenance-resource.ts';
import { computedAttributeResource } from '../attributes/computed-attribute-resource.ts';
import { notificationResource } from '../notifications/notification-resource.ts';
import { resourceRoutes } from './resource-routes.ts';

export async function entityResourcesRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await resourceRoutes(app, ctx, calendarResource);
  await resourceRoutes(app, ctx, driverResource);
  await resourceRoutes(app, ctx, maintenanceResource);
  await resourceRoutes(app, ctx, computedAttributeResource);
  await resourceRoutes(app, ctx, notificationResource);
}
