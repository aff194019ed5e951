// Tab "billing": the customer's billing settings (tarkan-reference §6.3), stored as user
// attributes and used by the billing feature of a later issue. Money is typed with a comma or
// a point ("49,90"); fine and discount are a percentage or a fixed amount.
import { SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { BILLING_MODES, type BillingMode } from '@rastro/domain/schemas/user-form';
import { useTranslation } from '../../i18n/use-translation.ts';
import { SwitchField, TextField, type Form } from './fields.tsx';

function ModeField({ form, field, label, disabled }: { form: Form; field: 'billingFineMode' | 'billingDiscountMode'; label: string; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text size="sm" fw={700} id={`ue-${field}`}>{label}</Text>
      <SegmentedControl aria-labelledby={`ue-${field}`} disabled={disabled} value={form.values[field]} data-field={field}
        onChange={(v) => form.set(field, v as BillingMode)} data={BILLING_MODES.map((m) => ({ value: m, label: t(`userEditor.billing.modes.${m}`) }))} />
    </Stack>
  );
}

export function BillingTab({ form, disabled }: { form: Form; disabled: boolean }) {
  const { t } = useTranslation();
  const v = form.values;
  const f = (key: string) => t(`userEditor.billing.${key}`);
  return (
    <Stack gap="sm">
      <Text size="sm" c="gray.7">{f('hint')}</Text>
      <SwitchField form={form} field="billingEnabled" label={f('enabled')} disabled={disabled} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextField form={form} field="billingTaxId" label={f('taxId')} inputMode="numeric" disabled={disabled} />
        <TextField form={form} field="billingDescription" label={f('description')} disabled={disabled} />
        <TextField form={form} field="billingPrice" label={f('price')} inputMode="decimal" placeholder="0,00" disabled={disabled} />
        <TextField form={form} field="billingDueDay" label={f('dueDay')} inputMode="numeric" description={f('dueDayHint')} disabled={disabled} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <div className="ue-switch-cell"><SwitchField form={form} field="billingTrustUnlock" label={f('trustUnlock')} disabled={disabled} /></div>
        {v.billingTrustUnlock ? <TextField form={form} field="billingTrustUnlockDays" label={f('trustUnlockDays')} inputMode="numeric" disabled={disabled} /> : <span />}
        <div className="ue-switch-cell"><SwitchField form={form} field="billingSuspension" label={f('suspension')} disabled={disabled} /></div>
        {v.billingSuspension ? <TextField form={form} field="billingSuspensionDays" label={f('suspensionDays')} inputMode="numeric" disabled={disabled} /> : <span />}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextField form={form} field="billingFine" label={f('fine')} inputMode="decimal" disabled={disabled} />
        <ModeField form={form} field="billingFineMode" label={f('fineMode')} disabled={disabled} />
        <TextField form={form} field="billingInterest" label={f('interest')} inputMode="decimal" description={f('interestHint')} disabled={disabled} />
        <span />
        <TextField form={form} field="billingDiscount" label={f('discount')} inputMode="decimal" disabled={disabled} />
        <ModeField form={form} field="billingDiscountMode" label={f('discountMode')} disabled={disabled} />
        <TextField form={form} field="billingDiscountDays" label={f('discountDays')} inputMode="numeric" description={f('discountDaysHint')} disabled={disabled} />
      </SimpleGrid>
    </Stack>
  );
}
