// Server settings (user menu "server", administrators; shell dialog kind 'server';
// tarkan-reference §3.13.8): preferences, permissions, options, QR driver rules and the other
// attributes, in tabs, checked with the domain's settings schema (the server checks the same
// rules on PUT /api/server). Saving re-reads the licence and device-limit headers into the
// session; the footer also restarts the server.
import { useState } from 'react';
import { Alert, Button, Loader, Modal, Tabs } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Server } from '@rastro/domain/entities';
import {
  applyServerSettings, mayChangeServerDeviceLimit, serverSettingsForm, serverSettingsFormSchema, type ServerSettings, type ServerSettingsForm,
} from '@rastro/domain/server-settings';
import { useTexts } from '../../i18n/texts.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useSession } from '../../app/session-store.ts';
import { EditorDialog } from '../../ui/collection/editor-dialog.tsx';
import type { FormErrors } from '../../ui/collection/form-issues.ts';
import { saveErrorText } from '../../ui/collection/save-error.ts';
import { fetchServer, saveServer, SERVER_SETTINGS_KEY } from './server-api.ts';
import { PreferencesTab } from './preferences-tab.tsx';
import { PermissionsTab } from './permissions-tab.tsx';
import { OptionsTab } from './options-tab.tsx';
import { QrDriverTab } from './qr-driver-tab.tsx';
import { AttributesTab } from './attributes-tab.tsx';
import { RestartControl } from './restart-control.tsx';
import './server-settings.css';

export type SettingsTab = 'preferences' | 'permissions' | 'options' | 'qrDriver' | 'attributes';
const TABS: readonly SettingsTab[] = ['preferences', 'permissions', 'options', 'qrDriver', 'attributes'];
/** Fields whose problems the schema reports (besides the attribute rows). */
const FIELDS = ['latitude', 'longitude', 'zoom', 'googleApiKey', 'deviceLimit', 'logoutAfterMinutes', 'lockAfterMinutes'];

/** The tab holding a form field (the dialog shows the first tab with a problem). */
export function tabOf(field: string): SettingsTab {
  if (field.startsWith('attributes')) return 'attributes';
  if (field === 'deviceLimit') return 'permissions';
  if (field === 'logoutAfterMinutes' || field === 'lockAfterMinutes') return 'qrDriver';
  return 'preferences';
}

function SettingsEditor({ server, onClose }: { server: Server; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useSession((s) => s.user);
  const plus = useSession((s) => s.serverInfo?.plus ?? false);
  const [tab, setTab] = useState<SettingsTab>('preferences');
  const [initial] = useState<ServerSettingsForm>(() => serverSettingsForm(server));
  const mayChangeLimit = user ? mayChangeServerDeviceLimit(user) : false;

  async function save(_values: ServerSettingsForm, settings: ServerSettings) {
    const saved = await saveServer(applyServerSettings(server, settings));
    queryClient.setQueryData(SERVER_SETTINGS_KEY, saved);
  }
  const showFirstProblem = (errors: FormErrors) => {
    const first = Object.keys(errors).find((field) => field !== '');
    if (first) setTab(tabOf(first));
  };

  return (
    <EditorDialog opened initial={initial} schema={serverSettingsFormSchema} title={{ create: t('server.title'), edit: t('server.title') }}
      onSave={save} onClose={onClose} onInvalid={showFirstProblem} size="xl" actions={<RestartControl />}>
      {(form) => {
        const fields = [...FIELDS, ...form.values.attributes.map((_, i) => `attributes.${i}`)];
        const problems = new Set(fields.filter((field) => form.error(field) !== undefined).map(tabOf));
        const label = (name: SettingsTab) => t(`server.tabs.${name}`);
        return (
          <Tabs value={tab} onChange={(value) => value && setTab(value as SettingsTab)} keepMounted={false} className="ss-tabs">
            <Tabs.List aria-label={t('server.tabs.label')} className="ss-tab-list">
              {TABS.map((name) => (
                <Tabs.Tab key={name} value={name} data-testid={`server-tab-${name}`} data-problem={problems.has(name) || undefined}
                  aria-label={problems.has(name) ? t('server.tabs.hasProblems', { tab: label(name) }) : undefined}>
                  {label(name)}
                  {problems.has(name) && <span className="ss-tab-problem" aria-hidden="true"> !</span>}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            <Tabs.Panel value="preferences" pt="md"><PreferencesTab form={form} /></Tabs.Panel>
            <Tabs.Panel value="permissions" pt="md"><PermissionsTab form={form} mayChangeLimit={mayChangeLimit} /></Tabs.Panel>
            <Tabs.Panel value="options" pt="md"><OptionsTab form={form} plus={plus} /></Tabs.Panel>
            <Tabs.Panel value="qrDriver" pt="md"><QrDriverTab form={form} plus={plus} /></Tabs.Panel>
            <Tabs.Panel value="attributes" pt="md"><AttributesTab form={form} /></Tabs.Panel>
          </Tabs>
        );
      }}
    </EditorDialog>
  );
}

export default function ServerSettingsDialog({ onClose }: { onClose(): void }) {
  useTexts('server');
  const { t } = useTranslation();
  // A fresh read: another administrator may have changed the settings since sign-in.
  const query = useQuery({ queryKey: SERVER_SETTINGS_KEY, queryFn: fetchServer, staleTime: 0, gcTime: 0, refetchOnWindowFocus: false });
  if (query.data) return <SettingsEditor server={query.data} onClose={onClose} />;
  return (
    <Modal opened onClose={onClose} title={t('server.title')} zIndex={300} closeButtonProps={{ 'aria-label': t('collection.close') }}>
      {query.isError ? (
        <Alert color="red" role="alert" title={t('server.loadFailed')}>
          {saveErrorText(t, query.error)}
          <Button size="xs" variant="default" ml="sm" onClick={() => void query.refetch()}>{t('server.retry')}</Button>
        </Alert>
      ) : (
        <div role="status" className="ss-loading"><Loader size="sm" aria-hidden="true" /> {t('server.loading')}</div>
      )}
    </Modal>
  );
}
