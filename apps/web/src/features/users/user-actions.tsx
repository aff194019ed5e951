// The bar under the users list, acting on the selected user: edit, delete, logs and the
// linking shortcuts, each only when the person may use it (users-rules.ts). Nothing selected:
// the buttons stay visible but disabled, with a hint saying what to do. On a phone the same
// actions sit in one menu, which tapping a row opens.
import { Button, Menu } from '@mantine/core';
import type { User } from '@rastro/domain/entities';
import { useTranslation } from '../../i18n/use-translation.ts';
import type { LinkedType } from '../../ui/collection/link-kinds.ts';
import type { UsersAbilities } from './users-rules.ts';

export type UserAction = { kind: 'add' | 'edit' | 'delete' | 'logs' } | { kind: 'link'; type: LinkedType };

interface Props {
  user: User | null;
  can: UsersAbilities;
  mobile: boolean;
  menuOpen: boolean;
  onMenuChange(open: boolean): void;
  onAction(action: UserAction): void;
}

const Chevron = () => (
  <svg width={14} height={14} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true">
    <path d="M6 9l6 6 6-6" />
  </svg>
);

export function UserActions({ user, can, mobile, menuOpen, onMenuChange, onAction }: Props) {
  const { t } = useTranslation();
  if (!can.edit && !can.remove && !can.logs && can.links.length === 0) return null;
  const who = user ? t('users.selected', { name: user.name }) : t(mobile ? 'users.tapHint' : 'users.selectHint');
  const linkItems = can.links.map((type) => (
    <Menu.Item key={type} data-link={type} onClick={() => onAction({ kind: 'link', type })}>{t(`users.linkTypes.${type}`)}</Menu.Item>
  ));

  if (mobile) {
    return (
      <div className="users-bar is-mobile">
        <span className="users-bar-who" aria-live="polite">{who}</span>
        <Menu opened={menuOpen && user !== null} onChange={onMenuChange} position="top-end" withinPortal zIndex={500} width={240} withInitialFocusPlaceholder={false}>
          <Menu.Target>
            <Button size="sm" variant="light" disabled={!user} rightSection={<Chevron />} data-testid="user-actions-menu"
              aria-label={user ? t('users.actionsFor', { name: user.name }) : undefined}>
              {t('users.actions')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {can.edit && <Menu.Item onClick={() => onAction({ kind: 'edit' })}>{t('users.edit')}</Menu.Item>}
            {can.remove && <Menu.Item color="red.8" onClick={() => onAction({ kind: 'delete' })}>{t('users.delete')}</Menu.Item>}
            {can.logs && <Menu.Item onClick={() => onAction({ kind: 'logs' })}>{t('users.logs')}</Menu.Item>}
            {linkItems.length > 0 && (
              <>
                <Menu.Divider />
                <Menu.Label c="gray.8">{t('users.links')}</Menu.Label>
                {linkItems}
              </>
            )}
          </Menu.Dropdown>
        </Menu>
      </div>
    );
  }

  return (
    <div className="users-bar" role="toolbar" aria-label={t('users.toolbar')}>
      <span className="users-bar-who" aria-live="polite">{who}</span>
      {can.edit && <Button size="compact-sm" variant="light" disabled={!user} onClick={() => onAction({ kind: 'edit' })}>{t('users.edit')}</Button>}
      {can.remove && (
        <Button size="compact-sm" variant="outline" color="#b42318" disabled={!user} onClick={() => onAction({ kind: 'delete' })}>{t('users.delete')}</Button>
      )}
      {can.logs && <Button size="compact-sm" variant="light" disabled={!user} onClick={() => onAction({ kind: 'logs' })}>{t('users.logs')}</Button>}
      {linkItems.length > 0 && (
        <Menu position="top-end" withinPortal zIndex={500} width={220} withInitialFocusPlaceholder={false}>
          <Menu.Target>
            <Button size="compact-sm" variant="light" disabled={!user} rightSection={<Chevron />}
              aria-label={user ? t('users.linksOf', { name: user.name }) : t('users.links')}>
              {t('users.links')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>{linkItems}</Menu.Dropdown>
        </Menu>
      )}
    </div>
  );
}
