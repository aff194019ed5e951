// /qr-driver and /qr-driver/scan/:id: the only screen QR drivers see (spec §6, no map, no
// menus). Greets the driver and says whether they are checked in to a vehicle.
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { Navigate } from 'react-router';
import type { Device, User } from '@rastro/domain/entities';
import { isQrDriver } from '@rastro/domain/permissions';
import { api } from '../../api/http.ts';
import { useSession } from '../../app/session-store.ts';
import { AuthCard, Notice } from '../../ui/light.tsx';
import { signOut } from '../auth/index.ts';

/** The device a driver is checked in to (`tarkan.isQrDeviceId`), or null. */
export function checkedInDeviceId(user: User): number | null {
  const raw = user.attributes?.['tarkan.isQrDeviceId'];
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}

function useDeviceName(id: number | null): string | null {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    setName(null);
    if (id === null) return;
    let live = true;
    api.get<Device[]>('/devices', { id }).then(
      (devices) => {
        if (live) setName(devices[0]?.name ?? null);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [id]);
  return name;
}

export function Component() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const deviceId = user ? checkedInDeviceId(user) : null;
  const deviceName = useDeviceName(deviceId);
  const [leaving, setLeaving] = useState(false);
  if (!user) return null;
  if (!isQrDriver(user)) return <Navigate to="/home" replace />;

  return (
    <AuthCard heading={t('qrDriver.title')} footer={false}>
      <div className="ls-stack">
        <p className="ls-greeting">{t('qrDriver.greeting', { name: user.name })}</p>
        {deviceId !== null ? (
          <Notice kind="success" title={t('qrDriver.checkedInTitle')}>
            {t('qrDriver.checkedIn', { vehicle: deviceName ?? `#${deviceId}` })}
          </Notice>
        ) : (
          <Notice kind="info" title={t('qrDriver.notCheckedInTitle')}>
            {t('qrDriver.notCheckedIn')}
          </Notice>
        )}
        <button
          type="button"
          className="ls-button secondary"
          disabled={leaving}
          onClick={() => {
            setLeaving(true);
            void signOut('/motorista');
          }}
        >
          {t('qrDriver.logout')}
        </button>
      </div>
    </AuthCard>
  );
}
