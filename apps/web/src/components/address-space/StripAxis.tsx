import { axisTicks } from '../../model/address-space/axis-ticks.ts';
import type { FormatPrefs } from '../../model/format.ts';
import { type Published, usePublished } from '../../viz/published.ts';
import type { StripSummary } from './address-strip-controller.ts';

const HEIGHT = 22;
/** Labels this close to an edge are anchored inside the axis rather than centred and cut off. */
const EDGE = 60;

/**
 * The address axis under the strip, in SVG, from the ticks of a d3 linear scale (hex: power-of-two
 * steps). It follows the strip's published view, so it re-renders on zoom without the strip.
 */
export function StripAxis({ summary, format }: { summary: Published<StripSummary | undefined>; format: FormatPrefs }) {
  const view = usePublished(summary)?.view;
  const ticks = view === undefined ? [] : axisTicks(view, format);
  const width = view?.width ?? 0;
  return (
    <svg className="address-axis" width="100%" height={HEIGHT} aria-hidden="true" data-testid="address-axis">
      <line x1={0} x2={width} y1={0.5} y2={0.5} className="address-axis-line" />
      {ticks.map((tick) => {
        const anchor = tick.x < EDGE ? 'start' : tick.x > width - EDGE ? 'end' : 'middle';
        return (
          <g key={tick.va} transform={`translate(${Math.round(tick.x) + 0.5}, 0)`}>
            <line y1={0} y2={5} className="address-axis-line" />
            <text y={16} textAnchor={anchor} className="address-axis-label">
              {tick.label}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
