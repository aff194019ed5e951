import { MantineProvider } from '@mantine/core';
import { RouterProvider } from 'react-router/dom';
import { router } from './router.tsx';
import { theme } from './theme.ts';

export function App() {
  return (
    <MantineProvider theme={theme}>
      <RouterProvider router={router} />
    </MantineProvider>
  );
}
