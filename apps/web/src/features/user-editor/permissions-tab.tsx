// Tab "permissions": account state and restriction flags, limits, expiration, a login token for
// oneself, the reseller block and the advanced permission editor. What the signed-in user may
// change comes from editor-rules.ts; the rest is shown disabled.
import { useState } from 'react';
import { Alert, Button, Group, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useSession } from '../../app/session-store.ts';
import { fromLocalInput, toLocalInput, zoneOf } from '../history/index.ts';
import { ERROR_PROPS } from '../../ui/collection/editor-dialog.tsx';
import { saveErrorText } from '../../ui/collection/save-error.ts';
import { AdvancedPerms } from './advanced-perms.tsx';
import type { EditorAccess } from './editor-rules.ts';
import { LimitField, SwitchField, TextField, type Form } from './fields.tsx';
import { newToken } from './user-api.ts';


function ExpirationField({ form, disabled }: { form: Form; disabled: boolean }) {
  const { t } = useTranslation();
  const viewer = useSession((s) => s.user);
  const server = useSession((s) => s.serverInfo?.server);
  const zone = zoneOf(viewer?.attributes, server?.attributes);
  const iso = form.values.expirationTime;
  const ms = iso === '' ? NaN : Date.parse(iso);
  return (
    <TextInput type="datetime-local" label={t('userEditor.fields.expirationTime')} description={t('userEditor.fields.expirationHint')}
      disabled={disabled} value={Number.isFinite(ms) ? toLocalInput(ms, zone) : ''} data-field="expirationTime"
      onChange={(e) => {
        const at = fromLocalInput(e.currentTarget.value, zone);
        form.set('expirationTime', Number.isFinite(at) ? new Date(at).toISOString() : '');
      }}
      error={form.error('expirationTime')} errorProps={ERROR_PROPS} />
  );
}

function TokenField() {
  const { t } = useTranslation();
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const generate = async () => {
    setBusy(true);
    setFailure(null);
    try {
      setToken(await newToken());
    } catch (err) {
      setFailure(saveErrorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={4}>
      <Group align="flex-end" gap="sm" wrap="nowrap">
        <TextInput label={t('userEditor.fields.token')} description={t('userEditor.fields.tokenHint')} readOnly value={token} className="ue-grow"
          onFocus={(e) => e.currentTarget.select()} data-testid="user-token" />
        <Button variant="light" onClick={() => void generate()} loading={busy}>{t('userEditor.fields.generateToken')}</Button>
      </Group>
      {failure && <Alert color="red" role="alert">{failure}</Alert>}
    </Stack>
  );
}

export function PermissionsTab({ form, access }: { form: Form; access: EditorAccess }) {
  const { t } = useTranslation();
  const v = form.values;
  const advanced = access.advancedShown && !v.administrator;
  return (
    <Stack gap="md">
      <Stack gap="xs">
        <SwitchField form={form} field="disabled" label={t('userEditor.fields.disabled')} disabled={!access.restrictions} />
        <SwitchField form={form} field="administrator" label={t('userEditor.fields.administrator')} disabled={!access.administrator} />
        {/* With advanced permissions the flags decide, and these three are written off (tarkan-reference §3.13.3). */}
        {!advanced && !v.administrator && (
          <>
            <SwitchField form={form} field="readonly" label={t('userEditor.fields.readonly')} disabled={!access.restrictions} />
            {!v.readonly && (
              <>
                <SwitchField form={form} field="deviceReadonly" label={t('userEditor.fields.deviceReadonly')} disabled={!access.restrictions} />
                <SwitchField form={form} field="limitCommands" label={t('userEditor.fields.limitCommands')} disabled={!access.restrictions} />
              </>
            )}
          </>
        )}
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <LimitField form={form} field="deviceLimit" label={t('userEditor.fields.deviceLimit')} disabled={!access.limits} />
        <LimitField form={form} field="userLimit" label={t('userEditor.fields.userLimit')} disabled={!access.limits} />
        <ExpirationField form={form} disabled={!access.restrictions} />
      </SimpleGrid>
      {access.token && <TokenField />}
      {access.resellerShown && (
        <fieldset className="ue-box">
          <legend className="ue-legend">{t('userEditor.reseller.title')}</legend>
          <Stack gap="xs">
            <SwitchField form={form} field="reseller" label={t('userEditor.reseller.reseller')} disabled={!access.reseller} />
            {v.reseller && (
              <>
                <SwitchField form={form} field="subReseller" label={t('userEditor.reseller.subReseller')} disabled={!access.reseller} />
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <TextField form={form} field="resellerDomain" label={t('userEditor.reseller.domain')} placeholder="track.example.com"
                    disabled={!access.reseller} />
                  <LimitField form={form} field="resellerLimit" label={t('userEditor.reseller.limit')} disabled={!access.reseller} allowNone />
                </SimpleGrid>
              </>
            )}
          </Stack>
        </fieldset>
      )}
      {advanced && <AdvancedPerms form={form} disabled={!access.advanced} showSelfEdit={!access.self} />}
      {!advanced && access.advancedShown && v.administrator && <Title order={6} c="gray.7">{t('userEditor.advanced.adminHasAll')}</Title>}
    </Stack>
  );
}
