// What other features use from the device detail: which actions a device offers (the device list's menu).
export { useDeviceAbilities } from './device-actions.tsx';
