// The server's other attributes, by name (tarkan-reference §3.13.18): the product's own keys
// (`tarkan.*`) and those other sections set are left out; a row is a name and a text value. A
// row that cannot be saved says why under it (@rastro/domain/server-settings attributeRowProblem).
import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { attributeRowProblem, type AttributeRow, type ServerSettingsForm } from '@rastro/domain/server-settings';
import { ERROR_PROPS, type EditorForm } from '../../ui/collection/editor-dialog.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';

const RemoveIcon = () => (
  <svg width={16} height={16} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
    <path d="M18 6 6 18M6 6l12 12" />
  </svg>
);

export function AttributesTab({ form }: { form: EditorForm<ServerSettingsForm> }) {
  const { t } = useTranslation();
  const rows = form.values.attributes;
  const change = (next: AttributeRow[]) => form.set('attributes', next);
  const edit = (index: number, patch: Partial<AttributeRow>) => change(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <Stack gap="xs">
      <Text size="sm" c="gray.8">{t('server.attributes.intro')}</Text>
      {rows.length === 0 && <Text size="sm" c="gray.7" data-testid="server-attributes-empty">{t('server.attributes.empty')}</Text>}
      {rows.map((row, index) => {
        // The schema flags the row; the words come from the row's own problem.
        const flagged = form.error(`attributes.${index}`) !== undefined;
        const problem = flagged ? attributeRowProblem(rows, index) : null;
        const name = row.key.trim() || String(index + 1);
        return (
          <Group key={index} gap="xs" align="flex-start" wrap="nowrap" className="ss-attr-row" data-testid="server-attribute-row">
            <TextInput className="ss-attr-key" aria-label={t('server.attributes.keyOf', { index: index + 1 })} placeholder={t('server.attributes.key')}
              value={row.key} onChange={(e) => edit(index, { key: e.currentTarget.value })} spellCheck={false}
              error={problem ? t(`server.attributes.problems.${problem}`) : undefined} errorProps={ERROR_PROPS} />
            <TextInput className="ss-attr-value" aria-label={t('server.attributes.valueOf', { key: name })} placeholder={t('server.attributes.value')}
              value={row.value} onChange={(e) => edit(index, { value: e.currentTarget.value })} />
            <ActionIcon variant="subtle" color="gray.8" size={36} aria-label={t('server.attributes.remove', { key: name })}
              onClick={() => change(rows.filter((_, i) => i !== index))}>
              <RemoveIcon />
            </ActionIcon>
          </Group>
        );
      })}
      <Group>
        <Button variant="default" size="xs" onClick={() => change([...rows, { key: '', value: '' }])} data-testid="server-attribute-add">
          {t('server.attributes.add')}
        </Button>
      </Group>
    </Stack>
  );
}
