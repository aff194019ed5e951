// The device editor: every Device field of spec §3 in tabs, validations of spec §5, save with
// POST/PUT /api/devices, then the odometer through PUT /api/devices/:id/accumulators (metres).
import { useEffect, useState } from 'react';
import {
  Alert, Button, ColorSwatch, Group, Loader, Modal, Select, SimpleGrid, Slider, Stack, Switch, Tabs, Text, TextInput, Textarea,
  UnstyledButton,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation.ts';
import type { Device } from '@rastro/domain/entities';
import { DEFAULT_HSB, formatHsb, hsbToHex, normaliseHue, parseHsb, type Hsb } from '@rastro/domain/device-color';
import './device-editor.css';
import { api, HttpError } from '../../api/http.ts';
import { useSession } from '../../app/session-store.ts';
import { applyDevices, useLive } from '../../live/live-store.ts';
import {
  COLOR_PALETTE, DEVICE_STATES, deviceOf, FIELDS, formOf, ICON_TYPES, odometerMetres, validate, type DeviceFormValues, type FormErrors, type Tab,
} from './device-form.ts';
import { addDeviceState } from './limits.ts';
import { groupsQuery } from '../devices/index.ts';
import { closeDeviceEditor, useDeviceEditor } from './open-editor.ts';

/** Mantine's default error red is too light for small text on white (WCAG AA). */
const ERROR_PROPS = { style: { color: '#b42318' } };

const TABS: Tab[] = ['identity', 'vehicle', 'chip', 'state', 'installation'];

/** One colour (tarkan.color or tarkan.color_extra): off = the default look; on = a preset
 *  palette and hue / saturation / brightness sliders, previewed as the map tints the icon. */
function ColorField({ id, label, value, onChange }: { id: string; label: string; value: string; onChange(v: string): void }) {
  const { t } = useTranslation();
  const hsb = parseHsb(value);
  const custom = hsb !== null;
  const current = hsb ?? DEFAULT_HSB;
  const set = (patch: Partial<Hsb>) => onChange(formatHsb({ ...current, ...patch }));
  const slider = (key: 'h' | 's' | 'b', max: number, unit: string) => {
    const shown = key === 'h' ? normaliseHue(current.h) : Math.round(current[key] * 100);
    const name = t(`deviceEditor.colors.${key === 'h' ? 'hue' : key === 's' ? 'saturation' : 'brightness'}`);
    return (
      <div className="de-slider">
        <Text size="xs" fw={600} component="span" id={`${id}-${key}`}>{name}</Text>
        <Slider min={0} max={max} step={1} value={shown} label={(v) => `${v}${unit}`} thumbLabel={name} aria-labelledby={`${id}-${key}`}
          onChange={(v) => set(key === 'h' ? { h: v } : key === 's' ? { s: v / 100 } : { b: v / 100 })} />
        <Text size="xs" component="span" className="de-slider-value" aria-hidden="true">{`${shown}${unit}`}</Text>
      </div>
    );
  };
  return (
    <fieldset className="de-color" data-testid={`color-${id}`}>
      <legend className="de-color-legend">{label}</legend>
      <Group gap="sm" wrap="nowrap">
        <ColorSwatch color={custom ? hsbToHex(current) : '#ffffff'} size={30} aria-hidden="true">
          {!custom && <span style={{ color: '#555', fontSize: 12 }}>∅</span>}
        </ColorSwatch>
        <Switch label={t('deviceEditor.colors.customize')} checked={custom}
          onChange={(e) => onChange(e.currentTarget.checked ? formatHsb(DEFAULT_HSB) : '')} />
      </Group>
      {custom && (
        <>
          <div role="radiogroup" aria-label={t('deviceEditor.colors.presets', { name: label })} className="de-palette">
            {COLOR_PALETTE.map((c, i) => {
              const p = parseHsb(c.value)!;
              return (
                <UnstyledButton key={c.value} role="radio" aria-checked={value === c.value} onClick={() => onChange(c.value)}
                  aria-label={t('deviceEditor.colors.preset', { n: i + 1, h: normaliseHue(p.h), s: Math.round(p.s * 100), b: Math.round(p.b * 100) })}
                  title={c.value} className="de-swatch">
                  <ColorSwatch color={c.css} size={24} style={{ outline: value === c.value ? '2px solid #1c5fb8' : undefined, outlineOffset: 2 }} />
                </UnstyledButton>
              );
            })}
          </div>
          {slider('h', 360, '°')}
          {slider('s', 300, ' %')}
          {slider('b', 200, ' %')}
        </>
      )}
    </fieldset>
  );
}

function EditorForm({ device, totalDistance, hasPosition, onDone }: {
  device: Device | null;
  totalDistance: number | undefined;
  /** The odometer can only be set on a device that has reported (the server copies its latest position). */
  hasPosition: boolean;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const info = useSession((s) => s.serverInfo);
  const deviceCount = useLive((s) => Object.keys(s.devices).length);
  const isAdmin = user?.administrator === true;
  const [values, setValues] = useState<DeviceFormValues>(() => formOf(device, totalDistance));
  const [errors, setErrors] = useState<FormErrors>({});
  const [tab, setTab] = useState<string | null>('identity');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const groups = useQuery(groupsQuery);
  const onSaved = useDeviceEditor((s) => s.onSaved);
  const limits = addDeviceState(user, info, deviceCount);
  const blocked = !device && !limits.allowed;

  const setField = (id: string, v: string) => setValues((s) => ({ ...s, fields: { ...s.fields, [id]: v } }));

  async function save(e: React.FormEvent) {
    e.preventDefault();
    const found = validate(values);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) {
      setTab(found.odometerKm && !found.name && !found.uniqueId ? 'vehicle' : 'identity');
      setFailure(t('deviceEditor.errors.checkForm'));
      return;
    }
    setBusy(true);
    try {
      const body = deviceOf(device, values, isAdmin);
      const saved = device ? await api.put<Device>(`/devices/${device.id}`, body) : await api.post<Device>('/devices', body);
      applyDevices([saved]);
      const metres = odometerMetres(values.odometerKm);
      if (hasPosition && metres !== null && metres !== (typeof totalDistance === 'number' ? Math.round(totalDistance) : null)) {
        await api.put(`/devices/${saved.id}/accumulators`, { deviceId: saved.id, totalDistance: metres });
      }
      onSaved?.(saved.id);
      onDone();
    } catch (err) {
      const code = err instanceof HttpError ? err.code : 'UNKNOWN_ERROR';
      setFailure(t([`deviceEditor.errors.${code}`, `errors.${code}`, 'deviceEditor.errors.saveFailed']));
    } finally {
      setBusy(false);
    }
  }

  const field = (id: string) => {
    const def = FIELDS.find((f) => f.id === id)!;
    const label = t(`deviceEditor.fields.${id}`);
    const common = {
      key: id, label, value: values.fields[id] ?? '',
      onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setField(id, e.currentTarget.value),
    };
    if (def.kind === 'textarea') return <Textarea {...common} autosize minRows={2} />;
    const required = id === 'name' || id === 'uniqueId';
    const error = id === 'name' && errors.name ? t(errors.name) : id === 'uniqueId' && errors.uniqueId ? t(errors.uniqueId) : undefined;
    return <TextInput {...common} type={def.kind === 'number' ? 'text' : def.kind ?? 'text'} inputMode={def.kind === 'number' ? 'decimal' : undefined}
      required={required} withAsterisk={required} error={error} errorProps={ERROR_PROPS} />;
  };
  const fieldsOf = (tabId: Tab) => FIELDS.filter((f) => f.tab === tabId).map((f) => field(f.id));

  return (
    <form onSubmit={save} noValidate>
      {blocked && limits.reason && <Alert color="yellow" role="alert" mb="sm">{t(limits.reason)}</Alert>}
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="sm">
          {TABS.map((id) => <Tabs.Tab key={id} value={id}>{t(`deviceEditor.tabs.${id}`)}</Tabs.Tab>)}
        </Tabs.List>
        <Tabs.Panel value="identity">
          <Stack gap="sm">
            {field('name')}
            {field('uniqueId')}
            <Select label={t('deviceEditor.fields.group')} value={values.groupId} comboboxProps={{ zIndex: 500 }}
              onChange={(v) => setValues((s) => ({ ...s, groupId: v ?? '0' }))}
              data={[{ value: '0', label: t('deviceEditor.noGroup') }, ...(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))]} />
            {field('contact')}
            {isAdmin && (
              <Switch label={t('deviceEditor.fields.disabled')} checked={values.disabled}
                onChange={(e) => { const c = e.currentTarget.checked; setValues((s) => ({ ...s, disabled: c })); }} />
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="vehicle">
          <Stack gap="sm">
            <Select label={t('deviceEditor.fields.category')} value={values.category} comboboxProps={{ zIndex: 500 }} searchable
              onChange={(v) => setValues((s) => ({ ...s, category: v ?? 'default' }))}
              data={ICON_TYPES.map((c) => ({ value: c, label: t(`deviceEditor.icons.${c}`) }))} />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <ColorField id="color" label={t('deviceEditor.fields.color')} value={values.color} onChange={(v) => setValues((s) => ({ ...s, color: v }))} />
              <ColorField id="color-extra" label={t('deviceEditor.fields.colorExtra')} value={values.colorExtra}
                onChange={(v) => setValues((s) => ({ ...s, colorExtra: v }))} />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">{fieldsOf('vehicle').slice(0, -1)}</SimpleGrid>
            <TextInput label={t('deviceEditor.fields.odometer')} inputMode="decimal" value={values.odometerKm} disabled={!hasPosition}
              error={errors.odometerKm ? t(errors.odometerKm) : undefined} errorProps={ERROR_PROPS}
              onChange={(e) => { const v = e.currentTarget.value; setValues((s) => ({ ...s, odometerKm: v })); }}
              description={hasPosition ? t('deviceEditor.odometerHint') : t('deviceEditor.odometerNeedsPosition')} />
            {field('observations')}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="chip">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">{fieldsOf('chip')}</SimpleGrid>
        </Tabs.Panel>
        <Tabs.Panel value="state">
          <Select label={t('deviceEditor.fields.state')} value={values.state || null} clearable comboboxProps={{ zIndex: 500 }}
            placeholder={t('deviceEditor.noState')}
            onChange={(v) => setValues((s) => ({ ...s, state: v ?? '' }))}
            data={DEVICE_STATES.map((s) => ({ value: s, label: t(`deviceEditor.states.${s}`) }))} />
        </Tabs.Panel>
        <Tabs.Panel value="installation">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">{fieldsOf('installation').slice(0, -1)}</SimpleGrid>
          {field('installObservation')}
        </Tabs.Panel>
      </Tabs>
      {failure && <Alert color="red" role="alert" mt="sm" data-testid="editor-error">{failure}</Alert>}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onDone} disabled={busy}>{t('deviceEditor.cancel')}</Button>
        <Button type="submit" loading={busy} disabled={blocked}>{t('deviceEditor.save')}</Button>
      </Group>
    </form>
  );
}

/** Loads the device (and its odometer) and shows the form. */
export function DeviceEditorDialog() {
  const { t } = useTranslation();
  const { opened, deviceId } = useDeviceEditor();
  const mobile = useMediaQuery('(max-width: 768px)');
  const live = useLive((s) => (deviceId !== null ? s.devices[deviceId] : undefined));
  const position = useLive((s) => (deviceId !== null ? s.positions[deviceId] : undefined));
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (opened) setGeneration((g) => g + 1);
  }, [opened, deviceId]);
  const fetched = useQuery({
    queryKey: ['device', deviceId, generation],
    queryFn: async () => (await api.get<Device[]>('/devices', { id: deviceId! }))[0] ?? null,
    enabled: opened && deviceId !== null,
  });
  const device = deviceId === null ? null : fetched.data ?? null;
  const total = position?.attributes?.totalDistance;

  return (
    <Modal closeButtonProps={{ 'aria-label': t('deviceEditor.close') }} opened={opened} onClose={closeDeviceEditor} size="xl" fullScreen={mobile} zIndex={300}
      title={deviceId === null ? t('deviceEditor.titleNew') : t('deviceEditor.titleEdit', { name: live?.name ?? '' })}>
      {deviceId !== null && fetched.isLoading && <Group role="status"><Loader size="sm" /><Text size="sm">{t('deviceEditor.loading')}</Text></Group>}
      {deviceId !== null && fetched.isError && <Alert color="red" role="alert">{t('deviceEditor.errors.load')}</Alert>}
      {deviceId !== null && fetched.isSuccess && !device && <Alert color="yellow" role="alert">{t('deviceEditor.errors.notFound')}</Alert>}
      {(deviceId === null || device) && opened && (
        <EditorForm key={`${deviceId}-${generation}`} device={device} totalDistance={typeof total === 'number' ? total : undefined}
          hasPosition={position !== undefined} onDone={closeDeviceEditor} />
      )}
    </Modal>
  );
}
