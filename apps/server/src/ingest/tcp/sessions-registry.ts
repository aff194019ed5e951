// Which sessions of this instance hold which device: commands are written to the device's
// session, and a device goes offline when its last connection closes. A device usually has one
// session; a second appears when a tracker reconnects before its old connection timed out.
export interface RegisteredSession {
  /** Server time of the session's latest frame: the freshest session carries commands. */
  readonly lastFrameAt: number;
}

export class SessionsRegistry<S extends RegisteredSession> {
  private readonly byDevice = new Map<number, S[]>();

  add(deviceId: number, session: S): void {
    const list = this.byDevice.get(deviceId);
    if (!list) this.byDevice.set(deviceId, [session]);
    else if (!list.includes(session)) list.push(session);
  }

  /** Removes the session; true when it was the device's last one here. */
  remove(deviceId: number, session: S): boolean {
    const list = this.byDevice.get(deviceId);
    if (!list) return false;
    const i = list.indexOf(session);
    if (i < 0) return false;
    list.splice(i, 1);
    if (list.length > 0) return false;
    this.byDevice.delete(deviceId);
    return true;
  }

  /** The device's session that heard from it last, if this instance holds one. */
  latest(deviceId: number): S | undefined {
    const list = this.byDevice.get(deviceId);
    if (!list) return undefined;
    let best = list[0];
    for (const s of list) if (s.lastFrameAt > best!.lastFrameAt) best = s;
    return best;
  }

  /** Devices held. */
  get size(): number {
    return this.byDevice.size;
  }
}
