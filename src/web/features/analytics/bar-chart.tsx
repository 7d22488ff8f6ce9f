import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";
import { useEffect, useRef, useState } from "react";

export interface ChartPoint {
  /** What the point is (a day, a week), in its tooltip. */
  label: string;
  /** Its short name under the axis. */
  axisLabel: string;
  value: number;
}

const HEIGHT = 168;
const MARGIN = { top: 8, right: 4, bottom: 24, left: 48 };
/** Before the first measure (and in tests without layout): a phone's width. */
const FALLBACK_WIDTH = 320;

/** The width the chart's box has: it is drawn at that size, so its text stays legible on a phone. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(FALLBACK_WIDTH);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(200, Math.floor(entry.contentRect.width)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/**
 * A bar chart of one measure over the period (visx scales and bars, plain SVG): three value lines,
 * the first, middle and last labels under the axis, and a tooltip per bar. The SVG is one image with
 * a summary for screen readers; the numbers themselves are in the page's table.
 */
export function BarChart({
  title,
  points,
  format,
  tickFormat = format,
  integer = false,
  summary,
}: {
  title: string;
  points: ChartPoint[];
  /** A value in a tooltip. */
  format: (value: number) => string;
  /** A value on the axis, shorter. */
  tickFormat?: (value: number) => string;
  /** Values are whole numbers (counts, cents): the axis shows no fractions. */
  integer?: boolean;
  summary: string;
}) {
  const { ref, width } = useWidth();
  const innerWidth = width - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const max = Math.max(0, ...points.map((point) => point.value));
  const x = scaleBand({
    domain: points.map((_, index) => index),
    range: [0, innerWidth],
    padding: points.length > 60 ? 0.1 : 0.25,
  });
  const y = scaleLinear({ domain: [0, max === 0 ? 1 : max], range: [innerHeight, 0], nice: 3 });
  // Counts have no half units.
  const ticks = y.ticks(3).filter((tick) => !integer || Number.isInteger(tick));
  const labelled = [...new Set([0, Math.floor((points.length - 1) / 2), points.length - 1])].filter(
    (index) => index >= 0,
  );
  return (
    <div ref={ref} className="w-full min-w-0">
      <svg width={width} height={HEIGHT} role="img" aria-label={`${title}: ${summary}`} className="block">
        <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
          {ticks.map((tick) => (
            <g key={tick} transform={`translate(0,${y(tick)})`}>
              <line x2={innerWidth} className="stroke-slate-200" />
              <text x={-8} dy="0.32em" textAnchor="end" className="fill-slate-600 text-[11px] tabular-nums">
                {tickFormat(tick)}
              </text>
            </g>
          ))}
          {points.map((point, index) => {
            const top = y(point.value);
            return (
              <Bar
                key={point.label}
                x={x(index) ?? 0}
                y={top}
                width={x.bandwidth()}
                height={Math.max(0, innerHeight - top)}
                rx={Math.min(3, x.bandwidth() / 3)}
                className="fill-brand-600"
              >
                <title>{`${point.label}: ${format(point.value)}`}</title>
              </Bar>
            );
          })}
          {labelled.map((index) => (
            <text
              key={index}
              x={(x(index) ?? 0) + x.bandwidth() / 2}
              y={innerHeight + 16}
              textAnchor={index === 0 ? "start" : index === points.length - 1 ? "end" : "middle"}
              className="fill-slate-600 text-[11px]"
            >
              {points[index]?.axisLabel}
            </text>
          ))}
        </g>
      </svg>
    </div>
  );
}
