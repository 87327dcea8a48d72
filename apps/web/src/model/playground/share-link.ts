import { type Checked, docData, type PlaygroundDoc, parseDoc } from './playground-doc.ts';

/**
 * A scenario in a URL hash: `#playground=z<base64url of deflate-raw(JSON)>` (or `j<base64url of
 * JSON>` where the platform cannot compress). The hash never reaches a server, and the link leaves
 * out the page's query, so the agent's access token is never shared by accident.
 */
export const SHARE_KEY = 'playground';

/** Longest hash accepted (characters) and largest JSON it may inflate to (bytes): against link bombs. */
export const MAX_LINK_CHARS = 200_000;
export const MAX_JSON_BYTES = 400_000;

const COMPRESSED = 'z';
const PLAIN = 'j';

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    const binary = atob(padded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

/** Reads a stream to its end, or gives up (undefined) once it passes `limit` bytes. */
async function collect(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function through(bytes: Uint8Array, transform: CompressionStream | DecompressionStream): ReadableStream<Uint8Array> {
  const source = new Blob([new Uint8Array(bytes)]).stream();
  return source.pipeThrough(transform);
}

function canCompress(): boolean {
  return typeof CompressionStream === 'function' && typeof DecompressionStream === 'function';
}

/** The hash fragment (without `#`) that carries `doc`. */
export async function encodeShare(doc: PlaygroundDoc): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(docData(doc)));
  if (!canCompress()) return `${SHARE_KEY}=${PLAIN}${toBase64Url(json)}`;
  const packed = await collect(through(json, new CompressionStream('deflate-raw')), Number.MAX_SAFE_INTEGER);
  return `${SHARE_KEY}=${COMPRESSED}${toBase64Url(packed ?? new Uint8Array())}`;
}

/** The page's own address (origin and path, no query, so no token) with the scenario in its hash. */
export function shareUrl(pageUrl: string, fragment: string): string {
  const url = new URL(pageUrl);
  return `${url.origin}${url.pathname}#${fragment}`;
}

/** The encoded scenario in a full link, a `#…` hash or a bare `playground=…`; undefined when there is none. */
export function findSharePayload(text: string): string | undefined {
  const trimmed = text.trim();
  const hashAt = trimmed.indexOf('#');
  const hash = hashAt >= 0 ? trimmed.slice(hashAt + 1) : trimmed;
  for (const part of hash.split('&')) {
    if (part.startsWith(`${SHARE_KEY}=`)) return part.slice(SHARE_KEY.length + 1);
  }
  return undefined;
}

/** Reads a shared scenario back; anything malformed, oversized or not a scenario is refused with a reason. */
export async function decodeShare(text: string): Promise<Checked<PlaygroundDoc>> {
  const payload = findSharePayload(text);
  if (payload === undefined) return { ok: false, problem: { key: 'notALink' } };
  if (payload.length > MAX_LINK_CHARS) return { ok: false, problem: { key: 'linkTooLong', values: { max: MAX_LINK_CHARS } } };
  const format = payload.slice(0, 1);
  if (format !== COMPRESSED && format !== PLAIN) return { ok: false, problem: { key: 'linkVersion', values: { format } } };
  const bytes = fromBase64Url(payload.slice(1));
  if (bytes === undefined) return { ok: false, problem: { key: 'linkEncoding' } };
  let json: Uint8Array | undefined = bytes;
  if (format === COMPRESSED) {
    if (!canCompress()) return { ok: false, problem: { key: 'linkCompression' } };
    try {
      json = await collect(through(bytes, new DecompressionStream('deflate-raw')), MAX_JSON_BYTES);
    } catch {
      return { ok: false, problem: { key: 'linkCompression' } };
    }
  }
  if (json === undefined || json.byteLength > MAX_JSON_BYTES) {
    return { ok: false, problem: { key: 'linkTooLarge', values: { max: MAX_JSON_BYTES } } };
  }
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  } catch {
    return { ok: false, problem: { key: 'linkJson' } };
  }
  return parseDoc(data);
}
