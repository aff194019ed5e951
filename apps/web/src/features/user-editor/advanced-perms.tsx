// The 128-bit advanced permission editor (tarkan-reference §5.1): one switch per area, its
// actions nested under it while the area is on, and the self-edit switch when editing someone
// else. A user with no flags stored may do everything (spec §6), so the switches start all on
// for them; saving then writes the flags (user-form.ts encodes them).
import { Box, Stack, Switch, Text } from '@mantine/core';
import { PERMISSION_BITS } from '@rastro/domain/permissions';
import { useTranslation } from '../../i18n/use-translation.ts';
import { allGranted, PERMISSION_TREE, toggle } from './permission-tree.ts';
import type { Form } from './fields.tsx';

export function AdvancedPerms({ form, disabled, showSelfEdit }: { form: Form; disabled: boolean; showSelfEdit: boolean }) {
  const { t } = useTranslation();
  const flags = form.values.advancedPerms ?? allGranted();
  const set = (bit: number, on: boolean) => form.set('advancedPerms', toggle(flags, bit, on));
  return (
    <fieldset className="ue-perms" data-testid="advanced-perms">
      <legend className="ue-legend">{t('userEditor.advanced.title')}</legend>
      <Text size="xs" c="gray.7" mb="xs">{t('userEditor.advanced.hint')}</Text>
      <Stack gap={6}>
        {showSelfEdit && (
          <Switch label={t('userEditor.advanced.self')} checked={flags[PERMISSION_BITS.selfEdit] === true} disabled={disabled}
            onChange={(e) => set(PERMISSION_BITS.selfEdit, e.currentTarget.checked)} />
        )}
        {PERMISSION_TREE.map((area) => {
          const on = flags[area.bit] === true;
          const areaLabel = t(`userEditor.advanced.areas.${area.name}`);
          return (
            <Box key={area.name} className="ue-area">
              <Switch label={areaLabel} checked={on} disabled={disabled} fw={600} data-bit={area.bit}
                onChange={(e) => set(area.bit, e.currentTarget.checked)} />
              {on && area.actions.length > 0 && (
                <div role="group" aria-label={areaLabel} className="ue-actions">
                  {area.actions.map((action) => (
                    <Switch key={action.name} size="xs" label={t(`userEditor.advanced.actions.${action.action}`)} checked={flags[action.bit] === true}
                      disabled={disabled} data-bit={action.bit} onChange={(e) => set(action.bit, e.currentTarget.checked)} />
                  ))}
                </div>
              )}
            </Box>
          );
        })}
      </Stack>
    </fieldset>
  );
}
