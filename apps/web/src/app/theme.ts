// Rastro's Mantine theme: a deep blue primary with enough contrast for white text (WCAG AA).
import { createTheme, type MantineColorsTuple } from '@mantine/core';

const rastro: MantineColorsTuple = [
  '#e7f1fb', '#cfe1f5', '#9fc2eb', '#6ca2e1', '#4386d8', '#2a74d2', '#1a69cf', '#0b5cad', '#004f9c', '#00448a',
];

export const theme = createTheme({
  primaryColor: 'rastro',
  primaryShade: 7,
  colors: { rastro },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
});
