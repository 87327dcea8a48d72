import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

/*
 * Call sites: the return address each interposed call carries, turned into "file:line" with
 * addr2line when the program has debug info (-g), else left to the call's index. The mappings
 * are read from /proc/<pid>/maps while the program runs (same user; its own process).
 */

export interface Mapping {
  readonly start: number;
  readonly end: number;
  readonly offset: number;
  readonly path: string;
}

export function readMaps(pid: number): Mapping[] {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/maps`, 'utf8');
  } catch {
    return [];
  }
  const maps: Mapping[] = [];
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]+)-([0-9a-f]+) \S+ ([0-9a-f]+) \S+ \d+\s+(\/.*)$/.exec(line);
    if (match === null) continue;
    maps.push({
      start: Number.parseInt(match[1] ?? '0', 16),
      end: Number.parseInt(match[2] ?? '0', 16),
      offset: Number.parseInt(match[3] ?? '0', 16),
      path: match[4] ?? '',
    });
  }
  return maps;
}

/** ET_DYN (PIE, shared objects) are addressed relative to their load base; ET_EXEC by absolute address. */
function isPositionIndependent(path: string): boolean {
  try {
    const fd = openSync(path, 'r');
    const header = Buffer.alloc(18);
    readSync(fd, header, 0, 18, 0);
    closeSync(fd);
    return header.readUInt16LE(16) === 3;
  } catch {
    return true;
  }
}

/** "file.cpp:42" (or "function at file.cpp:42") for each address, or undefined where unknown. */
export function resolveSites(maps: readonly Mapping[], addresses: readonly number[]): Map<number, string> {
  const byFile = new Map<string, { address: number; query: number }[]>();
  for (const address of new Set(addresses)) {
    const mapping = maps.find((m) => m.start <= address && address < m.end);
    if (mapping === undefined) continue;
    const base = Math.min(...maps.filter((m) => m.path === mapping.path).map((m) => m.start - m.offset));
    // The return address is the instruction after the call: one byte back is inside the call.
    const query = (isPositionIndependent(mapping.path) ? address - base : address) - 1;
    const list = byFile.get(mapping.path) ?? [];
    list.push({ address, query });
    byFile.set(mapping.path, list);
  }
  const resolved = new Map<number, string>();
  for (const [file, list] of byFile) {
    let lines: string[];
    try {
      lines = execFileSync('addr2line', ['-e', file, '-C', '-f', ...list.map((item) => `0x${item.query.toString(16)}`)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).split('\n');
    } catch {
      continue;
    }
    list.forEach((item, index) => {
      const fn = lines[index * 2] ?? '??';
      const where = (lines[index * 2 + 1] ?? '??').replace(/ \(discriminator \d+\)$/, '');
      if (where.startsWith('??')) return;
      const short = where.replace(/^.*\//, '');
      resolved.set(item.address, fn === '??' ? short : `${short} (${fn})`);
    });
  }
  return resolved;
}
