/**
 * A fixed-size set of small integers with a one-level summary, so that the lowest and the highest
 * member are found in a few word operations even when the set is sparse (32,768 frames: 1,024
 * words and a 32-word summary). Used for free frames and partly used frames.
 */
export class Bitset {
  readonly size: number;
  readonly words: Uint32Array;
  /** Bit w of the summary is set when words[w] is non-zero. */
  readonly summary: Uint32Array;
  count = 0;

  constructor(size: number) {
    this.size = size;
    this.words = new Uint32Array(Math.ceil(size / 32));
    this.summary = new Uint32Array(Math.ceil(this.words.length / 32));
  }

  static copyOf(other: Bitset): Bitset {
    const copy = new Bitset(other.size);
    copy.words.set(other.words);
    copy.summary.set(other.summary);
    copy.count = other.count;
    return copy;
  }

  has(index: number): boolean {
    return ((this.words[index >>> 5] ?? 0) & (1 << (index & 31))) !== 0;
  }

  add(index: number): void {
    const w = index >>> 5;
    const before = this.words[w] ?? 0;
    const bit = 1 << (index & 31);
    if ((before & bit) !== 0) return;
    this.words[w] = before | bit;
    this.count += 1;
    if (before === 0) this.summary[w >>> 5] = (this.summary[w >>> 5] ?? 0) | (1 << (w & 31));
  }

  delete(index: number): void {
    const w = index >>> 5;
    const before = this.words[w] ?? 0;
    const bit = 1 << (index & 31);
    if ((before & bit) === 0) return;
    const after = before & ~bit;
    this.words[w] = after;
    this.count -= 1;
    if (after === 0) this.summary[w >>> 5] = (this.summary[w >>> 5] ?? 0) & ~(1 << (w & 31));
  }

  /** Adds [start, start + count): whole words at a time. */
  addRange(start: number, count: number): void {
    this.#setRange(start, count, true);
  }

  /** Removes [start, start + count). */
  deleteRange(start: number, count: number): void {
    this.#setRange(start, count, false);
  }

  #setRange(start: number, count: number, on: boolean): void {
    let index = start;
    const end = start + count;
    while (index < end) {
      const w = index >>> 5;
      const first = index & 31;
      const last = Math.min(31, first + (end - index) - 1);
      const mask = last - first === 31 ? 0xffffffff : ((1 << (last - first + 1)) - 1) << first;
      const before = this.words[w] ?? 0;
      const after = on ? (before | mask) >>> 0 : (before & ~mask) >>> 0;
      if (after !== before) {
        this.count += popcount(after) - popcount(before);
        this.words[w] = after;
        const s = w >>> 5;
        if (after === 0) this.summary[s] = (this.summary[s] ?? 0) & ~(1 << (w & 31));
        else this.summary[s] = (this.summary[s] ?? 0) | (1 << (w & 31));
      }
      index += last - first + 1;
    }
  }

  /** The smallest member ≥ `from`, or -1. */
  lowest(from = 0): number {
    if (from >= this.size) return -1;
    let w = from >>> 5;
    let word = (this.words[w] ?? 0) & (~0 << (from & 31));
    if (word !== 0) return (w << 5) + ctz(word);
    // Continue through the summary: the next non-empty word after w.
    w += 1;
    let s = w >>> 5;
    let summaryWord = (this.summary[s] ?? 0) & (w & 31 ? ~0 << (w & 31) : ~0);
    while (summaryWord === 0) {
      s += 1;
      if (s >= this.summary.length) return -1;
      summaryWord = this.summary[s] ?? 0;
    }
    w = (s << 5) + ctz(summaryWord);
    word = this.words[w] ?? 0;
    const index = (w << 5) + ctz(word);
    return index < this.size ? index : -1;
  }

  /** The largest member ≤ `from`, or -1. */
  highest(from = this.size - 1): number {
    if (from < 0) return -1;
    let w = from >>> 5;
    const keep = from & 31;
    let word = (this.words[w] ?? 0) & (keep === 31 ? ~0 : (1 << (keep + 1)) - 1);
    if (word !== 0) return (w << 5) + 31 - Math.clz32(word);
    w -= 1;
    if (w < 0) return -1;
    let s = w >>> 5;
    const keepWords = w & 31;
    let summaryWord = (this.summary[s] ?? 0) & (keepWords === 31 ? ~0 : (1 << (keepWords + 1)) - 1);
    while (summaryWord === 0) {
      s -= 1;
      if (s < 0) return -1;
      summaryWord = this.summary[s] ?? 0;
    }
    w = (s << 5) + 31 - Math.clz32(summaryWord);
    word = this.words[w] ?? 0;
    return (w << 5) + 31 - Math.clz32(word);
  }

  /**
   * The smallest non-member ≥ `from`, or `size` when every index from `from` on is a member: the
   * end of a stretch of consecutive members, found a word at a time.
   */
  lowestAbsent(from: number): number {
    if (from >= this.size) return this.size;
    let w = from >>> 5;
    let gaps = ~(this.words[w] ?? 0) & (~0 << (from & 31));
    while (gaps === 0) {
      w += 1;
      if (w >= this.words.length) return this.size;
      gaps = ~(this.words[w] ?? 0);
    }
    return Math.min(this.size, (w << 5) + ctz(gaps));
  }

  /** The largest non-member ≤ `from`, or -1 when every index up to `from` is a member. */
  highestAbsent(from: number): number {
    if (from < 0) return -1;
    let w = from >>> 5;
    const keep = from & 31;
    let gaps = ~(this.words[w] ?? 0) & (keep === 31 ? ~0 : (1 << (keep + 1)) - 1);
    while (gaps === 0) {
      w -= 1;
      if (w < 0) return -1;
      gaps = ~(this.words[w] ?? 0);
    }
    return (w << 5) + 31 - Math.clz32(gaps);
  }
}

/** Count of trailing zero bits of a non-zero 32-bit word. */
function ctz(word: number): number {
  return 31 - Math.clz32(word & -word);
}

/** Set bits of a 32-bit word. */
function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}
