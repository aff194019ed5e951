// The map overlay's test hook (window.__rastroOverlay, on with localStorage rastro.testHooks):
// what the history and report screens have put on the session map.
import type { Page } from '@playwright/test';

export interface OverlayState {
  routes: number[];
  highlight: number;
  markers: Array<{ id: string; kind: string }>;
  vehicle: { longitude: number; latitude: number; course: number } | null;
}

declare global {
  interface Window {
    __rastroOverlay?: { state(): OverlayState; rendered(): { route: number; markers: number; vehicle: number } };
  }
}

export const overlay = (page: Page): Promise<OverlayState | null> => page.evaluate(() => window.__rastroOverlay?.state() ?? null);
