// The device's "links" menu (tarkan-reference §3.13.19, the device's attributions): the
// related-objects dialog with the device as owner, for geofences, notifications, drivers,
// computed attributes, saved commands and maintenance. Shown with the device-edit right (the
// caller checks it); each type also needs its own area bit. Its texts live in the `users`
// namespace, loaded on first render (a Suspense boundary of its own keeps the toolbar up).
import { Suspense, useState } from 'react';
import { Button, Menu } from '@mantine/core';
import type { Device } from '@rastro/domain/entities';
import { hasPermission } from '@rastro/domain/permissions';
import { useTexts } from '../../i18n/texts.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useSession } from '../../app/session-store.ts';
import { RelatedPicker } from '../../ui/collection/related-picker.tsx';
import { linkedAreaBit, type LinkedType } from '../../ui/collection/link-kinds.ts';

/** The types a device links to, in menu order (each under its area bit too). */
export const DEVICE_LINKS: readonly LinkedType[] = ['geofences', 'notifications', 'drivers', 'attributes', 'commands', 'maintenance'];

function LinksMenu({ device }: { device: Pick<Device, 'id' | 'name'> }) {
  useTexts('users');
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const info = useSession((s) => s.serverInfo);
  const [type, setType] = useState<LinkedType | null>(null);
  if (!user || !info) return null;
  const server = { plus: info.plus, attributes: info.server.attributes };
  const types = DEVICE_LINKS.filter((type) => hasPermission(user, server, linkedAreaBit(type)));
  if (types.length === 0) return null;
  return (
    <>
      <Menu withinPortal zIndex={500} withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <Button size="compact-sm" variant="light" data-testid="device-links">
            {t('users.links')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {types.map((k) => (
            <Menu.Item key={k} data-link={k} onClick={() => setType(k)}>{t(`users.linkTypes.${k}`)}</Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      {type && (
        <RelatedPicker opened owner={{ key: 'deviceId', id: device.id }} type={type} onClose={() => setType(null)}
          title={t('users.linkTitle', { type: t(`users.linkTypes.${type}`), name: device.name })} />
      )}
    </>
  );
}

export function DeviceLinks({ device }: { device: Pick<Device, 'id' | 'name'> }) {
  return (
    <Suspense fallback={null}>
      <LinksMenu device={device} />
    </Suspense>
  );
}
