// Mounts the device editor once, outside any screen, with the shell's theme and query client,
// so any screen can open it through openDeviceEditor().
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import { queryClient } from '../../app/shell/query-client.ts';
import { theme } from '../../app/theme.ts';
import { DeviceEditorDialog } from './device-editor-dialog.tsx';

export function mountEditorHost(): void {
  const element = document.createElement('div');
  element.id = 'device-editor-host';
  document.body.appendChild(element);
  createRoot(element).render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <DeviceEditorDialog />
      </QueryClientProvider>
    </MantineProvider>,
  );
}
