// Options: every switchable feature of spec §6 kept in the server's attributes
// (@rastro/domain/server-settings SERVER_OPTIONS). Those only the Plus licence brings are shown
// switched off and disabled, with a note, on a basic licence.
import { Stack, Switch, Text } from '@mantine/core';
import { SERVER_OPTIONS, type ServerSettingsForm } from '@rastro/domain/server-settings';
import type { EditorForm } from '../../ui/collection/editor-dialog.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';

export function OptionsTab({ form, plus }: { form: EditorForm<ServerSettingsForm>; plus: boolean }) {
  const { t } = useTranslation();
  const options = form.values.options;
  return (
    <Stack gap="md">
      <Text size="sm" c="gray.8">{t('server.options.intro')}</Text>
      {SERVER_OPTIONS.map((option) => {
        const locked = option.plusOnly && !plus;
        const hint = t(`server.options.${option.id}.hint`);
        return (
          <Switch key={option.id} label={t(`server.options.${option.id}.label`)} disabled={locked}
            description={locked ? `${hint} ${t('server.options.plusOnly')}` : hint}
            checked={options[option.id]} data-testid={`server-option-${option.id}`}
            onChange={(e) => form.set('options', { ...options, [option.id]: e.currentTarget.checked })} />
        );
      })}
    </Stack>
  );
}
