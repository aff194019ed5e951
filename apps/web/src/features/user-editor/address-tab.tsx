// Tab "address": zip, street, number, complement, district, city, state (user attributes).
import { SimpleGrid } from '@mantine/core';
import { USER_ADDRESS_KEYS, type AddressField } from '@rastro/domain/schemas/user-form';
import { useTranslation } from '../../i18n/use-translation.ts';
import { TextField, type Form } from './fields.tsx';

const FIELDS = Object.keys(USER_ADDRESS_KEYS) as AddressField[];
const AUTOCOMPLETE: Partial<Record<AddressField, string>> = { zip: 'postal-code', city: 'address-level2', state: 'address-level1' };

export function AddressTab({ form, disabled }: { form: Form; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {FIELDS.map((field) => (
        <TextField key={field} form={form} field={field} label={t(`userEditor.fields.${field}`)} disabled={disabled} autoComplete={AUTOCOMPLETE[field]} />
      ))}
    </SimpleGrid>
  );
}
