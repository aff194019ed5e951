// The users manager (route /users, bit 16; tarkan-reference §3.13.4): every account the
// signed-in person manages (share-link visitors left out) in the kit's searchable, sortable,
// virtualised list, with each user's device count. A click or Enter selects a user; the bar
// under the list acts on it: edit (18), delete (19, refusing oneself and a superior
// administrator before asking the server), logs (administrators, plus) and the linking
// shortcuts (18 plus each area's bit) that open the related-objects dialog. On a phone the
// bar is one "actions" menu, opened by tapping the row.
import { Suspense, useMemo, useState } from 'react';
import { Alert, Button, CloseButton, Group } from '@mantine/core';
import type { User } from '@rastro/domain/entities';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useSession } from '../../app/session-store.ts';
import { useMobileLayout } from '../../app/shell/layout.ts';
import { useShellDialog } from '../../app/shell/shell-dialogs.ts';
import { CollectionList, type Column } from '../../ui/collection/collection-list.tsx';
import { useCollection } from '../../ui/collection/use-collection.ts';
import { saveErrorText } from '../../ui/collection/save-error.ts';
import { deviceCountOf, useDeviceCounts } from './device-counts.ts';
import { deleteRefusal, expiryTime, listedUsers, usersAbilities } from './users-rules.ts';
import { UserActions, type UserAction } from './user-actions.tsx';
import { UserDialogs, type UsersDialog } from './user-dialogs.tsx';
import './users.css';

interface Notice {
  color: 'red' | 'green';
  text: string;
}

export function Component() {
  const { t, i18n } = useTranslation();
  const me = useSession((s) => s.user);
  const info = useSession((s) => s.serverInfo);
  const mobile = useMobileLayout();
  const server = useMemo(() => ({ plus: info?.plus ?? false, attributes: info?.server.attributes, readonly: info?.server.readonly }), [info]);
  const can = me ? usersAbilities(me, server) : null;
  const users = useCollection<User>('users');
  const counts = useDeviceCounts(can?.list === true);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [dialog, setDialog] = useState<UsersDialog | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);

  const items = useMemo(() => listedUsers(users.items), [users.items]);
  const selected = items.find((u) => u.id === selectedId) ?? null;

  const columns = useMemo<Column<User>[]>(() => {
    const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short' });
    return [
      { key: 'id', label: t('users.columns.id'), value: (u) => u.id, wide: true },
      { key: 'name', label: t('users.columns.name'), value: (u) => u.name },
      { key: 'email', label: t('users.columns.email'), value: (u) => u.email, wide: true },
      { key: 'administrator', label: t('users.columns.administrator'), value: (u) => u.administrator },
      { key: 'disabled', label: t('users.columns.disabled'), value: (u) => u.disabled, wide: true },
      {
        key: 'expiry', label: t('users.columns.expiry'), value: (u) => expiryTime(u), wide: true,
        render: (u) => { const at = expiryTime(u); return at === null ? '' : dateFormat.format(at); },
      },
      {
        key: 'devices', label: t('users.columns.devices'), value: (u) => deviceCountOf(counts, u.id),
        render: (u) => deviceCountOf(counts, u.id) ?? '—',
      },
    ];
  }, [t, i18n.language, counts]);

  if (!me || !can) return null;
  if (!can.list) return <Alert m="sm" color="yellow" role="alert">{t('users.notAllowed')}</Alert>;

  const act = (action: UserAction) => {
    setNotice(null);
    setMenuOpen(false);
    if (action.kind === 'add') return setDialog({ kind: 'editor', userId: null });
    if (!selected) return;
    if (action.kind === 'edit') return setDialog({ kind: 'editor', userId: selected.id });
    if (action.kind === 'logs') return useShellDialog.getState().open({ kind: 'logs', scope: { kind: 'user', userId: selected.id } });
    if (action.kind === 'link') return setDialog({ kind: 'link', type: action.type, user: selected });
    const refusal = deleteRefusal(me, selected);
    if (refusal) return setNotice({ color: 'red', text: t(`users.refusals.${refusal}`) });
    setDialog({ kind: 'delete', user: selected });
  };

  async function remove(user: User) {
    try {
      await users.remove(user.id);
      setSelectedId(null);
      setNotice({ color: 'green', text: t('users.deleted', { name: user.name }) });
    } catch (err) {
      setNotice({ color: 'red', text: saveErrorText(t, err) });
    }
  }

  const open = (user: User) => {
    setSelectedId(user.id);
    setNotice(null);
    // A phone has no room for a bar of buttons: tapping a row opens its actions.
    if (mobile) setMenuOpen(true);
  };

  return (
    <div className="users-page" data-testid="users-page">
      <div className="users-list">
        <CollectionList<User>
          label={t('users.listLabel')}
          items={items}
          state={users.state}
          error={users.error}
          onRetry={users.retry}
          columns={columns}
          onOpen={open}
          selectedId={selectedId}
          initialSort={{ key: 'id', direction: 'asc' }}
          actions={can.add ? <Button size="sm" onClick={() => act({ kind: 'add' })}>{t('users.add')}</Button> : null}
        />
      </div>
      {notice && (
        <Alert className="users-notice" color={notice.color} role={notice.color === 'red' ? 'alert' : 'status'} p="xs" data-testid="users-notice">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <span>{notice.text}</span>
            <CloseButton size="sm" aria-label={t('users.dismiss')} onClick={() => setNotice(null)} />
          </Group>
        </Alert>
      )}
      <UserActions user={selected} can={can} mobile={mobile} menuOpen={menuOpen} onMenuChange={setMenuOpen} onAction={act} />
      <Suspense fallback={null}>
        <UserDialogs dialog={dialog} onClose={() => setDialog(null)} onDelete={remove} />
      </Suspense>
    </div>
  );
}
