/**
 * A stand-in for CanvasRenderingContext2D that records what a draw function did, so pure draw
 * functions are tested in Node: which rectangles were filled with which colour, what text went
 * where, and whole images put with putImageData.
 */
export interface Recorded {
  readonly op: string;
  readonly args: readonly unknown[];
  readonly fillStyle: string;
  readonly strokeStyle: string;
}

export class RecordingContext {
  readonly calls: Recorded[] = [];
  fillStyle = '#000000';
  strokeStyle = '#000000';
  lineWidth = 1;
  font = '10px sans-serif';
  textAlign = 'start';
  textBaseline = 'alphabetic';
  globalAlpha = 1;
  imageSmoothingEnabled = true;

  #record(op: string, args: readonly unknown[]): void {
    this.calls.push({ op, args, fillStyle: String(this.fillStyle), strokeStyle: String(this.strokeStyle) });
  }

  fillRect(x: number, y: number, w: number, h: number): void {
    this.#record('fillRect', [x, y, w, h]);
  }
  strokeRect(x: number, y: number, w: number, h: number): void {
    this.#record('strokeRect', [x, y, w, h]);
  }
  clearRect(x: number, y: number, w: number, h: number): void {
    this.#record('clearRect', [x, y, w, h]);
  }
  fillText(text: string, x: number, y: number): void {
    this.#record('fillText', [text, x, y]);
  }
  measureText(text: string): { width: number } {
    return { width: text.length * 6 };
  }
  beginPath(): void {
    this.#record('beginPath', []);
  }
  moveTo(x: number, y: number): void {
    this.#record('moveTo', [x, y]);
  }
  lineTo(x: number, y: number): void {
    this.#record('lineTo', [x, y]);
  }
  rect(x: number, y: number, w: number, h: number): void {
    this.#record('rect', [x, y, w, h]);
  }
  stroke(): void {
    this.#record('stroke', []);
  }
  fill(): void {
    this.#record('fill', []);
  }
  save(): void {
    this.#record('save', []);
  }
  restore(): void {
    this.#record('restore', []);
  }
  setLineDash(segments: number[]): void {
    this.#record('setLineDash', [segments]);
  }
  translate(x: number, y: number): void {
    this.#record('translate', [x, y]);
  }
  scale(x: number, y: number): void {
    this.#record('scale', [x, y]);
  }
  setTransform(...args: number[]): void {
    this.#record('setTransform', args);
  }
  clip(): void {
    this.#record('clip', []);
  }
  createImageData(width: number, height: number): { width: number; height: number; data: Uint8ClampedArray } {
    return { width, height, data: new Uint8ClampedArray(width * height * 4) };
  }
  putImageData(image: { width: number; height: number; data: Uint8ClampedArray }, x: number, y: number): void {
    this.#record('putImageData', [image, x, y]);
  }
  drawImage(...args: unknown[]): void {
    this.#record('drawImage', args);
  }

  /** The recorded calls of one kind. */
  ops(op: string): Recorded[] {
    return this.calls.filter((call) => call.op === op);
  }
}

/** The recorder typed as the real context, for passing to draw functions (tests only). */
export function asContext(recorder: RecordingContext): CanvasRenderingContext2D {
  return recorder as unknown as CanvasRenderingContext2D;
}
