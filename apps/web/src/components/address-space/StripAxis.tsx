import { axisTicks } from '../../model/address-space/axis-ticks.ts';
import type { StripView } from '../../model/address-space/strip-layout.ts';
import type { FormatPrefs } from '../../model/format.ts';

const HEIGHT = 22;
/** Labels this close to an edge are anchored inside the axis rather than centred and cut off. */
const EDGE = 60;

/** The address axis under the strip, in SVG, from the ticks of a d3 linear scale (hex: power-of-two steps). */
export function StripAxis({ view, format }: { view: StripView; format: FormatPrefs }) {
  const ticks = axisTicks(view, format);
  return (
    <svg className="address-axis" width="100%" height={HEIGHT} aria-hidden="true" data-testid="address-axis">
      <line x1={0} x2={view.width} y1={0.5} y2={0.5} className="address-axis-line" />
      {ticks.map((tick) => {
        const anchor = tick.x < EDGE ? 'start' : tick.x > view.width - EDGE ? 'end' : 'middle';
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
