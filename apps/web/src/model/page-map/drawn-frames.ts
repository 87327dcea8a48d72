import type { FrameTable } from '@pagelens/core';
import type { MapSelection } from './selection.ts';

type Typed = Uint8Array | Uint16Array | Int32Array;

/** The bytes of a typed array as 32-bit words where they align (one loop shape for every table field), else as bytes. */
function words(array: Typed): Int32Array | Uint8Array {
  const { buffer, byteOffset, byteLength } = array;
  return byteOffset % 4 === 0 && byteLength % 4 === 0
    ? new Int32Array(buffer, byteOffset, byteLength / 4)
    : new Uint8Array(buffer, byteOffset, byteLength);
}

function sameWords(a: Int32Array | Uint8Array, b: Int32Array | Uint8Array): boolean {
  if (a.length !== b.length || a.BYTES_PER_ELEMENT !== b.BYTES_PER_ELEMENT) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

function sameArray(a: Typed | undefined, b: Typed): boolean {
  return a !== undefined && a.length === b.length && sameWords(words(a), words(b));
}

/**
 * What the page map's frame table held when the map was last drawn. A step of the time cursor makes
 * a new table (another state), but most steps of a recorded job change blocks inside segments, not
 * frames: when the new table holds the same as the last drawn, the canvas is left as it is (redrawing
 * it cost about 4 ms a step: rasterising, scaling, and handing the bitmap to the compositor).
 */
export class DrawnFrames {
  #kind: Uint8Array | undefined;
  #owner: Int32Array | undefined;
  #used: Uint16Array | undefined;
  #pages = new Map<number, Int32Array>();

  /** True when `table` holds exactly what the last remembered table held. */
  same(table: FrameTable): boolean {
    if (!sameArray(this.#kind, table.kind) || !sameArray(this.#owner, table.owner) || !sameArray(this.#used, table.used)) return false;
    if (this.#pages.size !== table.pages.size) return false;
    for (const [frame, owners] of table.pages) if (!sameArray(this.#pages.get(frame), owners)) return false;
    return true;
  }

  remember(table: FrameTable): void {
    this.#kind = table.kind.slice();
    this.#owner = table.owner.slice();
    this.#used = table.used.slice();
    this.#pages = new Map([...table.pages].map(([frame, owners]) => [frame, owners.slice()]));
  }
}

/** Whether two selections outline and colour the same frames and pages. */
export function sameSelection(a: MapSelection | undefined, b: MapSelection | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  if (a.first !== b.first || a.frameCount !== b.frameCount || a.owners.size !== b.owners.size) return false;
  for (const owner of a.owners) if (!b.owners.has(owner)) return false;
  return sameArray(a.frames, b.frames);
}
