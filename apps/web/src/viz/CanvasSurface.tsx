import { type CSSProperties, type PointerEvent, useEffect, useRef } from 'react';
import { frameScheduler } from './scheduler.ts';

export interface CanvasFrame {
  readonly ctx: CanvasRenderingContext2D;
  /** CSS pixels. */
  readonly width: number;
  readonly height: number;
  readonly dpr: number;
}

export interface CanvasSurfaceProps {
  /** Draws one frame. Called through the frame scheduler whenever `revision` changes or the size does. */
  readonly draw: (frame: CanvasFrame) => void;
  /** Any value that changes when the picture must be redrawn. */
  readonly revision: unknown;
  readonly className?: string;
  readonly style?: CSSProperties;
  readonly label: string;
  readonly onPointerMove?: (event: PointerEvent<HTMLCanvasElement>) => void;
  readonly onPointerLeave?: () => void;
  readonly onClick?: (event: PointerEvent<HTMLCanvasElement>) => void;
  readonly canvasRef?: (canvas: HTMLCanvasElement | null) => void;
}

/**
 * A canvas that fills its box at device-pixel resolution and redraws through the one frame
 * scheduler. It only sizes and schedules; all drawing lives in pure draw functions.
 */
export function CanvasSurface({
  draw,
  revision,
  className,
  style,
  label,
  onPointerMove,
  onPointerLeave,
  onClick,
  canvasRef,
}: CanvasSurfaceProps) {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const drawRef = useRef(draw);
  drawRef.current = draw;
  const paint = useRef(() => {
    const element = canvas.current;
    const ctx = element?.getContext('2d');
    if (element === null || element === undefined || ctx === null || ctx === undefined) return;
    const dpr = window.devicePixelRatio || 1;
    const width = element.clientWidth;
    const height = element.clientHeight;
    if (element.width !== Math.round(width * dpr) || element.height !== Math.round(height * dpr)) {
      element.width = Math.round(width * dpr);
      element.height = Math.round(height * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawRef.current({ ctx, width, height, dpr });
  });

  useEffect(() => {
    frameScheduler.schedule(paint.current);
  });

  useEffect(() => {
    const element = canvas.current;
    if (element === null) return undefined;
    const observer = new ResizeObserver(() => frameScheduler.schedule(paint.current));
    observer.observe(element);
    const redraw = paint.current;
    return () => {
      observer.disconnect();
      frameScheduler.cancel(redraw);
    };
  }, []);

  void revision;
  return (
    <canvas
      ref={(element) => {
        canvas.current = element;
        canvasRef?.(element);
      }}
      className={className}
      style={{ display: 'block', width: '100%', height: '100%', ...style }}
      aria-label={label}
      role="img"
      onPointerMove={onPointerMove}
      onPointerLeave={onPointerLeave}
      onClick={onClick}
    />
  );
}
