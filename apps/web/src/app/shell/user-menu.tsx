// The user menu (spec §2 "Menus"): the entries packages/domain/src/menus.ts allows whose
// screens exist, sign-out always, and an about line with the texts' version of the active
// language and the server's version. Shared users get sign-out only.
import { ActionIcon, Menu, Text } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useNavigate } from 'react-router';
import { LANGUAGE_VERSIONS } from '@rastro/domain/language';
import { isSharedUser } from '@rastro/domain/permissions';
import type { MenuContext, UserMenuId } from '@rastro/domain/menus';
import { useSession } from '../session-store.ts';
import { signOut } from '../../features/auth/session.ts';
import { currentLanguage } from '../../i18n/i18n.ts';
import { UserIcon } from '../../features/header/icons.tsx';
import { userMenuIcon } from './menu-icons.tsx';
import { USER_MENU_DIALOGS, USER_MENU_ROUTES, visibleUserEntries } from './menu-availability.ts';
import { useShellDialog } from './shell-dialogs.ts';

export function UserMenu({ context }: { context: MenuContext | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const serverVersion = useSession((s) => s.serverInfo?.server.version ?? '');
  if (!user || !context) return null;
  const entries = visibleUserEntries(context);
  const shared = isSharedUser(user);

  const choose = (id: UserMenuId) => {
    if (id === 'logout') return void signOut();
    const dialog = USER_MENU_DIALOGS[id];
    if (dialog) return useShellDialog.getState().open(dialog);
    const to = USER_MENU_ROUTES[id];
    if (to) navigate(to);
  };

  return (
    <Menu position="bottom-end" width={260} shadow="md" withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray.0"
          size={38}
          radius="xl"
          className="hdr-icon-button"
          aria-label={shared ? t('header.userMenu') : t('header.userMenuOf', { name: user.name })}
          data-testid="user-menu-button"
        >
          <UserIcon size={22} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown data-testid="user-menu">
        <Menu.Label className="user-menu-name">{shared ? t('menu.sharedAccess') : user.name}</Menu.Label>
        {entries.map((entry) => (
          <Menu.Item key={entry.id} leftSection={userMenuIcon(entry.id)} data-menu={entry.id} onClick={() => choose(entry.id)}>
            {t(`menu.user.${entry.id}`)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Text component="div" size="xs" c="gray.7" px="sm" py={6} data-testid="about-line">
          {t('menu.about', { version: LANGUAGE_VERSIONS[currentLanguage()], server: serverVersion || '—' })}
        </Text>
      </Menu.Dropdown>
    </Menu>
  );
}
