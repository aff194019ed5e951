// The vehicle icons, shared by the map and the device list.
export { CATEGORIES, categoryOf, FIXED_COLORS, ICON_GRID, ICONS, OUTLINE, toSvg, type Category } from './icons.ts';
