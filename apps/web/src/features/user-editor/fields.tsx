// Small field components bound to the editor's form (ui/collection EditorForm): a text input,
// a switch, a select and a limit (unlimited switch + number), each labelled and showing its
// field's problem.
import { Group, NumberInput, Select, Switch, TextInput, type ComboboxItem } from '@mantine/core';
import type { UserFormValues } from '@rastro/domain/schemas/user-form';
import { ERROR_PROPS, type EditorForm } from '../../ui/collection/editor-dialog.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';

export type Form = EditorForm<UserFormValues>;
type Key<T> = { [K in keyof UserFormValues]: UserFormValues[K] extends T ? K : never }[keyof UserFormValues];
export type TextKey = Key<string>;
export type FlagKey = Key<boolean>;


interface Common {
  form: Form;
  label: string;
  disabled?: boolean;
  description?: string;
}

export function TextField({ form, field, label, disabled, description, type, inputMode, autoComplete, placeholder }: Common & {
  field: TextKey;
  type?: 'text' | 'email' | 'tel' | 'password';
  inputMode?: 'decimal' | 'numeric' | 'tel' | 'email';
  autoComplete?: string;
  placeholder?: string;
}) {
  return (
    <TextInput {...form.text(field)} label={label} disabled={disabled} description={description} type={type ?? 'text'} inputMode={inputMode}
      autoComplete={autoComplete ?? 'off'} placeholder={placeholder} data-field={field} />
  );
}

export function SwitchField({ form, field, label, disabled, description }: Common & { field: FlagKey }) {
  return (
    <Switch label={label} description={description} disabled={disabled} checked={form.values[field]} data-field={field}
      onChange={(e) => form.set(field, e.currentTarget.checked)} error={form.error(field)} />
  );
}

export function SelectField({ form, field, label, disabled, description, data, searchable, clearable, onPicked }: Common & {
  field: TextKey;
  data: ComboboxItem[];
  searchable?: boolean;
  /** Offer "" (nothing chosen) as a clear button. */
  clearable?: boolean;
  /** Told of each choice (the language applies at once on one's own account). */
  onPicked?(value: string): void;
}) {
  const { t } = useTranslation();
  const value = form.values[field] as string;
  // A value stored by another client that we do not offer stays selectable, so saving keeps it.
  const options = value !== '' && !data.some((d) => d.value === value) ? [...data, { value, label: value }] : data;
  return (
    <Select label={label} description={description} disabled={disabled} data={options} value={value} searchable={searchable}
      clearable={clearable} allowDeselect={false} nothingFoundMessage={t('userEditor.nothingFound')} comboboxProps={{ zIndex: 400 }}
      onChange={(v) => {
        form.set(field, (v ?? '') as UserFormValues[typeof field]);
        onPicked?.(v ?? '');
      }}
      error={form.error(field)} errorProps={ERROR_PROPS} data-field={field} />
  );
}

/** Traccar's limits: -1 is unlimited, otherwise a number (0 = none). */
export function LimitField({ form, field, label, disabled, allowNone }: Common & {
  field: 'deviceLimit' | 'userLimit' | 'resellerLimit';
  /** "" (no limit of this kind set) is a third state besides unlimited and a number. */
  allowNone?: boolean;
}) {
  const { t } = useTranslation();
  const value = form.values[field];
  const unlimited = value.trim() === '-1';
  return (
    <Group align="flex-end" gap="sm" wrap="nowrap" className="ue-limit">
      <NumberInput label={label} disabled={disabled || unlimited} value={unlimited ? '' : value} min={0} allowDecimal={false} allowNegative={false}
        placeholder={unlimited ? t('userEditor.fields.unlimited') : allowNone ? t('userEditor.fields.noLimit') : '0'}
        onChange={(v) => form.set(field, String(v))} error={form.error(field)} errorProps={ERROR_PROPS} data-field={field} className="ue-grow" />
      <Switch label={t('userEditor.fields.unlimited')} disabled={disabled} checked={unlimited} mb={8}
        aria-label={t('userEditor.fields.unlimitedOf', { name: label })}
        onChange={(e) => form.set(field, e.currentTarget.checked ? '-1' : allowNone ? '' : '0')} />
    </Group>
  );
}
