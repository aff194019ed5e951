// Where screens render: over the map, in a side panel on desktop and a bottom sheet on mobile.
// A screen asks for the panel through its route's handle:
//   { path: 'devices', lazy: …, handle: { panel: { title: 'menu.side.devices' } } }
// (title = an i18n key; `back` = where the back arrow goes, else history back). Routes without
// a panel handle (the map-only screens) render their element directly, with no chrome.
import { useState, type ReactNode } from 'react';
import { ActionIcon, CloseButton } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useMatches, useNavigate } from 'react-router';

export interface PanelHandle {
  /** i18n key of the panel's title. */
  title: string;
  /** Route the back arrow opens; without it the arrow goes back in history. */
  back?: string;
  /** A table of many columns (the users manager): a wider panel on desktop. */
  wide?: boolean;
}

export interface ScreenHandle {
  panel?: PanelHandle;
}

/** The panel the deepest matching route asks for, if any. */
export function usePanelHandle(): PanelHandle | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]!.handle as ScreenHandle | undefined;
    if (handle?.panel) return handle.panel;
  }
  return null;
}

const BackIcon = () => (
  <svg width={20} height={20} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d="M15 6l-6 6 6 6" />
  </svg>
);

const ExpandIcon = ({ expanded }: { expanded: boolean }) => (
  <svg width={20} height={20} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d={expanded ? 'M6 9l6 6 6-6' : 'M6 15l6-6 6 6'} />
  </svg>
);

export function ScreenPanel({ mobile, children }: { mobile: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const panel = usePanelHandle();
  const [expanded, setExpanded] = useState(false);
  if (!panel) return <>{children}</>;
  const title = t(panel.title);
  return (
    <section
      className={`screen-panel${mobile ? ' is-sheet' : panel.wide ? ' is-wide' : ''}${mobile && expanded ? ' is-expanded' : ''}`}
      aria-labelledby="screen-panel-title"
      data-testid="screen-panel"
    >
      {mobile && (
        <button type="button" className="sheet-handle" aria-expanded={expanded} onClick={() => setExpanded((v) => !v)}
          aria-label={expanded ? t('shell.panelCollapse') : t('shell.panelExpand')}>
          <span aria-hidden="true" />
        </button>
      )}
      <div className="screen-panel-head">
        <ActionIcon variant="subtle" color="gray.8" aria-label={t('shell.panelBack')}
          onClick={() => (panel.back ? navigate(panel.back) : navigate(-1))}>
          <BackIcon />
        </ActionIcon>
        <h2 id="screen-panel-title" className="screen-panel-title">{title}</h2>
        {mobile && (
          <ActionIcon variant="subtle" color="gray.8" aria-label={expanded ? t('shell.panelCollapse') : t('shell.panelExpand')}
            onClick={() => setExpanded((v) => !v)}>
            <ExpandIcon expanded={expanded} />
          </ActionIcon>
        )}
        <CloseButton aria-label={t('shell.panelClose')} onClick={() => navigate('/home')} />
      </div>
      <div className="screen-panel-body">{children}</div>
    </section>
  );
}
