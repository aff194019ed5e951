// What the reseller dialog shows (spec §3 "User: Reseller", §6): the signed-in reseller's tree
// against its limits — users against the lower of its Traccar userLimit and its reseller limit
// `tarkan.limitReseller`, devices against its deviceLimit — with its domain and whether it may
// create sub-resellers. The limits come from @rastro/domain/resellers, the rules the server
// enforces, so the dialog never promises room the server would refuse.
import type { User } from '@rastro/domain/entities';
import { deviceCapacity, resellerFields, userCapacity, type ResellerFields } from '@rastro/domain/resellers';

export interface Figure {
  used: number;
  /** null = no limit. */
  limit: number | null;
  /** Room left (never below 0), null without a limit. */
  left: number | null;
  full: boolean;
  /** Share of the limit in use, 0–100 (a full limit of 0 is 100); null without a limit. */
  percent: number | null;
}

export function figure(used: number, limit: number | null): Figure {
  if (limit === null) return { used, limit, left: null, full: false, percent: null };
  const percent = limit === 0 ? 100 : Math.min(100, Math.round((used / limit) * 100));
  return { used, limit, left: Math.max(0, limit - used), full: used >= limit, percent };
}

export interface ResellerSummary {
  users: Figure;
  devices: Figure;
  fields: ResellerFields;
}

/**
 * `treeUsers`: users below the reseller at any depth; `treeDevices`: the devices it sees
 * through links (its own and its tree's: what its deviceLimit counts). Administrators have
 * no limits.
 */
export function resellerSummary(me: User, treeUsers: number, treeDevices: number): ResellerSummary {
  const admin = me.administrator;
  return {
    users: figure(treeUsers, admin ? null : userCapacity({ userLimit: me.userLimit, attributes: me.attributes })),
    devices: figure(treeDevices, admin ? null : deviceCapacity(me.deviceLimit)),
    fields: resellerFields(me.attributes),
  };
}
