// What other features use from the logs: the button that opens a user's or a device's log,
// and who may see it.
export { LogsButton } from './logs-button.tsx';
export { canReadLogs } from './log-access.ts';
