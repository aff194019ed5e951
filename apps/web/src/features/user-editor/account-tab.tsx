// Tab "account details": name, e-mail (the login), password (required for a new user, empty
// keeps it on an existing one) and phone.
import { SimpleGrid } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation.ts';
import type { EditorAccess } from './editor-rules.ts';
import { TextField, type Form } from './fields.tsx';

export function AccountTab({ form, access }: { form: Form; access: EditorAccess }) {
  const { t } = useTranslation();
  const off = !access.account;
  const fresh = form.values.id <= 0;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <TextField form={form} field="name" label={t('userEditor.fields.name')} disabled={off} autoComplete="name" />
      <TextField form={form} field="email" label={t('userEditor.fields.email')} disabled={off} type="email" autoComplete="username" />
      <TextField form={form} field="password" label={t('userEditor.fields.password')} disabled={off} type="password" autoComplete="new-password"
        description={fresh ? undefined : t('userEditor.fields.passwordKeep')} />
      <TextField form={form} field="phone" label={t('userEditor.fields.phone')} disabled={off} type="tel" autoComplete="tel" />
    </SimpleGrid>
  );
}
