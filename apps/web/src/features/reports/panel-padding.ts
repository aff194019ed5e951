// The part of the map a screen panel covers (desktop side panel 440 px at the left, mobile
// bottom sheet at 55 % of the height), so fitted routes and markers land in the visible part.
import type { FitPadding } from '../map/index.ts';

export function panelPadding(mobile: boolean): FitPadding {
  if (mobile) return { top: 70, right: 30, bottom: Math.round(window.innerHeight * 0.55) + 20, left: 30 };
  return { top: 70, right: 70, bottom: 50, left: 440 + 12 + 40 };
}
