// Preferences: the defaults people get until they choose their own (language, map, map centre
// and zoom, coordinate format) and the Google key the Google maps need.
import { NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { LANGUAGES } from '@rastro/domain/language';
import { COORDINATE_FORMATS, MAP_TYPES } from '@rastro/domain/schemas/user-form';
import type { ServerSettingsForm } from '@rastro/domain/server-settings';
import { ERROR_PROPS, type EditorForm } from '../../ui/collection/editor-dialog.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';

const LANGUAGE_KEYS: Record<(typeof LANGUAGES)[number], string> = { 'pt-BR': 'languages.ptBR', es: 'languages.es', en: 'languages.en' };

/** Options of a select over known values, keeping a stored value we do not know as "other". */
function choices(known: readonly string[], current: string, label: (value: string) => string, none: string, other: (value: string) => string) {
  const list = [{ value: '', label: none }, ...known.map((value) => ({ value, label: label(value) }))];
  if (current !== '' && !known.includes(current)) list.push({ value: current, label: other(current) });
  return list;
}

export function PreferencesTab({ form }: { form: EditorForm<ServerSettingsForm> }) {
  const { t } = useTranslation();
  const v = form.values;
  const other = (value: string) => t('server.preferences.other', { value });
  const number = (field: 'latitude' | 'longitude' | 'zoom', label: string, props: { min: number; max: number; decimalScale?: number }) => (
    <NumberInput label={label} value={v[field]} onChange={(value) => form.set(field, value)} error={form.error(field)}
      errorProps={ERROR_PROPS} allowDecimal={props.decimalScale !== 0} {...props} data-testid={`server-${field}`} />
  );
  return (
    <Stack gap="sm">
      <Text size="sm" c="gray.8">{t('server.preferences.defaultsHint')}</Text>
      <Select label={t('server.preferences.language')} value={v.language} allowDeselect={false} comboboxProps={{ zIndex: 400 }}
        data={[{ value: '', label: t('server.preferences.languageBrowser') }, ...LANGUAGES.map((l) => ({ value: l, label: t(LANGUAGE_KEYS[l]) }))]}
        onChange={(value) => form.set('language', (value ?? '') as ServerSettingsForm['language'])} data-testid="server-language" />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select label={t('server.preferences.map')} value={v.map} allowDeselect={false} comboboxProps={{ zIndex: 400 }}
          data={choices(MAP_TYPES, v.map, (m) => t(`server.preferences.maps.${m}`), t('server.preferences.mapDefault'), other)}
          onChange={(value) => form.set('map', value ?? '')} data-testid="server-map" />
        <Select label={t('server.preferences.coordinateFormat')} value={v.coordinateFormat} allowDeselect={false} comboboxProps={{ zIndex: 400 }}
          data={choices(COORDINATE_FORMATS, v.coordinateFormat, (f) => t(`server.preferences.coordinates.${f}`), t('server.preferences.coordinateDefault'), other)}
          onChange={(value) => form.set('coordinateFormat', value ?? '')} data-testid="server-coordinates" />
      </SimpleGrid>
      <TextInput label={t('server.preferences.googleKey')} description={t('server.preferences.googleKeyHint')} autoComplete="off"
        spellCheck={false} {...form.text('googleApiKey')} data-testid="server-google-key" />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        {number('latitude', t('server.preferences.latitude'), { min: -90, max: 90, decimalScale: 6 })}
        {number('longitude', t('server.preferences.longitude'), { min: -180, max: 180, decimalScale: 6 })}
        {number('zoom', t('server.preferences.zoom'), { min: 0, max: 24, decimalScale: 0 })}
      </SimpleGrid>
    </Stack>
  );
}
