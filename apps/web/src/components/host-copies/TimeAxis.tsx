import { type Published, usePublished } from '../../viz/published.ts';
import type { PlotSummary } from './copy-plot-controller.ts';

const AXIS_HEIGHT = 22;

/**
 * The time axis under the plot, from the ticks of the visible range (SVG; d3 only did the math).
 * It follows the plot's published view, so it re-renders on zoom without the plot.
 */
export function TimeAxis({ summary }: { summary: Published<PlotSummary | undefined> }) {
  const shown = usePublished(summary);
  const width = shown?.view.width ?? 0;
  return (
    <svg className="hc-axis" width={width} height={AXIS_HEIGHT} aria-hidden="true" data-testid="copy-axis">
      <line x1={0} x2={width} y1={0.5} y2={0.5} className="hc-axis-line" />
      {shown?.ticks.map((tick) => (
        <g key={tick.value} transform={`translate(${tick.x.toFixed(1)},0)`}>
          <line y1={0} y2={5} className="hc-axis-line" />
          <text y={16} textAnchor={tick.x < 30 ? 'start' : tick.x > width - 30 ? 'end' : 'middle'}>
            {tick.label}
          </text>
        </g>
      ))}
    </svg>
  );
}
