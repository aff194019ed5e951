// What other screens use from the device editor (the device list's "add device").
export { openDeviceEditor, closeDeviceEditor } from './open-editor.ts';
export { addDeviceState, type AddDeviceState } from './limits.ts';
