// Traccar Client announces its push token in each message; it is kept on the device in the
// comma-separated `notificationTokens` attribute so push commands can reach the phone. Only
// a new token costs a write (then the usual device change goes out).
import type { AppContext } from '../context.ts';
import { parseAttributes } from '../http/json.ts';
import type { DeviceEntry } from './device-cache.ts';

export function hasToken(entry: DeviceEntry, token: string): boolean {
  const current = entry.json.attributes.notificationTokens;
  return typeof current === 'string' && current.split(',').includes(token);
}

export async function rememberToken(ctx: AppContext, entry: DeviceEntry, token: string): Promise<void> {
  if (hasToken(entry, token)) return;
  // Read the row fresh: the attributes may have been edited since the cache loaded them.
  const row = await ctx.storage.db.selectFrom('devices').select('attributes').where('id', '=', entry.id).executeTakeFirst();
  if (!row) return;
  const attributes = parseAttributes(row.attributes);
  const current = typeof attributes.notificationTokens === 'string' ? attributes.notificationTokens : '';
  if (current.split(',').includes(token)) return;
  attributes.notificationTokens = current ? `${current},${token}` : token;
  const text = JSON.stringify(attributes);
  await ctx.storage.db.updateTable('devices').set({ attributes: text }).where('id', '=', entry.id).execute();
  // Until the cache reloads the row, remember the token so the next message does not write again.
  entry.json = { ...entry.json, attributes };
  entry.row = { ...entry.row, attributes: text };
  ctx.changes.publish({ kind: 'device', id: entry.id });
}
