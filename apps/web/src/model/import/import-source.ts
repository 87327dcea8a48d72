import type { ImportSource } from './import-protocol.ts';

/** A source opened for reading: its name, its size when known (0 when not), and its bytes as they come. */
export interface OpenedSource {
  readonly name: string;
  readonly total: number;
  readonly reader: ReadableStreamDefaultReader<Uint8Array>;
}

/** Thrown when the agent refuses or cannot serve the file: its own words, which say what to do. */
export class SourceError extends Error {}

/** Opens a dropped File, or the agent's one file (pagelens open) with the token as a Bearer header. */
export async function openSource(source: ImportSource): Promise<OpenedSource> {
  if ('file' in source) return { name: source.file.name, total: source.file.size, reader: source.file.stream().getReader() };
  const response = await fetch(source.url, { headers: { Authorization: `Bearer ${source.token}` }, cache: 'no-store' });
  if (!response.ok || response.body === null) {
    const text = (await response.text().catch(() => '')).trim();
    throw new SourceError(`the agent did not serve ${source.name} (HTTP ${response.status}${text === '' ? '' : `: ${text}`})`);
  }
  const header = response.headers.get('X-PageLens-File-Name');
  const name = header === null ? source.name : decodeURIComponent(header);
  const total = Number(response.headers.get('Content-Length') ?? 0);
  return { name, total: Number.isFinite(total) ? total : 0, reader: response.body.getReader() };
}
