// Opens the device editor from anywhere (the detail panel's edit action, the list's "add
// device"): the dialog mounts itself on first use, with its own providers, so callers need no host.
import { create } from 'zustand';

interface EditorState {
  opened: boolean;
  /** null: a new device. */
  deviceId: number | null;
  /** Called with the saved device's id (new or edited). */
  onSaved?: (id: number) => void;
}

export const useDeviceEditor = create<EditorState>(() => ({ opened: false, deviceId: null }));

let host: Promise<void> | null = null;

export function openDeviceEditor(deviceId?: number | null, onSaved?: (id: number) => void): void {
  useDeviceEditor.setState({ opened: true, deviceId: deviceId ?? null, onSaved });
  host ??= import('./editor-host.tsx').then((m) => m.mountEditorHost());
}

export function closeDeviceEditor(): void {
  useDeviceEditor.setState({ opened: false });
}

// End-to-end tests open the editor for a new device the way the device list's "add" action does.
if (typeof window !== 'undefined' && window.localStorage?.getItem('rastro.testHooks') === '1') {
  (window as unknown as { __rastroOpenDeviceEditor?: typeof openDeviceEditor }).__rastroOpenDeviceEditor = openDeviceEditor;
}
