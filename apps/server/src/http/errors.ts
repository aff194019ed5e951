// Errors a route may throw. Like Traccar, refusals travel as HTTP 400 (or their own status)
// with a plain-text body whose first line is the message; clients derive codes from it.
import { SERVER_ERROR_TEXTS } from '@rastro/domain/errors';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A refused operation: Traccar answers every SecurityException with 400. */
export const forbidden = (message: string = SERVER_ERROR_TEXTS.writeDenied) => new ApiError(400, message);
export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = (message = 'Object not found') => new ApiError(404, message);
export const unauthorized = (message: string = SERVER_ERROR_TEXTS.notAuthed) => new ApiError(401, message);

export const accessDenied = {
  device: () => forbidden('Device access denied - you cannot see this device'),
  group: () => forbidden('Group access denied - you cannot see this group'),
  user: () => forbidden('User access denied - you cannot manage this user'),
  admin: () => forbidden('Administrator access required - only administrators may do this'),
  manager: () => forbidden('Manager access required - only managers may do this'),
  readonly: () => forbidden(SERVER_ERROR_TEXTS.readonly),
  deviceReadonly: () => forbidden(SERVER_ERROR_TEXTS.deviceReadonly),
};
