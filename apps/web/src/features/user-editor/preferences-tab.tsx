// Tab "preferences": language (applied at once on one's own account), map layer and start view,
// clock, coordinate format, units, time zone (searchable, from GET /api/server/timezones) and
// clustering. An empty choice leaves the server's setting in force.
import { SimpleGrid, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LANGUAGES } from '@rastro/domain/language';
import { COORDINATE_FORMATS, DISTANCE_UNITS, MAP_TYPES, SPEED_UNITS, VOLUME_UNITS } from '@rastro/domain/schemas/user-form';
import { useTranslation } from '../../i18n/use-translation.ts';
import { SelectField, SwitchField, TextField, type Form } from './fields.tsx';
import { timeZonesQuery } from './user-api.ts';

const LANGUAGE_KEY = { 'pt-BR': 'languages.ptBR', es: 'languages.es', en: 'languages.en' } as const;

export function PreferencesTab({ form, disabled, onLanguage }: { form: Form; disabled: boolean; onLanguage?(language: string): void }) {
  const { t } = useTranslation();
  const zones = useQuery(timeZonesQuery);
  const serverDefault = { value: '', label: t('userEditor.fields.serverDefault') };
  const options = (values: readonly string[], prefix: string) => [serverDefault, ...values.map((v) => ({ value: v, label: t(`${prefix}.${v}`) }))];
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <SelectField form={form} field="language" label={t('userEditor.fields.language')} disabled={disabled} onPicked={onLanguage}
          data={[serverDefault, ...LANGUAGES.map((l) => ({ value: l, label: t(LANGUAGE_KEY[l]) }))]} />
        <SelectField form={form} field="map" label={t('userEditor.fields.map')} disabled={disabled} data={options(MAP_TYPES, 'userEditor.maps')} />
        <TextField form={form} field="latitude" label={t('userEditor.fields.latitude')} inputMode="decimal" disabled={disabled} />
        <TextField form={form} field="longitude" label={t('userEditor.fields.longitude')} inputMode="decimal" disabled={disabled} />
        <TextField form={form} field="zoom" label={t('userEditor.fields.zoom')} inputMode="numeric" disabled={disabled} />
        <SelectField form={form} field="coordinateFormat" label={t('userEditor.fields.coordinateFormat')} disabled={disabled}
          data={options(COORDINATE_FORMATS, 'userEditor.coordinates')} />
        <SelectField form={form} field="speedUnit" label={t('userEditor.fields.speedUnit')} disabled={disabled} data={options(SPEED_UNITS, 'userEditor.units')} />
        <SelectField form={form} field="distanceUnit" label={t('userEditor.fields.distanceUnit')} disabled={disabled}
          data={options(DISTANCE_UNITS, 'userEditor.units')} />
        <SelectField form={form} field="volumeUnit" label={t('userEditor.fields.volumeUnit')} disabled={disabled} data={options(VOLUME_UNITS, 'userEditor.units')} />
        <SelectField form={form} field="timezone" label={t('userEditor.fields.timezone')} disabled={disabled} searchable
          description={zones.isError ? t('userEditor.timezonesFailed') : undefined}
          data={[serverDefault, ...(zones.data ?? []).map((z) => ({ value: z, label: z.replace(/_/g, ' ') }))]} />
      </SimpleGrid>
      <SwitchField form={form} field="twelveHourFormat" label={t('userEditor.fields.twelveHourFormat')} disabled={disabled} />
      <SwitchField form={form} field="clustered" label={t('userEditor.fields.clustered')} disabled={disabled} />
    </Stack>
  );
}
