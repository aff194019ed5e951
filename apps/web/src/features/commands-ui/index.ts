// What other features use from commands: sending, anchors, locks, the confirmation dialog and
// the command lifecycle shown in the device detail.
export {
  anchorOf, createAnchor, lockCommand, removeAnchor, savedCommandsOf, sendCommand, type Geofence, type LockAction, type SendResult,
} from './commands-api.ts';
export { ConfirmDialog } from './confirm-dialog.tsx';
export { CommandLifecycle } from './command-lifecycle.tsx';
export { showEntry } from './command-log-api.ts';
export { deliveredBy, markDelivered, recordSent, usePending } from './pending-store.ts';
export { SendCommandDialog } from './send-command-dialog.tsx';
