import { formatBytes, formatInteger, toHex, type UnitSystem } from '@pagelens/core';

export type AddressFormat = 'hex' | 'dec';

/** Display preferences every formatter takes (from the ui slice). */
export interface FormatPrefs {
  readonly units: UnitSystem;
  readonly addresses: AddressFormat;
}

export function bytes(value: number, prefs: FormatPrefs): string {
  return formatBytes(value, prefs.units);
}

/** Exact byte count with separators: "1,048,608 B". */
export function exactBytes(value: number): string {
  return `${formatInteger(value)} B`;
}

export function address(value: number, prefs: FormatPrefs): string {
  return prefs.addresses === 'hex' ? toHex(value) : formatInteger(value);
}

/** Nanoseconds as the most readable unit: "850 ns", "12.5 µs", "46.7 ms", "1.20 s". */
export function duration(ns: number): string {
  if (ns < 1000) return `${Math.round(ns)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toPrecision(3)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toPrecision(3)} ms`;
  return `${(ns / 1e9).toPrecision(3)} s`;
}

/** Bytes per second: "55.3 GB/s" (bandwidths are quoted in decimal units everywhere). */
export function rate(bytesPerSec: number): string {
  if (bytesPerSec >= 1e9) return `${(bytesPerSec / 1e9).toFixed(1)} GB/s`;
  if (bytesPerSec >= 1e6) return `${(bytesPerSec / 1e6).toFixed(1)} MB/s`;
  return `${Math.round(bytesPerSec)} B/s`;
}

export function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(fraction >= 0.995 || fraction === 0 ? 0 : 1)}%`;
}
