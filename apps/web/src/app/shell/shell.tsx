// The signed-in shell's layout route (all session screens render inside its <Outlet/>).
// A small working version: the shell engineer replaces it with the map, header and menus.
// Keep `export function Component`, the `share-countdown` test id for shared users and a
// logout control (e2e/tests rely on them).
import '@mantine/core/styles.css';
import { Badge, Button, Group, MantineProvider, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { useSession } from '../session-store.ts';
import { useShareCountdown } from '../session-expiry-countdown.ts';
import { theme } from '../theme.ts';
import { signOut } from '../../features/auth/session.ts';
import { useProductName } from '../../ui/light.tsx';

function ShareCountdown() {
  const { t } = useTranslation();
  const left = useShareCountdown();
  if (!left) return null;
  return (
    <Badge size="lg" variant="light" data-testid="share-countdown" aria-live="off">
      {t('session.expiresIn')} {t(`countdown.${left.unit}`, { count: left.value })}
    </Badge>
  );
}

export function Component() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const product = useProductName();
  const shared = user?.attributes?.isShared !== undefined && user?.attributes?.isShared !== null;
  return (
    <MantineProvider theme={theme}>
      <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
        <Group component="header" justify="space-between" wrap="nowrap" px="md" h={52} bg="rastro.8" c="white">
          <Text fw={700} size="lg" component="span">{product}</Text>
          <Group gap="sm" wrap="nowrap">
            {shared ? <ShareCountdown /> : <Text component="span" size="sm" truncate maw={180}>{user?.name}</Text>}
            <Button variant="white" size="xs" onClick={() => void signOut()}>
              {t('session.logout')}
            </Button>
          </Group>
        </Group>
        <main style={{ flex: 1, position: 'relative', background: '#e8edf3' }} aria-label={product}>
          <Outlet />
        </main>
      </div>
    </MantineProvider>
  );
}
