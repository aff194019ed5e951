// A note over the map while device filters hide markers (a search remembered from an earlier
// session, a status chip, a category, show-only-one-device…): "Map filtered: N of M devices shown", with a button
// that clears the filters and one that opens the list. Not shown on /devices itself, whose
// list already says how many devices it shows.
import './filter-hint.css';
import { useMemo } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useLocation, useNavigate } from 'react-router';
import { isDeletedDevice, isFiltering } from '@rastro/domain/device-filters';
import { useLive } from '../../live/live-store.ts';
import { clearFilters, setOnlyDevice, useDeviceFilters, useVisibleDeviceIds } from '../../live/visible-devices.ts';

export function FilterHint() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const path = useLocation().pathname;
  const filters = useDeviceFilters((s) => s.filters);
  const visible = useVisibleDeviceIds();
  const devices = useLive((s) => s.devices);
  const total = useMemo(() => Object.values(devices).reduce((n, d) => (isDeletedDevice(d) ? n : n + 1), 0), [devices]);
  const filtering = isFiltering(filters);
  if (!filtering || visible === null || total === 0 || path === '/devices') return null;
  return (
    <div className="filter-hint" role="status" data-testid="map-filter-hint">
      <span className="filter-hint-text">{t('devices.mapHint.text', { shown: visible.size, total })}</span>
      <span className="filter-hint-actions">
        <button type="button" className="filter-hint-button" onClick={() => navigate('/devices')} title={t('devices.mapHint.openLabel')}
          aria-label={t('devices.mapHint.openLabel')}>
          {t('devices.mapHint.open')}
        </button>
        <button type="button" className="filter-hint-button is-primary" onClick={() => { clearFilters(); setOnlyDevice(null); }} title={t('devices.mapHint.clearLabel')}
          aria-label={t('devices.mapHint.clearLabel')}>
          {t('devices.mapHint.clear')}
        </button>
      </span>
    </div>
  );
}
