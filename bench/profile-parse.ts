// Profiling aid (not a suite): writes a generated torch_npu snapshot and parses it once, so that
// `node --cpu-prof --import tsx bench/profile-parse.ts EVENTS [import]` shows where the reader (and
// with `import`, importSnapshot) spends its time.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { ASCEND_910B2, importSnapshot, SnapshotLoader } from '@pagelens/core';
import { snapshotFile } from './suites/formats-fixture.ts';

const events = Number(process.argv[2] ?? 200_000);
// The formats suite's file when EVENTS is 1,000,000 (written once, then reused).
const { path } = snapshotFile({ flavour: 'torch_npu', events, devices: 1, framePool: 200_000, stackDepth: 56, liveTarget: 2000 });
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
