/**
 * A map from non-negative safe integers to values, for the range allocator's boundary lookups:
 * open addressing with linear probing and backward-shift deletion. Deleting leaves no tombstone,
 * so the table is rebuilt only when it grows. (A JavaScript Map keeps deleted entries until its
 * table is full and then rebuilds it; keys that come and go by the million, as hole boundaries
 * do, made that rebuilding and its garbage the allocator's main cost.)
 */
const EMPTY = -1;
const GOLDEN = 0x9e3779b1;

/** Values are objects (never undefined), so an empty slot needs no second marker. */
export class IntMap<V extends object> {
  #keys: Float64Array;
  #values: (V | undefined)[];
  /** 32 − log2(capacity): the hash keeps the top bits of a multiplicative mix. */
  #shift: number;
  #size = 0;

  constructor() {
    this.#keys = new Float64Array(16).fill(EMPTY);
    this.#values = new Array<V | undefined>(16).fill(undefined);
    this.#shift = 28;
  }

  get size(): number {
    return this.#size;
  }

  #home(key: number): number {
    // Both 32-bit halves take part: keys reach 2^38 (the host windows count in 16-byte units).
    return Math.imul((key >>> 0) ^ Math.floor(key / 0x1_0000_0000), GOLDEN) >>> this.#shift;
  }

  /** The slot holding `key`, or the empty slot where it would go. */
  #slot(key: number): number {
    const mask = this.#keys.length - 1;
    let slot = this.#home(key);
    for (;;) {
      const found = this.#keys[slot];
      if (found === key || found === EMPTY) return slot;
      slot = (slot + 1) & mask;
    }
  }

  get(key: number): V | undefined {
    const slot = this.#slot(key);
    return this.#keys[slot] === key ? this.#values[slot] : undefined;
  }

  set(key: number, value: V): void {
    const slot = this.#slot(key);
    this.#values[slot] = value;
    if (this.#keys[slot] === key) return;
    this.#keys[slot] = key;
    this.#size += 1;
    // Kept at most half full, so probes stay short.
    if (this.#size * 2 > this.#keys.length) this.#grow();
  }

  delete(key: number): boolean {
    let hole = this.#slot(key);
    if (this.#keys[hole] !== key) return false;
    const mask = this.#keys.length - 1;
    // Backward shift: move up each later entry of the probe run that may fill the gap.
    for (let next = (hole + 1) & mask; ; next = (next + 1) & mask) {
      const moving = this.#keys[next] ?? EMPTY;
      if (moving === EMPTY) break;
      const home = this.#home(moving);
      // `moving` may fill the gap unless its home lies cyclically in (hole, next].
      const stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
      if (stays) continue;
      this.#keys[hole] = moving;
      this.#values[hole] = this.#values[next];
      hole = next;
    }
    this.#keys[hole] = EMPTY;
    this.#values[hole] = undefined;
    this.#size -= 1;
    return true;
  }

  /** The values, in no particular order. */
  *values(): IterableIterator<V> {
    for (let slot = 0; slot < this.#keys.length; slot += 1) {
      const value = this.#values[slot];
      if (this.#keys[slot] !== EMPTY && value !== undefined) yield value;
    }
  }

  #grow(): void {
    const keys = this.#keys;
    const values = this.#values;
    this.#keys = new Float64Array(keys.length * 2).fill(EMPTY);
    this.#values = new Array<V | undefined>(keys.length * 2).fill(undefined);
    this.#shift -= 1;
    this.#size = 0;
    for (let slot = 0; slot < keys.length; slot += 1) {
      const key = keys[slot] ?? EMPTY;
      const value = values[slot];
      if (key !== EMPTY && value !== undefined) this.set(key, value);
    }
  }
}
