// Our own weather pictograms (24×24, drawn for the dark header): sun or moon, clouds, rain,
// snow, fog and lightning combined per icon of weather-codes.ts. Decorative: the text beside
// them (or the widget's label) says what they show.
import type { ReactNode } from 'react';
import type { WeatherIcon } from './weather-codes.ts';

const SUN = '#fbbf24';
const MOON = '#e2e8f0';
const CLOUD = '#f1f5f9';
const CLOUD_DARK = '#cbd5e1';
const WATER = '#93c5fd';
const BOLT = '#fde047';

const cloud = (dx = 0, dy = 0, fill = CLOUD) => (
  <path
    transform={`translate(${dx} ${dy})`}
    d="M7.2 19h9.6a3.9 3.9 0 0 0 .6-7.75 5.4 5.4 0 0 0-10.4-1.1A4.45 4.45 0 0 0 7.2 19z"
    fill={fill}
  />
);

const sun = (cx = 12, cy = 12, r = 4.2, rays = true) => (
  <g>
    <circle cx={cx} cy={cy} r={r} fill={SUN} />
    {rays &&
      Array.from({ length: 8 }, (_, i) => {
        const a = (i * Math.PI) / 4;
        const x1 = cx + Math.cos(a) * (r + 2);
        const y1 = cy + Math.sin(a) * (r + 2);
        const x2 = cx + Math.cos(a) * (r + 4.2);
        const y2 = cy + Math.sin(a) * (r + 4.2);
        return <line key={i} x1={x1} y1={y1} x2={x2} y2={y2} stroke={SUN} strokeWidth={1.8} strokeLinecap="round" />;
      })}
  </g>
);

const moon = (dx = 0, dy = 0, scale = 1) => (
  <path transform={`translate(${dx} ${dy}) scale(${scale})`} d="M15.5 3.5a8.5 8.5 0 1 0 5 14.9A7 7 0 0 1 15.5 3.5z" fill={MOON} />
);

const drops = (kind: 'rain' | 'drizzle' | 'snow' | 'freezing') => {
  const xs = [8, 12, 16];
  if (kind === 'snow') {
    return xs.map((x, i) => (
      <text key={x} x={x} y={i % 2 ? 23.5 : 22.5} fontSize="6" textAnchor="middle" fill="#ffffff" fontFamily="sans-serif">
        *
      </text>
    ));
  }
  if (kind === 'drizzle') return xs.map((x) => <circle key={x} cx={x} cy={21.5} r={0.95} fill={WATER} />);
  return xs.map((x, i) =>
    kind === 'freezing' && i === 1 ? (
      <text key={x} x={x} y={23.5} fontSize="6" textAnchor="middle" fill="#ffffff" fontFamily="sans-serif">
        *
      </text>
    ) : (
      <line key={x} x1={x} y1={19.8} x2={x - 1.2} y2={23} stroke={WATER} strokeWidth={1.6} strokeLinecap="round" />
    ),
  );
};

/** The sky (sun or moon) peeking out at the top left, a cloud in front, then whatever falls. */
const shifted = (sky: ReactNode, children: ReactNode) => (
  <>
    <g transform="translate(-3.5 -4) scale(0.75)">{sky}</g>
    {children}
  </>
);

const SHAPES: Record<WeatherIcon, () => ReactNode> = {
  'clear-day': () => sun(),
  'clear-night': () => moon(-1, 0),
  'partly-day': () => shifted(sun(12, 12, 4.6), cloud(1.5, 1)),
  'partly-night': () => shifted(moon(), cloud(1.5, 1)),
  overcast: () => (
    <>
      {cloud(-2.5, -4, CLOUD_DARK)}
      {cloud(1.5, 0.5)}
    </>
  ),
  fog: () => (
    <>
      {cloud(0, -4)}
      {[17.5, 20.5].map((y, i) => (
        <line key={y} x1={4 + i * 2} y1={y} x2={20 - i} y2={y} stroke={CLOUD_DARK} strokeWidth={1.6} strokeLinecap="round" />
      ))}
    </>
  ),
  drizzle: () => (
    <>
      {cloud(0, -3.5)}
      {drops('drizzle')}
    </>
  ),
  rain: () => (
    <>
      {cloud(0, -3.5)}
      {drops('rain')}
    </>
  ),
  freezing: () => (
    <>
      {cloud(0, -3.5)}
      {drops('freezing')}
    </>
  ),
  snow: () => (
    <>
      {cloud(0, -3.5)}
      {drops('snow')}
    </>
  ),
  'showers-day': () => shifted(sun(12, 12, 4.6), <>{cloud(1.5, -2.5)}{drops('rain')}</>),
  'showers-night': () => shifted(moon(), <>{cloud(1.5, -2.5)}{drops('rain')}</>),
  thunder: () => (
    <>
      {cloud(0, -3.5)}
      <path d="M12.6 15.2l-3 4.4h2.4l-1.2 4 4-5.4h-2.5l1.4-3z" fill={BOLT} />
    </>
  ),
  unknown: () => (
    <>
      <rect x={10} y={3} width={4} height={13} rx={2} fill="none" stroke={CLOUD} strokeWidth={1.6} />
      <circle cx={12} cy={18} r={3.2} fill={WATER} stroke={CLOUD} strokeWidth={1.4} />
    </>
  ),
};

export function WeatherGlyph({ icon, size = 24 }: { icon: WeatherIcon; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" data-icon={icon}>
      {SHAPES[icon]()}
    </svg>
  );
}
