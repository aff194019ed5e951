// The user editor (spec §2 "user editor with tabs", §5 user form; tarkan-reference §3.13.3): a
// new user (userId null) or an existing one, in the six tabs of the spec, on the list-and-editor
// kit's EditorDialog validated by the domain's userFormSchema. Superior administrators open
// read-only with save refused; on one's own account the privileges are read-only (unless
// administrator), the language applies at once (and is put back on cancel), "test
// notification" is offered, and saving updates the signed-in user.
import { useRef, useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { User } from '@rastro/domain/entities';
import { advancedFlagsInEffect } from '@rastro/domain/resellers';
import { formToUser, userFormSchema, userToForm, type UserFormValues } from '@rastro/domain/schemas/user-form';
import { useSession, type ServerInfo } from '../../app/session-store.ts';
import { applyAccountLanguage, currentLanguage, setLanguage } from '../../i18n/i18n.ts';
import { useTexts } from '../../i18n/texts.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { EditorDialog } from '../../ui/collection/editor-dialog.tsx';
import type { FormErrors } from '../../ui/collection/form-issues.ts';
import { saveErrorText } from '../../ui/collection/save-error.ts';
import { AccountTab } from './account-tab.tsx';
import { AddressTab } from './address-tab.tsx';
import { BillingTab } from './billing-tab.tsx';
import { CommunicationTab } from './communication-tab.tsx';
import { editorAccess, type EditorAccess } from './editor-rules.ts';
import { tabOf, type EditorTab } from './form-tabs.ts';
import { PermissionsTab } from './permissions-tab.tsx';
import { PreferencesTab } from './preferences-tab.tsx';
import { issueMessage } from './issue-messages.ts';
import { saveUser, sendTestNotification, userQuery } from './user-api.ts';
import './user-editor.css';

export interface UserEditorDialogProps {
  /** The user to edit; null = a new user. */
  userId: number | null;
  /** `saved` is true when the user was stored. */
  onClose(saved?: boolean): void;
}

function TestNotificationButton() {
  const { t } = useTranslation();
  const [state, setState] = useState<{ busy: boolean; text: string | null; failed: boolean }>({ busy: false, text: null, failed: false });
  const send = async () => {
    setState({ busy: true, text: null, failed: false });
    try {
      await sendTestNotification();
      setState({ busy: false, text: t('userEditor.testSent'), failed: false });
    } catch (err) {
      setState({ busy: false, text: saveErrorText(t, err), failed: true });
    }
  };
  return (
    <Group gap="xs" wrap="wrap">
      <Button variant="light" onClick={() => void send()} loading={state.busy} data-testid="test-notification">{t('userEditor.testNotification')}</Button>
      <Text size="sm" role="status" c={state.failed ? '#b42318' : 'teal.9'} data-testid="test-notification-result">{state.text ?? ''}</Text>
    </Group>
  );
}

function Form({ target, caller, info, onClose }: { target: User | null; caller: User; info: ServerInfo | null; onClose(saved?: boolean): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const server = { plus: info?.plus ?? false, attributes: info?.server.attributes ?? {} };
  const access: EditorAccess = editorAccess(caller, target, server);
  const [initial] = useState<UserFormValues>(() => userToForm(target, {
    expirationTime: caller.expirationTime,
    language: typeof server.attributes['tarkan.lang'] === 'string' ? server.attributes['tarkan.lang'] : '',
    advancedPerms: advancedFlagsInEffect(caller, server),
  }));
  const [tab, setTab] = useState<EditorTab>('account');
  const saved = useRef(false);
  /** The language on screen before one tried another on one's own account (null: none tried). */
  const before = useRef<ReturnType<typeof currentLanguage> | null>(null);

  const previewLanguage = (language: string) => {
    if (!access.self) return;
    before.current ??= currentLanguage();
    void applyAccountLanguage(server.attributes, { ...caller.attributes, 'tarkan.lang': language || undefined });
  };
  const close = () => {
    // A language tried on one's own account and not saved goes back to the account's.
    if (before.current && !saved.current) void setLanguage(before.current);
    onClose(saved.current);
  };
  const onSave = async (values: UserFormValues) => {
    const body = formToUser(values, target, {
      writeAdvancedPerms: access.advancedShown && access.advanced && !values.administrator,
      writeReseller: access.reseller,
      writeBilling: access.billing,
    });
    const stored = await saveUser(client, body, target?.id ?? null);
    saved.current = true;
    if (access.self) {
      useSession.getState().setUser(stored);
      void applyAccountLanguage(server.attributes, stored.attributes);
    }
  };
  const onInvalid = (errors: FormErrors) => {
    const first = Object.keys(errors).find((f) => f !== '');
    if (first) setTab(tabOf(first));
  };
  const locked = access.lock === 'superior' ? t('userEditor.errors.isSuperior') : access.lock === 'administrator' ? t('userEditor.errors.adminOnly') : null;
  const frozen = access.lock !== null;
  const title = access.self ? t('userEditor.title.account') : t('userEditor.title.edit', { name: target?.name ?? '' });

  return (
    <EditorDialog opened initial={initial} schema={userFormSchema} title={{ create: t('userEditor.title.create'), edit: title }} size="xl"
      onSave={onSave} onClose={close} issueMessage={issueMessage(t)} onInvalid={onInvalid} locked={locked}
      actions={access.self ? <TestNotificationButton /> : undefined}>
      {(form) => (
        <Tabs value={tab} onChange={(v) => v && setTab(v as EditorTab)} keepMounted={false} className="ue-tabs">
          <Tabs.List className="ue-tab-list">
            <Tabs.Tab value="account">{t('userEditor.tabs.account')}</Tabs.Tab>
            <Tabs.Tab value="preferences">{t('userEditor.tabs.preferences')}</Tabs.Tab>
            <Tabs.Tab value="address">{t('userEditor.tabs.address')}</Tabs.Tab>
            <Tabs.Tab value="permissions">{t('userEditor.tabs.permissions')}</Tabs.Tab>
            {access.billing && <Tabs.Tab value="billing">{t('userEditor.tabs.billing')}</Tabs.Tab>}
            <Tabs.Tab value="communication">{t('userEditor.tabs.communication')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="account" pt="md"><AccountTab form={form} access={access} /></Tabs.Panel>
          <Tabs.Panel value="preferences" pt="md"><PreferencesTab form={form} disabled={frozen} onLanguage={previewLanguage} /></Tabs.Panel>
          <Tabs.Panel value="address" pt="md"><AddressTab form={form} disabled={frozen} /></Tabs.Panel>
          <Tabs.Panel value="permissions" pt="md"><PermissionsTab form={form} access={access} /></Tabs.Panel>
          {access.billing && <Tabs.Panel value="billing" pt="md"><BillingTab form={form} disabled={frozen} /></Tabs.Panel>}
          <Tabs.Panel value="communication" pt="md"><CommunicationTab form={form} disabled={frozen} /></Tabs.Panel>
        </Tabs>
      )}
    </EditorDialog>
  );
}

/** A dialog frame while the user loads or when it cannot be read. */
function Waiting({ onClose, error, retry }: { onClose(): void; error: unknown; retry(): void }) {
  const { t } = useTranslation();
  const mobile = useMediaQuery('(max-width: 768px)');
  return (
    <Modal opened onClose={onClose} title={t('userEditor.title.loading')} size="xl" fullScreen={mobile} zIndex={300}
      closeButtonProps={{ 'aria-label': t('collection.close') }}>
      {error ? (
        <Alert color="red" role="alert" title={t('userEditor.loadFailed')}>
          <Text size="sm" mb="xs">{saveErrorText(t, error)}</Text>
          <Button size="xs" variant="light" onClick={retry}>{t('collection.retry')}</Button>
        </Alert>
      ) : (
        <Group gap="sm" role="status"><Loader size="sm" /><Text size="sm">{t('collection.loading')}</Text></Group>
      )}
    </Modal>
  );
}

export function UserEditorDialog({ userId, onClose }: UserEditorDialogProps) {
  useTexts('shell', 'userEditor');
  const caller = useSession((s) => s.user);
  const info = useSession((s) => s.serverInfo);
  const query = useQuery({ ...userQuery(userId ?? 0), enabled: userId !== null });
  if (!caller) return null;
  if (userId !== null && !query.data) return <Waiting onClose={() => onClose(false)} error={query.error} retry={() => void query.refetch()} />;
  return <Form key={userId ?? 'new'} target={userId === null ? null : query.data!} caller={caller} info={info} onClose={onClose} />;
}
