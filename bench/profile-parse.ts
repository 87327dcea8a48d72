// Profiling aid (not a suite): writes a generated torch_npu snapshot and parses it once, so that
// `node --cpu-prof --import tsx bench/profile-parse.ts EVENTS [import]` shows where the reader (and
// with `import`, importSnapshot) spends its time.
import { closeSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ASCEND_910B2, importSnapshot, SnapshotLoader } from '@pagelens/core';
import { writePickleChunks } from '../packages/core/test/formats/pickle-writer.ts';
import { makeSnapshot } from '../packages/core/test/formats/snapshot-fixtures.ts';

const events = Number(process.argv[2] ?? 200_000);
const path = join(tmpdir(), `pagelens-profile-${events}.pickle`);
try {
  statSync(path);
} catch {
  const fixture = makeSnapshot({ flavour: 'torch_npu', events, devices: 1, framePool: 200_000, stackDepth: 56, liveTarget: 2000 });
  const fd = openSync(path, 'w');
  for (const chunk of writePickleChunks(fixture.data)) writeSync(fd, chunk);
  closeSync(fd);
}
const started = performance.now();
const cpu0 = process.cpuUsage();
const loader = new SnapshotLoader({ totalBytes: statSync(path).size });
const fd = openSync(path, 'r');
for (let position = 0; ; ) {
  const buffer = new Uint8Array(4 * 1024 * 1024);
  const read = readSync(fd, buffer, 0, buffer.length, position);
  if (read === 0) break;
  loader.push(read === buffer.length ? buffer : buffer.subarray(0, read));
  position += read;
}
closeSync(fd);
const parsed = performance.now();
const snapshot = loader.finish();
const done = performance.now();
const cpu = process.cpuUsage(cpu0);
process.stdout.write(
  `${statSync(path).size} bytes, ${snapshot.deviceTraces[0]?.length} entries: read ${(parsed - started).toFixed(0)} ms, normalise ${(done - parsed).toFixed(0)} ms, CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB\n`,
);
if (process.argv[3] === 'import') {
  const before = performance.now();
  const session = importSnapshot(snapshot, { profile: ASCEND_910B2, pageSize1g: false, name: 'profile.pickle' });
  process.stdout.write(`import: ${session.events.length} events in ${(performance.now() - before).toFixed(0)} ms\n`);
}
