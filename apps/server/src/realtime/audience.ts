// Who listens to which device on this instance: deviceId -> ids of the users that have a
// socket open here and may see that device. Only connected users are tracked, so the map
// stays as small as the set of people watching. Administrators see every device and are kept
// apart (no per-device entries for them).
//
// The map is built from access/visibility.ts when a user's first socket connects and is
// changed when ctx.changes reports a permission, device, group or user change. A manager's
// entry holds the devices of its whole user tree (visibility.ts), so a position reaches tree
// managers through the same per-device look-up as anyone: nothing is recomputed per message.
// Links between users (and a user's deletion) publish a permission change, which recomputes
// the tracked users once. The async
// methods read the database; the socket hub runs them one at a time (see socket-hub.ts), so
// two computations never interleave their writes into the map.
import type { Visibility } from '../access/visibility.ts';
import type { UserRow } from '../users/user-json.ts';

interface Tracked {
  admin: boolean;
  /** Devices seen through links (empty for administrators, who see all). */
  devices: Set<number>;
}

/** Devices that became visible to a user (they must be told about them). */
export type Gains = Map<number, number[]>;

export class Audience {
  private readonly users = new Map<number, Tracked>();
  private readonly byDevice = new Map<number, Set<number>>();
  private readonly adminIds = new Set<number>();

  constructor(private readonly visibility: Visibility) {}

  /** Connected administrators: the audience of every device. */
  get admins(): ReadonlySet<number> {
    return this.adminIds;
  }

  /** Connected non-administrators who see the device (administrators not included). */
  viewers(deviceId: number): ReadonlySet<number> | undefined {
    return this.byDevice.get(deviceId);
  }

  isTracked(userId: number): boolean {
    return this.users.has(userId);
  }

  /** True when some tracked user is not an administrator (only they need per-device entries). */
  hasLinkedUsers(): boolean {
    return this.users.size > this.adminIds.size;
  }

  /** `'all'` for administrators, else the ids of the devices the user sees. */
  devicesOf(userId: number): ReadonlySet<number> | 'all' | undefined {
    const entry = this.users.get(userId);
    if (!entry) return undefined;
    return entry.admin ? 'all' : entry.devices;
  }

  /**
   * Starts following a user (first socket). No-op when already followed. The caller checks
   * afterwards that the user still has a socket (it may have closed while the query ran).
   */
  async track(user: UserRow): Promise<void> {
    if (this.users.has(user.id)) return;
    const admin = user.administrator === 1;
    const devices = admin ? new Set<number>() : await this.visibility.deviceIds(user);
    if (this.users.has(user.id)) return;
    this.apply(user.id, { admin, devices });
  }

  /** Stops following a user (last socket closed, account removed). */
  untrack(userId: number): void {
    const entry = this.users.get(userId);
    if (!entry) return;
    this.users.delete(userId);
    this.adminIds.delete(userId);
    for (const deviceId of entry.devices) this.unlink(userId, deviceId);
  }

  /** Recomputes one user from a fresh row (admin flag or links changed); returns the gains. */
  async recompute(user: UserRow): Promise<number[]> {
    const old = this.users.get(user.id);
    if (!old) return [];
    const admin = user.administrator === 1;
    const devices = admin ? new Set<number>() : await this.visibility.deviceIds(user);
    if (this.users.get(user.id) !== old) return []; // untracked (or re-tracked) meanwhile
    this.untrack(user.id);
    this.apply(user.id, { admin, devices });
    if (admin) return [];
    return old.admin ? [] : [...devices].filter((id) => !old.devices.has(id));
  }

  /** Recomputes every tracked non-administrator (a permission link or a group changed). */
  async recomputeAll(loadUser: (id: number) => Promise<UserRow | undefined>): Promise<Gains> {
    const gains: Gains = new Map();
    for (const [userId, entry] of [...this.users]) {
      if (entry.admin) continue;
      const user = await loadUser(userId);
      if (!user) continue;
      const gained = await this.recompute(user);
      if (gained.length > 0) gains.set(userId, gained);
    }
    return gains;
  }

  /** Re-reads who sees one device (created, moved to another group); returns the gains. */
  async recomputeDevice(deviceId: number): Promise<Gains> {
    const gains: Gains = new Map();
    if (!this.hasLinkedUsers()) return gains;
    const viewers = await this.visibility.usersOfDevice(deviceId);
    for (const [userId, entry] of this.users) {
      if (entry.admin) continue;
      const sees = viewers.has(userId);
      if (sees && !entry.devices.has(deviceId)) {
        entry.devices.add(deviceId);
        this.link(userId, deviceId);
        gains.set(userId, [deviceId]);
      } else if (!sees && entry.devices.has(deviceId)) {
        entry.devices.delete(deviceId);
        this.unlink(userId, deviceId);
      }
    }
    return gains;
  }

  /** A device was deleted: nobody hears about it any more. */
  removeDevice(deviceId: number): void {
    const viewers = this.byDevice.get(deviceId);
    if (!viewers) return;
    for (const userId of viewers) this.users.get(userId)?.devices.delete(deviceId);
    this.byDevice.delete(deviceId);
  }

  private apply(userId: number, entry: Tracked): void {
    this.users.set(userId, entry);
    if (entry.admin) this.adminIds.add(userId);
    else for (const deviceId of entry.devices) this.link(userId, deviceId);
  }

  private link(userId: number, deviceId: number): void {
    let set = this.byDevice.get(deviceId);
    if (!set) this.byDevice.set(deviceId, (set = new Set()));
    set.add(userId);
  }

  private unlink(userId: number, deviceId: number): void {
    const set = this.byDevice.get(deviceId);
    if (!set) return;
    set.delete(userId);
    if (set.size === 0) this.byDevice.delete(deviceId);
  }
}
