import { memo, type RefObject, useLayoutEffect, useRef } from 'react';
import type { Hit } from '../../model/page-map/hit.ts';
import type { Published } from '../../viz/published.ts';
import { mounted, useController } from '../../viz/useController.ts';
import { type MapControls, type MapInput, PageMapController, type ViewSummary } from './page-map-controller.ts';
import { installMapHooks } from './page-map-hooks.ts';

export interface PageMapCanvasProps extends MapInput {
  readonly label: string;
  readonly describedBy: string;
  readonly controls: RefObject<MapControls | null>;
  /** Where the controller publishes the view for the status line. */
  readonly summary: Published<ViewSummary | undefined>;
  onHover(hit: Hit | undefined, x: number, y: number): void;
  onPick(hit: Hit): void;
}

/** Two stacked canvases (the map and a light hover layer) driven by a PageMapController. */
export const PageMapCanvas = memo(function PageMapCanvas(props: PageMapCanvasProps) {
  const wrap = useRef<HTMLDivElement>(null);
  const base = useRef<HTMLCanvasElement>(null);
  const overlay = useRef<HTMLCanvasElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const controller = useController(
    wrap,
    props,
    (element, first) =>
      new PageMapController(element, mounted(base, 'the page map'), mounted(overlay, 'the page map overlay'), first, first.summary),
  );

  // The toolbar, the shortcuts and the browser tests reach the controller for as long as it lives.
  useLayoutEffect(() => {
    const created = controller.current;
    if (created === undefined) return undefined;
    const { controls } = latest.current;
    controls.current = created;
    const uninstall = installMapHooks(window, created.hooks());
    return () => {
      uninstall();
      controls.current = null;
    };
  }, [controller]);

  const point = (clientX: number, clientY: number): [number, number] => {
    const box = wrap.current?.getBoundingClientRect();
    return [clientX - (box?.left ?? 0), clientY - (box?.top ?? 0)];
  };

  return (
    <div
      ref={wrap}
      className="page-map-canvas"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the map takes focus for keyboard zoom and pan (role application).
      tabIndex={0}
      role="application"
      aria-label={props.label}
      aria-describedby={props.describedBy}
      data-testid="page-map-canvas"
      data-frames={props.table.count}
      onKeyDown={(event) => {
        if (event.ctrlKey || event.metaKey || event.altKey) return;
        // Handled here while the map has focus, so a global shortcut on the same key does not run as well.
        if (controller.current?.key(event.key) === true) {
          event.preventDefault();
          event.stopPropagation();
        }
      }}
      onPointerMove={(event) => {
        const hit = controller.current?.hitAt(event.clientX, event.clientY);
        controller.current?.setHover(hit);
        const [x, y] = point(event.clientX, event.clientY);
        latest.current.onHover(hit, x, y);
      }}
      onPointerLeave={() => {
        controller.current?.setHover(undefined);
        latest.current.onHover(undefined, 0, 0);
      }}
      onClick={(event) => {
        const hit = controller.current?.hitAt(event.clientX, event.clientY);
        if (hit !== undefined) latest.current.onPick(hit);
      }}
    >
      <canvas ref={base} className="page-map-layer" />
      <canvas ref={overlay} className="page-map-layer" />
    </div>
  );
});
