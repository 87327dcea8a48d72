/**
 * UTF-8 to a JS string and back without TextDecoder/TextEncoder (core has no DOM or Node types). Snapshot strings are
 * mostly ASCII file and function names, so ASCII takes one String.fromCharCode per 4,096 bytes;
 * anything else is decoded by code point. Invalid sequences become U+FFFD, as TextDecoder does by
 * default; CPython writes surrogates with "surrogatepass", which decode as the surrogate itself.
 */
const CHUNK = 4096;

export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  let i = start;
  while (i < end && (bytes[i] ?? 0) < 0x80) i += 1;
  if (i === end) return ascii(bytes, start, end);
  return ascii(bytes, start, i) + decodeFrom(bytes, i, end);
}

/**
 * One plain array per short length, reused: fromCharCode over a packed array costs a third of the
 * same call over a fresh subarray, and a CSV reader decodes millions of short fields one by one.
 */
const SHORT = 256;
const scratch: number[][] = Array.from({ length: SHORT + 1 }, (_, n) => new Array<number>(n).fill(0));

function ascii(bytes: Uint8Array, start: number, end: number): string {
  const units = scratch[end - start];
  if (units !== undefined) {
    for (let k = 0; k < units.length; k += 1) units[k] = bytes[start + k] ?? 0;
    return Reflect.apply(String.fromCharCode, null, units);
  }
  if (end - start <= CHUNK) return Reflect.apply(String.fromCharCode, null, bytes.subarray(start, end));
  let out = '';
  for (let at = start; at < end; at += CHUNK)
    out += Reflect.apply(String.fromCharCode, null, bytes.subarray(at, Math.min(end, at + CHUNK)));
  return out;
}

function decodeFrom(bytes: Uint8Array, start: number, end: number): string {
  const units: number[] = [];
  let out = '';
  let i = start;
  while (i < end) {
    const b0 = bytes[i] ?? 0;
    let cp = 0xfffd;
    let used = 1;
    if (b0 < 0x80) {
      cp = b0;
    } else if (b0 >= 0xc2 && b0 < 0xe0) {
      const b1 = bytes[i + 1] ?? 0;
      if (i + 1 < end && (b1 & 0xc0) === 0x80) {
        cp = ((b0 & 0x1f) << 6) | (b1 & 0x3f);
        used = 2;
      }
    } else if (b0 >= 0xe0 && b0 < 0xf0) {
      const b1 = bytes[i + 1] ?? 0;
      const b2 = bytes[i + 2] ?? 0;
      if (i + 2 < end && (b1 & 0xc0) === 0x80 && (b2 & 0xc0) === 0x80) {
        const value = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
        if (value >= 0x800) {
          cp = value;
          used = 3;
        }
      }
    } else if (b0 >= 0xf0 && b0 < 0xf5) {
      const b1 = bytes[i + 1] ?? 0;
      const b2 = bytes[i + 2] ?? 0;
      const b3 = bytes[i + 3] ?? 0;
      if (i + 3 < end && (b1 & 0xc0) === 0x80 && (b2 & 0xc0) === 0x80 && (b3 & 0xc0) === 0x80) {
        const value = ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
        if (value >= 0x10000 && value <= 0x10ffff) {
          cp = value;
          used = 4;
        }
      }
    }
    if (cp > 0xffff) {
      const v = cp - 0x10000;
      units.push(0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff));
    } else {
      units.push(cp);
    }
    i += used;
    if (units.length >= CHUNK) {
      out += Reflect.apply(String.fromCharCode, null, units);
      units.length = 0;
    }
  }
  return out + Reflect.apply(String.fromCharCode, null, units);
}

/** A JS string as UTF-8, as TextEncoder writes it (a lone surrogate becomes U+FFFD). */
export function encodeUtf8(text: string): Uint8Array {
  // At most 3 bytes per UTF-16 unit (a surrogate pair: 4 bytes for 2 units).
  const out = new Uint8Array(text.length * 3);
  let n = 0;
  for (let i = 0; i < text.length; i += 1) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdfff) {
      const low = text.charCodeAt(i + 1);
      if (cp <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        i += 1;
      } else {
        cp = 0xfffd;
      }
    }
    if (cp < 0x80) {
      out[n++] = cp;
    } else if (cp < 0x800) {
      out[n++] = 0xc0 | (cp >> 6);
      out[n++] = 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
      out[n++] = 0xe0 | (cp >> 12);
      out[n++] = 0x80 | ((cp >> 6) & 0x3f);
      out[n++] = 0x80 | (cp & 0x3f);
    } else {
      out[n++] = 0xf0 | (cp >> 18);
      out[n++] = 0x80 | ((cp >> 12) & 0x3f);
      out[n++] = 0x80 | ((cp >> 6) & 0x3f);
      out[n++] = 0x80 | (cp & 0x3f);
    }
  }
  return out.subarray(0, n);
}
