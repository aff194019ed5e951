// The attribute chart of the history screen (uPlot, loaded only when the chart is shown):
// one numeric attribute over time, the player's point marked by a vertical line; a click on
// the chart moves the player there.
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

export interface HistoryChartProps {
  /** Seconds since the epoch. */
  times: number[];
  values: Array<number | null>;
  label: string;
  index: number;
  tz: string | undefined;
  language: string;
  onSeek(index: number): void;
  ariaLabel: string;
}

const HEIGHT = 170;

export default function HistoryChart({ times, values, label, index, tz, language, onSeek, ariaLabel }: HistoryChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const indexRef = useRef(index);
  const seekRef = useRef(onSeek);
  seekRef.current = onSeek;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = Math.max(200, el.clientWidth);
    // Tick labels in the user's language and zone (uPlot's own are English, 12-hour).
    const span = times.length > 1 ? times[times.length - 1]! - times[0]! : 0;
    const tick = new Intl.DateTimeFormat(language, span > 86_400
      ? { timeZone: tz, day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' }
      : { timeZone: tz, hour: '2-digit', minute: '2-digit' });
    const opts: uPlot.Options = {
      width,
      height: HEIGHT,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      tzDate: tz ? (ts) => uPlot.tzDate(new Date(ts * 1000), tz) : undefined,
      scales: { x: { time: true } },
      axes: [
        { stroke: '#475569', grid: { stroke: '#e2e8f0' }, ticks: { stroke: '#cbd5e1' }, values: (_u, splits) => splits.map((s) => tick.format(s * 1000)) },
        { stroke: '#475569', grid: { stroke: '#e2e8f0' }, ticks: { stroke: '#cbd5e1' }, size: 44 },
      ],
      series: [{}, { label, stroke: '#0b5cad', width: 2, fill: 'rgba(11, 92, 173, 0.08)', spanGaps: true }],
      hooks: {
        draw: [
          (u) => {
            const t = times[indexRef.current];
            if (t === undefined) return;
            const x = Math.round(u.valToPos(t, 'x', true));
            const { ctx } = u;
            ctx.save();
            ctx.strokeStyle = '#b42318';
            ctx.lineWidth = 2 * devicePixelRatio;
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.restore();
          },
        ],
      },
    };
    const u = new uPlot(opts, [times, values], el);
    plot.current = u;
    const click = () => {
      const idx = u.cursor.idx;
      if (typeof idx === 'number') seekRef.current(idx);
    };
    u.over.addEventListener('click', click);
    const resize = new ResizeObserver(() => {
      const w = el.clientWidth;
      if (w > 0 && Math.abs(w - u.width) > 2) u.setSize({ width: w, height: HEIGHT });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.over.removeEventListener('click', click);
      u.destroy();
      plot.current = null;
    };
  }, [times, values, label, tz, language]);

  useEffect(() => {
    indexRef.current = index;
    plot.current?.redraw(false);
  }, [index]);

  return <div ref={box} className="history-chart" role="img" aria-label={ariaLabel} data-testid="history-chart" />;
}
