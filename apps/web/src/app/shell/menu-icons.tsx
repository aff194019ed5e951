// Line icons of the menus (our own 24×24 drawings, currentColor). Decorative: every entry has
// its text label.
import type { ReactNode } from 'react';
import type { SideMenuId, UserMenuId } from '@rastro/domain/menus';

function Icon({ children, size = 22 }: { children: ReactNode; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8}
      strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export const MapIcon = () => (
  <Icon>
    <path d="M3.5 6.5l5-2 7 2.5 5-2v13l-5 2-7-2.5-5 2z" />
    <path d="M8.5 4.5v13M15.5 7v13" />
  </Icon>
);

const SIDE: Record<SideMenuId, ReactNode> = {
  devices: (
    <Icon>
      <path d="M5 16.5V12l2-5h10l2 5v4.5z" />
      <path d="M5 12h14" />
      <circle cx="8" cy="16.5" r="1.6" />
      <circle cx="16" cy="16.5" r="1.6" />
    </Icon>
  ),
  reports: (
    <Icon>
      <path d="M4 20h16" />
      <path d="M7 16v-5M12 16V6M17 16v-8" />
    </Icon>
  ),
  geofence: (
    <Icon>
      <path d="M5 7l6-3 8 4-2 10-9 2-4-7z" strokeDasharray="2.5 2.2" />
      <circle cx="11.5" cy="12" r="1.6" />
    </Icon>
  ),
  commands: (
    <Icon>
      <rect x="3.5" y="5" width="17" height="14" rx="2" />
      <path d="M7.5 10l2.5 2-2.5 2M12.5 14.5h4" />
    </Icon>
  ),
  groups: (
    <Icon>
      <path d="M3.5 7.5h6l1.5 2h9.5v9h-17z" />
      <path d="M3.5 7.5V5.5h5" />
    </Icon>
  ),
  notifications: (
    <Icon>
      <path d="M6 16.5V11a6 6 0 0 1 12 0v5.5l1.5 1.5h-15z" />
      <path d="M10 20a2 2 0 0 0 4 0" />
    </Icon>
  ),
};

export const sideMenuIcon = (id: SideMenuId) => SIDE[id];

const GENERIC = (
  <Icon size={18}>
    <circle cx="12" cy="12" r="7.5" />
    <path d="M12 8.5v7M8.5 12h7" />
  </Icon>
);

const USER: Partial<Record<UserMenuId, ReactNode>> = {
  account: (
    <Icon size={18}>
      <circle cx="12" cy="8.5" r="3.8" />
      <path d="M4.5 20a7.5 7.5 0 0 1 15 0" />
    </Icon>
  ),
  logout: (
    <Icon size={18}>
      <path d="M14 4h4a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-4" />
      <path d="M10 8l-4 4 4 4M6 12h10" />
    </Icon>
  ),
  users: (
    <Icon size={18}>
      <circle cx="9" cy="9" r="3.2" />
      <path d="M3.5 19a5.5 5.5 0 0 1 11 0M15.5 6.2a3.2 3.2 0 0 1 0 5.6M17.5 14.5a5.5 5.5 0 0 1 3 4.5" />
    </Icon>
  ),
  server: (
    <Icon size={18}>
      <rect x="4" y="4.5" width="16" height="6" rx="1.5" />
      <rect x="4" y="13.5" width="16" height="6" rx="1.5" />
      <path d="M7.5 7.5h.01M7.5 16.5h.01" />
    </Icon>
  ),
  notifications: SIDE.notifications,
};

export const userMenuIcon = (id: UserMenuId) => USER[id] ?? GENERIC;
