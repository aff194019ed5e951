// The map-preferences control (spec §9, reference §3.14 "preferences" switches): a button on
// the map opening a small panel of switches: group markers into clusters, show names, plates,
// status rings and accuracy circles. Choices persist in localStorage `mapPref`.
import { useEffect, useState } from 'react';
import { ActionIcon, Popover, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation.ts';
import { getMapPrefs, MAP_PREF_KEYS, setMapPref, subscribeMapPrefs, type MapPrefs } from './map-prefs.ts';

function LayersIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M12 3l9 5-9 5-9-5z" />
      <path d="M3 13l9 5 9-5" />
      <path d="M3 17.5l9 5 9-5" opacity="0.55" />
    </svg>
  );
}

export function MapPrefsControl() {
  const { t } = useTranslation();
  const [prefs, setPrefs] = useState<MapPrefs>(getMapPrefs);
  useEffect(() => subscribeMapPrefs(setPrefs), []);
  const title = t('map.prefs.title');
  return (
    <div className="map-prefs">
      <Popover position="left-start" shadow="md" withArrow trapFocus returnFocus>
        <Popover.Target>
          <Tooltip label={title} position="left" withArrow openDelay={300}>
            <ActionIcon variant="default" size={36} radius="md" aria-label={title} data-testid="map-prefs-button" className="map-prefs-button">
              <LayersIcon />
            </ActionIcon>
          </Tooltip>
        </Popover.Target>
        <Popover.Dropdown data-testid="map-prefs">
          <Text fw={600} size="sm" mb={8} id="map-prefs-title">{title}</Text>
          <Stack gap={10} role="group" aria-labelledby="map-prefs-title">
            {MAP_PREF_KEYS.map((key) => (
              <Switch
                key={key}
                size="sm"
                label={t(`map.prefs.${key}`)}
                checked={prefs[key]}
                onChange={(e) => setMapPref(key, e.currentTarget.checked)}
                data-testid={`map-pref-${key}`}
              />
            ))}
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </div>
  );
}
