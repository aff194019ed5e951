// Data access for the command lifecycle (`commandLog`, migration 008). Each step is one
// conditional UPDATE on the row's current status (compare-and-set), so two instances, or a
// device's reply racing the timeout job, never move one command twice.
import type { Kysely } from 'kysely';
import { expectedBlocked, nativeAction, UNCONFIRMED, type FailedReason, type QueuedReason } from '@rastro/domain/command-log';
import type { Database } from '../storage/schema.ts';
import type { CommandLogRow } from './command-json.ts';

/** What the log keeps of a command when it is sent or queued. */
export interface LoggedCommand {
  deviceId: number;
  userId: number | null;
  type: string;
  description: string | null;
  attributes: Record<string, unknown>;
}

/** How many of a device's commands the detail's list shows by default, and at most. */
export const LOG_LIST_DEFAULT = 20;
export const LOG_LIST_MAX = 100;

export class CommandLogRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private values(command: LoggedCommand, now: number) {
    const blocked = expectedBlocked(nativeAction(command));
    return {
      deviceId: command.deviceId,
      userId: command.userId,
      type: command.type,
      description: command.description,
      attributes: JSON.stringify(command.attributes),
      expectBlocked: blocked === undefined ? null : blocked ? 1 : 0,
      createdTime: now,
    };
  }

  /** A command stored in `commandsQueue` row `queueId`, waiting for `reason`. */
  insertQueued(command: LoggedCommand, queueId: number, reason: QueuedReason, now: number): Promise<CommandLogRow> {
    return this.db
      .insertInto('commandLog')
      .values({ ...this.values(command, now), status: 'queued', reason, queueId })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * A command written to the device at once (a live connection took it). `sentAt` is when it
   * was about to be written: the device may answer before this row is stored.
   */
  insertSent(command: LoggedCommand, sentAt: number): Promise<CommandLogRow> {
    return this.db
      .insertInto('commandLog')
      .values({ ...this.values(command, sentAt), status: 'sent', sentTime: sentAt })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  findById(id: number): Promise<CommandLogRow | undefined> {
    return this.db.selectFrom('commandLog').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The device's commands, newest first. */
  listForDevice(deviceId: number, limit = LOG_LIST_DEFAULT): Promise<CommandLogRow[]> {
    return this.db.selectFrom('commandLog').selectAll().where('deviceId', '=', deviceId).orderBy('id', 'desc').limit(limit).execute();
  }

  /** The queue handed the command of `queueId` to its device (`now`: before it is written). */
  async markSent(queueId: number, now: number): Promise<void> {
    await this.db
      .updateTable('commandLog')
      .set({ status: 'sent', reason: null, sentTime: now })
      .where('queueId', '=', queueId)
      .where('status', '=', 'queued')
      .execute();
  }

  /** The command of `queueId` was taken but could not be written: queued again as `newQueueId`. */
  async requeue(queueId: number, newQueueId: number): Promise<void> {
    await this.db
      .updateTable('commandLog')
      .set({ status: 'queued', reason: 'offline', sentTime: null, queueId: newQueueId })
      .where('queueId', '=', queueId)
      .where('status', '=', 'sent')
      .execute();
  }

  /** The command of `queueId` was taken but its protocol cannot carry it. */
  async failSent(queueId: number, reason: FailedReason, now: number): Promise<void> {
    await this.db
      .updateTable('commandLog')
      .set({ status: 'failed', reason, failedTime: now })
      .where('queueId', '=', queueId)
      .where('status', '=', 'sent')
      .execute();
  }

  /** Queued commands the queue skips because the vehicle is too fast: they now say so. */
  async markHeldForSpeed(queueIds: number[]): Promise<void> {
    if (queueIds.length === 0) return;
    await this.db
      .updateTable('commandLog')
      .set({ reason: 'speed' })
      .where('queueId', 'in', queueIds)
      .where('status', '=', 'queued')
      .where((eb) => eb.or([eb('reason', 'is', null), eb('reason', '!=', 'speed')]))
      .execute();
  }

  /** Ends queued commands (their queue rows are gone): cancelled by a user, or superseded. */
  failQueued(queueIds: number[], reason: FailedReason, now: number): Promise<CommandLogRow[]> {
    if (queueIds.length === 0) return Promise.resolve([]);
    return this.db
      .updateTable('commandLog')
      .set({ status: 'failed', reason, failedTime: now })
      .where('queueId', 'in', queueIds)
      .where('status', '=', 'queued')
      .returningAll()
      .execute();
  }

  /**
   * The device replied (`result`, received at `at`): the oldest command sent to it at or before
   * then and still waiting for a reply is acknowledged with that text. A position showing the
   * effect may have come first and confirmed an engine stop/resume before its reply: that
   * command still waits for its reply (while the reply could come, `windowMs` after sending),
   * which is stored on it and it stays confirmed. Undefined when none waits.
   */
  async acknowledge(deviceId: number, result: string, at: number, windowMs: number): Promise<CommandLogRow | undefined> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const oldest = await this.db
        .selectFrom('commandLog')
        .select(['id', 'status'])
        .where('deviceId', '=', deviceId)
        // `<=`: a reply within the same millisecond as the send is the device's answer to it
        // (the send is stamped before the bytes are written, see CommandDelivery).
        .where('sentTime', '<=', at)
        .where((eb) => eb.or([
          eb('status', '=', 'sent'),
          eb.and([eb('status', '=', 'confirmed'), eb('acknowledgedTime', 'is', null), eb('sentTime', '>', at - windowMs)]),
        ]))
        .orderBy('sentTime')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!oldest) return undefined;
      const row = oldest.status === 'sent'
        ? await this.db
          .updateTable('commandLog')
          .set({ status: 'acknowledged', acknowledgedTime: at, result })
          .where('id', '=', oldest.id)
          .where('status', '=', 'sent')
          .returningAll()
          .executeTakeFirst()
        : await this.db
          .updateTable('commandLog')
          .set({ acknowledgedTime: at, result })
          .where('id', '=', oldest.id)
          .where('status', '=', 'confirmed')
          .where('acknowledgedTime', 'is', null)
          .returningAll()
          .executeTakeFirst();
      if (row) return row;
      // Another instance (or the timeout job) moved it meanwhile: look again.
    }
    return undefined;
  }

  /**
   * A position received at `at` shows `blocked`: the engine stops (blocked true) or resumes
   * (false) sent at or before then and still sent, or acknowledged less than `windowMs` ago, are confirmed.
   */
  async confirm(deviceId: number, blocked: boolean, at: number, windowMs: number): Promise<number> {
    const result = await this.db
      .updateTable('commandLog')
      .set({ status: 'confirmed', reason: null, confirmedTime: at })
      .where('deviceId', '=', deviceId)
      .where('expectBlocked', '=', blocked ? 1 : 0)
      .where('sentTime', '<=', at)
      .where((eb) => eb.or([
        eb('status', '=', 'sent'),
        eb.and([eb('status', '=', 'acknowledged'), eb('reason', 'is', null), eb('acknowledgedTime', '>=', at - windowMs)]),
      ]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Sent commands without a reply for `timeoutMs`: failed. Returns how many. */
  async failTimedOut(now: number, timeoutMs: number): Promise<number> {
    const result = await this.db
      .updateTable('commandLog')
      .set({ status: 'failed', reason: 'timeout', failedTime: now })
      .where('status', '=', 'sent')
      .where('sentTime', '<=', now - timeoutMs)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Acknowledged engine stops/resumes no position confirmed within `windowMs`: nothing is awaited any more. */
  async closeUnconfirmed(now: number, windowMs: number): Promise<number> {
    const result = await this.db
      .updateTable('commandLog')
      .set({ reason: UNCONFIRMED })
      .where('status', '=', 'acknowledged')
      .where('expectBlocked', 'is not', null)
      .where('reason', 'is', null)
      .where('acknowledgedTime', '<', now - windowMs)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Devices with a command waiting for a reply or a confirmation (the lifecycle watches their positions). */
  async awaitingDevices(): Promise<number[]> {
    const rows = await this.db
      .selectFrom('commandLog')
      .select('deviceId')
      .distinct()
      .where((eb) => eb.or([
        eb('status', '=', 'sent'),
        eb.and([eb('status', '=', 'acknowledged'), eb('reason', 'is', null), eb('expectBlocked', 'is not', null)]),
      ]))
      .execute();
    return rows.map((r) => Number(r.deviceId));
  }
}
