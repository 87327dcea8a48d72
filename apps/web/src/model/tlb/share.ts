import { percent } from '../format.ts';

/**
 * A fraction as a percentage that never rounds a real share to "0%" or "100%": 1 GiB of 4 KiB
 * pages against 1,024 entries is 0.0061%, and 32 misses in 32,768 accesses is 99.9%, not 100%.
 */
export function share(fraction: number): string {
  if (fraction > 0 && fraction < 0.001) return `${(fraction * 100).toPrecision(2)}%`;
  if (fraction < 1 && fraction >= 0.995) {
    for (let digits = 1; digits <= 3; digits += 1) {
      const text = (fraction * 100).toFixed(digits);
      if (!text.startsWith('100')) return `${text}%`;
    }
    return '>99.999%';
  }
  return percent(fraction);
}
