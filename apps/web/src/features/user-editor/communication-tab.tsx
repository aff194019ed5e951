// Tab "communication": personal and commercial phone, WhatsApp, contact e-mail and the Telegram
// chat id Traccar's telegram notificator writes to (user attribute `telegramChatId`).
import { SimpleGrid } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation.ts';
import { TextField, type Form } from './fields.tsx';

export function CommunicationTab({ form, disabled }: { form: Form; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <TextField form={form} field="personalPhone" label={t('userEditor.fields.personalPhone')} type="tel" disabled={disabled} />
      <TextField form={form} field="commercialPhone" label={t('userEditor.fields.commercialPhone')} type="tel" disabled={disabled} />
      <TextField form={form} field="whatsapp" label={t('userEditor.fields.whatsapp')} type="tel" disabled={disabled} />
      <TextField form={form} field="contactEmail" label={t('userEditor.fields.contactEmail')} type="email" disabled={disabled} />
      <TextField form={form} field="telegramChatId" label={t('userEditor.fields.telegramChatId')} inputMode="numeric" disabled={disabled}
        description={t('userEditor.fields.telegramChatIdHint')} />
    </SimpleGrid>
  );
}
