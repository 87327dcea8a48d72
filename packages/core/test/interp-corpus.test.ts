import { afterAll, describe, expect, it } from 'vitest';
import { ACL_FUNCTION_NAMES } from '../src/acl/functions.ts';
import { compile } from '../src/interp/compile.ts';
import { Execution } from '../src/interp/execution.ts';
import { ASCEND_910B2 } from '../src/profiles/builtin.ts';
import { SimHost } from '../src/sim/sim-host.ts';
import { SimRuntime } from '../src/sim/sim-runtime.ts';
import { MiB } from '../src/units/bytes.ts';
import { type Harness, harness, runToEnd, shown } from './interp-helpers.ts';

/** Every catalogue function some snippet of this file called: checked at the end against the catalogue. */
const called = new Set<string>();
const track = (h: Harness) => {
  for (const call of h.ex.calls) called.add(call.fn);
  return h;
};
const run = async (code: string, options: Parameters<typeof runToEnd>[1] = {}) => track(await runToEnd(code, options));
const DEVICE = 'aclInit(nullptr);\naclrtSetDevice(0);';
const values = (h: Harness, ...names: string[]) => names.map((name) => shown(h.ex, name));

describe('C semantics', () => {
  it('integer arithmetic wraps and converts as C does on LP64', async () => {
    const h = await run(`
uint32_t wrapped = 0U - 1U;
int64_t quotient = -7 / 2;
int64_t remainder = -7 % 2;
size_t shifted = 1UL << 40;
uint64_t hex = 0x10ULL * 3;
int allOnes = ~0;
uint8_t narrowed = 300;
int mixed = -1 < 0U;
int truncated = (int)3.9f;
int precedence = 2 + 3 * 4 << 1;
uint64_t big = 18446744073709551615ULL;
uint64_t bigPlusOne = big + 1;
int64_t widened = (int64_t)2147483647 + 1;
unsigned long long spelled = 5;
long l = 4L;`);
    expect(
      values(h, 'wrapped', 'quotient', 'remainder', 'shifted', 'hex', 'allOnes', 'narrowed', 'mixed', 'truncated', 'precedence'),
    ).toEqual(['4294967295', '-3', '-1', '1099511627776 (1 TiB)', '48', '-1', '44', '0', '3', '28']);
    expect(values(h, 'big', 'bigPlusOne', 'widened', 'spelled', 'l')).toEqual(['18446744073709551615', '0', '2147483648', '5', '4']);
  });

  it('re-associates what @lezer/cpp groups differently: `>`, `?:`, casts, sizeof and `*p =`', async () => {
    const h = await run(`
int a = 1;
int b = 2;
int c = 3;
int d = 2;
int both = a < b && c > d;
int bigger = a > b;
int pick = a < b ? 10 : 20;
int nested = a > b ? 1 : c > d ? 2 : 3;
size_t cast = (size_t)a + b;
size_t measured = sizeof a + 1;
int flipped = ~a + 1;
int masked = c & ~a;
int x = 0;
int* p = &x;
*p = 5;
*p += 2;
int y = *p * 2;`);
    expect(values(h, 'both', 'bigger', 'pick', 'nested', 'cast', 'measured', 'flipped', 'masked', 'x', 'y')).toEqual([
      '1',
      '0',
      '10',
      '2',
      '3',
      '5',
      '-1',
      '2',
      '7',
      '14',
    ]);
  });

  it('assignment, compound assignment, ++/--, comma and logical short-circuit', async () => {
    const h = await run(`
int x = 0;
int y = 0;
x = y = 5;
x += 3;
x <<= 2;
x |= 1;
x ^= 3;
x %= 7;
int pre = ++y;
int post = y++;
int dec = --y;
int z = (x = 1, x + 1);
int calls = 0;
int guarded = 0 && (calls = 1);
int either = 1 || (calls = 2);`);
    expect(values(h, 'x', 'y', 'pre', 'post', 'dec', 'z', 'calls', 'guarded', 'either')).toEqual([
      '1',
      '6',
      '6',
      '6',
      '6',
      '2',
      '0',
      '0',
      '1',
    ]);
  });

  it('sizeof of scalars, ACL structs (acl-api.md §4), variables, arrays and expressions', async () => {
    const h = await run(`
aclrtPhysicalMemProp prop = {};
aclrtMallocAttribute attrs[3] = {};
size_t s1 = sizeof(float);
size_t s2 = sizeof(aclrtPhysicalMemProp);
size_t s3 = sizeof(aclrtMemAccessDesc);
size_t s4 = sizeof(aclrtMallocAttribute);
size_t s5 = sizeof(aclrtMallocConfig);
size_t s6 = sizeof(prop);
size_t s7 = sizeof attrs / sizeof attrs[0];
size_t s8 = sizeof(void*) + sizeof(aclrtStream) + sizeof(size_t);
size_t s9 = sizeof(prop.location);
size_t s10 = sizeof(aclrtMemMallocPolicy);
size_t s11 = sizeof(int[4]);`);
    expect(values(h, 's1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9', 's10', 's11')).toEqual([
      '4',
      '32',
      '24',
      '12',
      '16',
      '32',
      '3',
      '24',
      '8',
      '4',
      '16',
    ]);
  });

  it('control flow: for, while, do/while, break, continue, nested if/else if/else', async () => {
    const h = await run(`
int sum = 0;
for (int i = 0; i < 10; ++i) {
    if (i == 2) continue;
    if (i == 6) break;
    sum += i;
}
int n = 0;
while (n < 5) n++;
int m = 10;
do { m -= 3; } while (m > 0);
int kind = 0;
if (sum > 100) kind = 1;
else if (sum == 13) kind = 2;
else kind = 3;
int loops = 0;
for (;;) { if (++loops == 4) break; }`);
    expect(values(h, 'sum', 'n', 'm', 'kind', 'loops')).toEqual(['13', '5', '-2', '2', '4']);
  });

  it('const, constexpr, auto, bool, float and double', async () => {
    const h = await run(`
const size_t kib = 1024;
constexpr uint64_t mib = kib * 1024;
auto twice = mib * 2;
bool yes = 42;
float half = 0.5f;
double third = 1.0 / 3;
float mixed = half * 3;
int rounded = (int)(third * 9);
aclrtMemLocation original = {};
auto copied = original;
copied.id = 5;
aclrtMemLocation assigned = {};
assigned = copied;
assigned.id = 6;`);
    expect(values(h, 'original', 'copied', 'assigned')).toEqual([
      '{id = 0, type = 0 (ACL_MEM_LOCATION_TYPE_HOST)}',
      '{id = 5, type = 0 (ACL_MEM_LOCATION_TYPE_HOST)}',
      '{id = 6, type = 0 (ACL_MEM_LOCATION_TYPE_HOST)}',
    ]);
    expect(values(h, 'kib', 'mib', 'twice', 'yes', 'half', 'mixed', 'rounded')).toEqual([
      '1024 (1 KiB)',
      '1048576',
      '2097152',
      'true',
      '0.5',
      '1.5',
      '3',
    ]);
    expect(h.ex.variables().find((v) => v.name === 'twice')?.type).toBe('uint64_t');
    expect(h.ex.variables().find((v) => v.name === 'third')?.value).toBe(String(1 / 3));
  });

  it('functions defined in the code: arguments by value, return values, recursion', async () => {
    const h = await run(`
size_t alignUp(size_t size, size_t granularity) {
    return ((size + granularity - 1) / granularity) * granularity;
}
int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }
int main(void) {
    size_t aligned = alignUp(4096, 2 * 1024 * 1024);
    int f = factorial(10);
    return f % 256;
}`);
    expect(h.ex.exitCode).toBe(3628800 % 256);
    expect(h.ex.variables().map((v) => [v.name, v.value, v.frame])).toEqual([
      ['aligned', '2097152 (2 MiB)', 'main'],
      ['f', '3628800', 'main'],
    ]);
  });

  it('#define constants and skipped #include lines', async () => {
    const code =
      '#include "acl/acl.h"\n#define N 16\n#define BYTES (N * sizeof(float))\nint main(void) { size_t bytes = BYTES; return 0; }';
    const h = await run(code);
    expect(shown(h.ex, 'bytes')).toBe('64');
    expect(h.ex.lineMarks.get(1)?.notes).toEqual(['#include "acl/acl.h" is skipped: the ACL declarations are built into PageLens']);
  });
});

describe('stepping', () => {
  const code = `int helper(int x) {
    int y = x * 2;
    return y + 1;
}
int main(void) {
    int a = helper(1);
    int b = helper(a);
    for (int i = 0; i < 2; i++) a += i;
    return b;
}`;

  it('step enters functions, stepOver runs them whole, stepOut returns to the caller', async () => {
    const { ex } = harness(code);
    expect(ex.state).toBe('ready');
    expect(await ex.step()).toEqual({ state: 'paused', line: 6 });
    expect((await ex.step()).line).toBe(2);
    // Paused before `int y = …`: only the parameter exists yet.
    expect(ex.variables().map((v) => [v.name, v.value, v.scope, v.frame])).toEqual([['x', '1', 'param', 'helper']]);
    expect((await ex.stepOut()).line).toBe(7);
    expect(shown(ex, 'a')).toBe('3');
    expect((await ex.stepOver()).line).toBe(8);
    expect(shown(ex, 'b')).toBe('7');
    // The loop header is a step each iteration; its one-line body runs within it.
    expect(shown(ex, 'i')).toBeUndefined();
    expect((await ex.step()).line).toBe(8);
    expect(shown(ex, 'i')).toBe('0');
    expect((await ex.step()).line).toBe(8);
    expect(shown(ex, 'i')).toBe('1');
    expect((await ex.step()).line).toBe(9);
    expect(ex.lineMarks.get(8)?.hits).toBe(3);
    expect(await ex.step()).toEqual({ state: 'finished', line: undefined, exitCode: 7 });
    expect(ex.variables().map((v) => v.name)).toEqual(['a', 'b']);
  });

  it('runToLine, breakpoints and stop', async () => {
    const { ex } = harness(code, { breakpoints: [3] });
    expect(await ex.runToLine(7)).toEqual({ state: 'paused', line: 3 });
    expect(await ex.run()).toEqual({ state: 'paused', line: 3 });
    ex.breakpoints.clear();
    expect(await ex.runToLine(9)).toEqual({ state: 'paused', line: 9 });
    ex.stop();
    expect(ex.state).toBe('finished');
    expect(await ex.step()).toEqual({ state: 'finished', line: undefined });
  });

  it('awaits the injected yieldControl every 2,000 statements of a long run', async () => {
    let yields = 0;
    const { ex } = harness('int n = 0;\nwhile (n < 2500) n++;', {
      yieldControl: () => {
        yields += 1;
        return Promise.resolve();
      },
    });
    expect(await ex.run()).toEqual({ state: 'finished', line: undefined });
    expect(ex.steps).toBe(2502);
    expect(yields).toBe(1);
  });

  it('refuses a second step while one is running', async () => {
    const { ex } = harness(code);
    const first = ex.step();
    await expect(ex.step()).rejects.toThrow('the execution is already running: await the previous step first');
    await first;
  });
});

describe('ACL calls through AclRuntime', () => {
  it('DM-2: a NULL out-pointer returns 100000 without calling the runtime', async () => {
    const h = await run('aclError ret = aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST);', { setup: DEVICE });
    expect(shown(h.ex, 'ret')).toBe('100000');
    const mark = h.ex.lineMarks.get(1);
    const message =
      'devPtr is NULL: aclrtMalloc has nowhere to write its result and returns ACL_ERROR_INVALID_PARAM (DM-2); PageLens did not call the runtime';
    expect(mark?.calls).toEqual([{ fn: 'aclrtMalloc', ret: 100000, retName: 'ACL_ERROR_INVALID_PARAM', message }]);
    expect(mark?.notes).toEqual([message]);
    expect(h.events.filter((e) => e.kind === 'call').map((e) => (e.kind === 'call' ? e.fn : ''))).toEqual(['aclInit', 'aclrtSetDevice']);
  });

  it('the run mode: a simulated program runs on the host (ACL_HOST), even before aclInit as samples ask it', async () => {
    const h = await run(`
aclrtRunMode mode = ACL_DEVICE;
aclError ret = aclrtGetRunMode(&mode);
bool onHost = mode == ACL_HOST;`);
    expect(values(h, 'mode', 'ret', 'onHost')).toEqual(['1 (ACL_HOST)', '0', 'true']);
  });

  it('device and process calls: get device, count, SoC name, synchronize, reset force, finalize, recent error', async () => {
    const h = await run(
      `
int32_t device = -1;
uint32_t count = 0;
aclrtGetDevice(&device);
aclrtGetDeviceCount(&count);
const char* soc = aclrtGetSocName();
aclrtSynchronizeDevice();
void* p = nullptr;
aclError bad = aclrtFree(p);
const char* why = aclGetRecentErrMsg();
aclInit(nullptr); aclError again = aclInit(nullptr);
aclrtResetDeviceForce(0);
aclFinalize();`,
      { setup: DEVICE, devices: [ASCEND_910B2, ASCEND_910B2] },
    );
    expect(values(h, 'device', 'count', 'soc', 'bad', 'again')).toEqual(['0', '2', '"Ascend910B2"', '100000', '100002']);
    expect(shown(h.ex, 'why')).toBe('"devPtr is NULL: aclrtFree(NULL) is an error, not a no-op (DM-13)"');
    expect(h.ex.calls.filter((c) => c.ret !== 0).map((c) => [c.line, c.fn, c.retName])).toEqual([
      [9, 'aclrtFree', 'ACL_ERROR_INVALID_PARAM'],
      [11, 'aclInit', 'ACL_ERROR_REPEAT_INITIALIZE'],
    ]);
  });

  it('a whole lifecycle: streams, pinned memory, sync and async copies, Align32, reset', async () => {
    const h = await run(`
int main(void) {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    void* host = nullptr;
    aclrtMallocHost(&host, 1024);
    void* a = nullptr;
    void* b = nullptr;
    aclrtMallocAlign32(&a, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMallocAlign32(&b, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(a, 1024, host, 1024, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpyAsync(b, 1024, a, 1024, ACL_MEMCPY_DEVICE_TO_DEVICE, stream);
    aclError ret = aclrtSynchronizeStream(stream);
    ret = aclrtSynchronizeStreamWithTimeout(stream, 100);
    aclrtFree(a);
    aclrtFree(b);
    aclrtFreeHost(host);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    return aclFinalize();
}`);
    expect(h.ex.exitCode).toBe(0);
    expect(h.ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
    expect(h.host.state.copies.map((c) => [c.bytes, c.path, c.mode])).toEqual([
      [1024, 'pinned', 'sync'],
      [1024, 'device', 'async'],
    ]);
  });

  it('the device allocators: aclrtMallocCached, aclrtMallocWithCfg with a bandwidth hint, aclrtMemset, aclrtGetMemInfo', async () => {
    const h = await run(
      `
size_t before = 0;
size_t total = 0;
aclrtGetMemInfo(ACL_HBM_MEM, &before, &total);
void* cached = nullptr;
aclrtMallocCached(&cached, 3 * 1024 * 1024, ACL_MEM_MALLOC_HUGE_ONLY);
aclrtMallocAttribute attrs[1] = {};
attrs[0].attr = ACL_RT_MEM_ATTR_MODULE_ID;
attrs[0].value.moduleId = 33;
aclrtMallocConfig cfg = {attrs, 1};
void* hinted = nullptr;
aclError ret = aclrtMallocWithCfg(&hinted, 4096, ACL_MEM_MALLOC_NORMAL_ONLY | ACL_MEM_TYPE_HIGH_BAND_WIDTH, &cfg);
aclrtMemset(hinted, 4096, 0xff, 4096);
size_t after = 0;
aclrtGetMemInfo(ACL_HBM_MEM, &after, &total);
size_t used = before - after;
aclrtFree(cached);
aclrtFree(hinted);`,
      { setup: DEVICE },
    );
    expect(h.ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
    // formatBytes rounds to two decimals: 4,198,400 B shows as 4 MiB next to the exact count.
    expect(shown(h.ex, 'used')).toBe(`${4 * MiB + 4096} (4 MiB)`);
    const call = h.events.find((e) => e.kind === 'call' && e.fn === 'aclrtMallocWithCfg');
    expect(call?.kind === 'call' ? call.args : undefined).toEqual({
      size: 4096,
      policy: 0x1002,
      cfg: { attrs: [{ attr: 1, value: { moduleId: 33 } }], numAttrs: 1 },
    });
    expect(h.events.filter((e) => e.kind === 'memset').map((e) => (e.kind === 'memset' ? [e.count, e.value] : []))).toEqual([[4096, 255]]);
  });

  it('host memory: malloc/free, aclrtMallocHostWithCfg, register/unregister, device pointers, pointer attributes', async () => {
    const h = await run(
      `
void* pageable = malloc(size);
aclrtPtrAttributes attr = {};
aclrtPointerGetAttributes(pageable, &attr);
uint32_t pageableType = attr.location.type;
aclrtHostRegisterV2(pageable, size, ACL_HOST_REG_PINNED | ACL_HOST_REG_MAPPED);
void* dev = nullptr;
aclrtHostGetDevicePointer(pageable, &dev, 0);
aclrtHostUnregister(pageable);
free(pageable);
aclrtMallocConfig cfg = {};
void* pinned = nullptr;
aclrtMallocHostWithCfg(&pinned, size, &cfg);
void* pinnedDev = nullptr;
aclrtHostRegister(pinned, size, ACL_HOST_REGISTER_MAPPED, &pinnedDev);
aclrtPointerGetAttributes(pinned, &attr);
aclrtHostUnregister(pinned);
aclrtFreeHost(pinned);`,
      { setup: DEVICE, inputs: [{ name: 'size', ctype: 'size_t', value: '64 KiB' }] },
    );
    expect(h.ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
    expect(shown(h.ex, 'pageableType')).toBe('2');
    expect(shown(h.ex, 'attr')).toBe('{location = {id = 0, type = 0 (ACL_MEM_LOCATION_TYPE_HOST)}, pageSize = 4096, rsv = {0, 0, 0, 0}}');
    expect(shown(h.ex, 'dev')).not.toBe('NULL');
    expect(shown(h.ex, 'pinnedDev')).not.toBe(shown(h.ex, 'pinned'));
    expect(h.host.state.hostBuffers.size).toBe(0);
  });

  it('VMM: access descriptors as an array, aclrtMemGetAccess, deferred free (VM-7, VM-8)', async () => {
    const h = await run(
      `
aclrtPhysicalMemProp prop = {};
prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
prop.memAttr = ACL_HBM_MEM_NORMAL;
prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
size_t g = 0;
aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g);
aclrtDrvMemHandle handle = nullptr;
aclrtMallocPhysical(&handle, g, &prop, 0);
void* va = nullptr;
aclrtReserveMemAddress(&va, 2 * g, 0, nullptr, 0);
void* second = (char*)va + g;
aclrtMapMem(second, g, 0, handle, 0);
aclrtMemAccessDesc desc[2] = {};
for (int i = 0; i < 2; i++) {
    desc[i].flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    desc[i].location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    desc[i].location.id = i;
}
aclrtMemSetAccess(second, g, desc, 2);
aclrtMemLocation where = {};
where.type = ACL_MEM_LOCATION_TYPE_DEVICE;
where.id = 1;
uint64_t flag = 0;
aclrtMemGetAccess(second, &where, &flag);
aclrtFreePhysical(handle);
aclrtUnmapMem(second);
aclrtReleaseMemAddress(va);`,
      { setup: DEVICE, devices: [ASCEND_910B2, ASCEND_910B2] },
    );
    expect(h.ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
    expect(shown(h.ex, 'flag')).toBe('3');
    const setAccess = h.events.find((e) => e.kind === 'setAccess');
    expect(setAccess?.kind === 'setAccess' ? setAccess.access : undefined).toEqual([
      { device: 0, flags: 3 },
      { device: 1, flags: 3 },
    ]);
    const teardown = h.events.filter((e) => e.kind === 'physFree' || e.kind === 'physRelease' || e.kind === 'unmap');
    expect(teardown.map((e) => (e.kind === 'physFree' ? `physFree deferred=${e.deferred}` : e.kind))).toEqual([
      'physFree deferred=true',
      'unmap',
      'physFree deferred=false',
      'physRelease',
    ]);
  });

  it('sharing between two processes (VM-9) and peer access (DM-8)', async () => {
    const host = new SimHost({ devices: [ASCEND_910B2, ASCEND_910B2] });
    // The importer's process must exist first: the exporter puts its pid on the handle's allow-list.
    const importerRuntime = new SimRuntime(host, 'importer');
    const exporter = await run(
      `
int32_t canAccess = -1;
aclrtDeviceCanAccessPeer(&canAccess, 0, 1);
aclrtDeviceEnablePeerAccess(1, 0);
aclrtPhysicalMemProp prop = {};
prop.memAttr = ACL_HBM_MEM_HUGE;
prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
aclrtDrvMemHandle handle = nullptr;
aclrtMallocPhysical(&handle, 2 * 1024 * 1024, &prop, 0);
uint64_t shareable = 0;
aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DEFAULT, &shareable);
int32_t pids[1] = {importerPid};
aclrtMemSetPidToShareableHandle(shareable, pids, 1);`,
      { host, setup: DEVICE, inputs: [{ name: 'importerPid', ctype: 'int32_t', value: String(importerRuntime.pid) }] },
    );
    expect(exporter.ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
    expect(shown(exporter.ex, 'canAccess')).toBe('1');
    expect([...(host.state.devices[0]?.peers ?? [])]).toEqual([1]);
    // Disabling what is enabled ends it (an event the log shows); a second disable is refused (DM-8).
    const peers = await run(
      `
aclrtDeviceEnablePeerAccess(1, 0);
aclError off = aclrtDeviceDisablePeerAccess(1);
aclError again = aclrtDeviceDisablePeerAccess(1);`,
      { setup: DEVICE, devices: [ASCEND_910B2, ASCEND_910B2] },
    );
    expect(values(peers, 'off', 'again')).toEqual(['0', '100000']);
    expect(peers.events.filter((e) => e.kind === 'peerAccessOff')).toMatchObject([{ device: 0, peer: 1 }]);
    expect([...(peers.host.state.devices[0]?.peers ?? [])]).toEqual([]);
    const shareable = exporter.host.state.shares.values().next().value?.shareable ?? 0;
    expect(shown(exporter.ex, 'shareable')).toBe(String(shareable));

    const importCode = 'aclrtDrvMemHandle imported = nullptr;\naclError ret = aclrtMemImportFromShareableHandle(shareable, 0, &imported);';
    const inputs = [{ name: 'shareable', ctype: 'uint64_t', value: `0x${shareable.toString(16)}` }];
    const importer = new Execution(compile(importCode, { inputs: ['shareable'] }).program, importerRuntime, { inputs, setup: DEVICE });
    expect(await importer.run()).toEqual({ state: 'finished', line: undefined });
    for (const call of importer.calls) called.add(call.fn);
    expect(shown(importer, 'ret')).toBe('0');
    expect(shown(importer, 'imported')).toMatch(/^0x[0-9a-f]+$/);
    expect([...host.state.handles.values()].map((handle) => [handle.pid, handle.importedFrom === undefined])).toEqual([
      [exporter.rt.pid, true],
      [importerRuntime.pid, false],
    ]);
  });
});

describe('contexts, streams and events (CX, EV, CP-4 … CP-7)', () => {
  it('a context, two streams and events: copy on one stream, the other waits on an event; teardown; no false errors', async () => {
    const h = await run(`#include "acl/acl.h"
#include <cstdio>

#define ACL_CHECK(expr) do { aclError _ret = (expr); if (_ret != ACL_SUCCESS) { printf("%s failed: %d\\n", #expr, _ret); return 1; } } while (0)

int main() {
    ACL_CHECK(aclInit(nullptr));
    ACL_CHECK(aclrtSetDevice(0));
    aclrtContext context = nullptr;
    ACL_CHECK(aclrtCreateContext(&context, 0));
    aclrtStream copyStream = nullptr;
    aclrtStream computeStream = nullptr;
    ACL_CHECK(aclrtCreateStream(&copyStream));
    ACL_CHECK(aclrtCreateStreamWithConfig(&computeStream, 0, ACL_STREAM_FAST_LAUNCH));
    aclrtEvent start = nullptr;
    aclrtEvent copied = nullptr;
    ACL_CHECK(aclrtCreateEvent(&start));
    ACL_CHECK(aclrtCreateEventWithFlag(&copied, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));

    const size_t size = 64 * 1024 * 1024;
    void* host = nullptr;
    void* device = nullptr;
    ACL_CHECK(aclrtMallocHost(&host, size));
    ACL_CHECK(aclrtMalloc(&device, size, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CHECK(aclrtRecordEvent(start, copyStream));
    ACL_CHECK(aclrtMemcpyAsync(device, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE, copyStream));
    ACL_CHECK(aclrtRecordEvent(copied, copyStream));
    ACL_CHECK(aclrtStreamWaitEvent(computeStream, copied));
    aclrtStreamStatus status;
    ACL_CHECK(aclrtStreamQuery(copyStream, &status));
    ACL_CHECK(aclrtSynchronizeEvent(copied));
    aclrtEventRecordedStatus recorded;
    ACL_CHECK(aclrtQueryEventStatus(copied, &recorded));
    float ms = 0.0f;
    ACL_CHECK(aclrtEventElapsedTime(&ms, start, copied));
    uint64_t stamp = 0;
    ACL_CHECK(aclrtEventGetTimestamp(copied, &stamp));
    printf("copy took %.3f ms\\n", ms);

    ACL_CHECK(aclrtSynchronizeStreamWithTimeout(computeStream, 1000));
    ACL_CHECK(aclrtFree(device));
    ACL_CHECK(aclrtFreeHost(host));
    ACL_CHECK(aclrtDestroyEvent(copied));
    ACL_CHECK(aclrtDestroyEvent(start));
    ACL_CHECK(aclrtDestroyStream(computeStream));
    ACL_CHECK(aclrtDestroyStream(copyStream));
    ACL_CHECK(aclrtDestroyContext(context));
    ACL_CHECK(aclrtResetDevice(0));
    ACL_CHECK(aclFinalize());
    return 0;
}`);
    expect(h.ex.exitCode).toBe(0);
    expect(h.ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
    expect([...h.ex.lineMarks.values()].flatMap((mark) => mark.warnings)).toEqual([]);
    expect(values(h, 'status', 'recorded')).toEqual(['1 (ACL_STREAM_STATUS_NOT_READY)', '1 (ACL_EVENT_RECORDED_STATUS_COMPLETE)']);
    const ms = Number(shown(h.ex, 'ms'));
    // 64 MiB of pinned memory over the link, modeled: a positive time of the copy's own length.
    const copy = h.host.state.copies.at(-1);
    expect(copy).toBeDefined();
    if (copy !== undefined) expect(ms).toBeCloseTo((copy.end - copy.start) / 1e6, 3);
    expect(ms).toBeGreaterThan(0);
    expect(h.ex.output).toEqual([`copy took ${ms.toFixed(3)} ms\n`]);
    const kinds = h.events.map((event) => event.kind);
    for (const kind of ['contextCreate', 'contextCurrent', 'eventCreate', 'eventRecord', 'eventWait', 'eventDestroy', 'contextDestroy'])
      expect(kinds, kind).toContain(kind);
    expect([h.host.state.contexts.size, h.host.state.aclEvents.size, h.host.state.streams.size]).toEqual([0, 0, 0]);
  });

  it('the current context, its default stream, failure modes, forced destroys, device timeouts and event resets', async () => {
    const h = await run(`${DEVICE}
aclrtContext primary = nullptr;
aclError gotPrimary = aclrtGetCurrentContext(&primary);
aclrtContext mine = nullptr;
aclrtCreateContext(&mine, 0);
aclrtStream own = nullptr;
aclrtCtxGetCurrentDefaultStream(&own);
aclrtStream s = nullptr;
aclrtCreateStream(&s);
aclError stop = aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE);
aclError back = aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE);
aclrtEvent ev = nullptr;
aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC);
aclrtEventRecordedStatus before;
aclrtQueryEventStatus(ev, &before);
aclError resetEx = aclrtResetEvent(ev, s);
aclrtEvent plain = nullptr;
aclrtCreateEventWithFlag(&plain, ACL_EVENT_SYNC);
aclrtRecordEvent(plain, s);
aclError reset = aclrtResetEvent(plain, s);
aclError waited = aclrtSynchronizeEventWithTimeout(plain, 10);
aclError devWait = aclrtSynchronizeDeviceWithTimeout(-1);
aclError wrongCtx = aclrtSetCurrentContext(primary);
aclError foreign = aclrtDestroyStreamForce(s);
aclrtSetCurrentContext(mine);
aclError forced = aclrtDestroyStreamForce(s);
aclError destroyPrimary = aclrtDestroyContext(primary);`);
    expect(
      values(
        h,
        'gotPrimary',
        'stop',
        'back',
        'before',
        'resetEx',
        'reset',
        'waited',
        'devWait',
        'wrongCtx',
        'foreign',
        'forced',
        'destroyPrimary',
      ),
    ).toEqual(['0', '0', '207000', '1 (ACL_EVENT_RECORDED_STATUS_COMPLETE)', '207000', '0', '0', '0', '0', '107003', '0', '107002']);
    expect(shown(h.ex, 'own')).toMatch(/^0x[0-9a-f]+$/);
  });
});

describe('2D copies, async memset, address ranges and retained handles (CP-8 … CP-10, DM-16, VM-12)', () => {
  it('an image-like buffer copied row by row, its range read back, and a VMM handle retained and released', async () => {
    const h = await run(`${DEVICE}
aclrtStream stream = nullptr;
aclrtCreateStream(&stream);
const size_t width = 1920 * 4, height = 1080, pitch = 8192;
void* image = nullptr;
void* frame = nullptr;
aclrtMallocHost(&image, pitch * height);
aclrtMalloc(&frame, pitch * height, ACL_MEM_MALLOC_HUGE_FIRST);
aclrtMemsetAsync(frame, pitch * height, 0, pitch * height, stream);
aclError copied = aclrtMemcpy2dAsync(frame, pitch, image, pitch, width, height, ACL_MEMCPY_HOST_TO_DEVICE, stream);
aclError back = aclrtMemcpy2d(image, pitch, frame, pitch, width, height, ACL_MEMCPY_DEVICE_TO_HOST);
aclError tooWide = aclrtMemcpy2d(image, 4096, frame, pitch, width, height, ACL_MEMCPY_DEVICE_TO_HOST);
aclrtMemFlush(image, pitch * height);
aclrtMemInvalidate(image, pitch * height);
void* base = nullptr;
size_t range = 0;
aclrtMemGetAddressRange((char*)frame + 100, &base, &range);
aclrtPhysicalMemProp prop = {};
prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
prop.memAttr = ACL_HBM_MEM_HUGE;
prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
prop.location.id = 0;
aclrtDrvMemHandle handle = nullptr;
aclrtMallocPhysical(&handle, 2 * 1024 * 1024, &prop, 0);
void* va = nullptr;
aclrtReserveMemAddress(&va, 2 * 1024 * 1024, 0, nullptr, 0);
aclrtMapMem(va, 2 * 1024 * 1024, 0, handle, 0);
aclrtDrvMemHandle again = nullptr;
aclrtMemRetainAllocationHandle(va, &again);
aclrtPhysicalMemProp readBack = {};
aclrtMemGetAllocationPropertiesFromHandle(again, &readBack);
aclrtFreePhysical(again);
aclrtUnmapMem(va);
aclrtReleaseMemAddress(va);
aclrtFreePhysical(handle);`);
    expect(values(h, 'copied', 'back', 'tooWide')).toEqual(['0', '0', '100000']);
    expect(h.ex.calls.filter((c) => c.ret !== 0).map((c) => c.fn)).toEqual(['aclrtMemcpy2d']);
    expect(shown(h.ex, 'base')).toBe(shown(h.ex, 'frame'));
    // The padded size of the allocation (DM-3, DM-16), shown as bytes.
    expect(Number(shown(h.ex, 'range')?.split(' ')[0]?.replace(/,/g, ''))).toBe(8192 * 1080 + 32);
    expect(shown(h.ex, 'again')).toBe(shown(h.ex, 'handle'));
    expect(shown(h.ex, 'readBack')).toContain('memAttr = 4 (ACL_HBM_MEM_HUGE)');
    expect(h.host.state.handles.size).toBe(0);
    expect(h.host.state.copies.slice(-2).map((copy) => [copy.fn, copy.bytes])).toEqual([
      ['aclrtMemcpy2dAsync', 1920 * 4 * 1080],
      ['aclrtMemcpy2d', 1920 * 4 * 1080],
    ]);
  });
});

describe('batched copies, stream value tasks and memory-type checks (CP-11, CP-12, DM-17, DM-18)', () => {
  it('three host buffers go to the device in one batch, a stream waits for a value another writes, addresses are checked', async () => {
    const h = await run(`${DEVICE}
aclrtStream producer = nullptr;
aclrtStream consumer = nullptr;
aclrtCreateStream(&producer);
aclrtCreateStream(&consumer);
const size_t chunk = 64 * 1024;
void* host = nullptr;
void* dev = nullptr;
aclrtMallocHost(&host, 3 * chunk);
aclrtMalloc(&dev, 3 * chunk, ACL_MEM_MALLOC_HUGE_FIRST);
void* dsts[3] = {dev, (char*)dev + chunk, (char*)dev + 2 * chunk};
void* srcs[3] = {host, (char*)host + chunk, (char*)host + 2 * chunk};
size_t destMaxs[3] = {chunk, chunk, chunk};
size_t sizes[3] = {chunk, chunk, chunk};
aclrtMemcpyBatchAttr attrs[1] = {};
attrs[0].dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
attrs[0].dstLoc.id = 0;
attrs[0].srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
size_t attrsIndexes[1] = {0};
size_t failIndex = 0;
aclError batched = aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 3, attrs, attrsIndexes, 1, &failIndex);
size_t asyncFail = 0;
aclError queued = aclrtMemcpyBatchAsync(srcs, destMaxs, dsts, sizes, 3, attrs, attrsIndexes, 1, &asyncFail, producer);
attrs[0].dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
attrs[0].srcLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
aclError back = aclrtMemcpyBatchAsync(srcs, destMaxs, dsts, sizes, 3, attrs, attrsIndexes, 1, &asyncFail, producer);
aclError written = aclrtValueWrite(dev, 7, 0, producer);
aclError waited = aclrtValueWait(dev, 7, ACL_STREAM_WAIT_VALUE_EQ, consumer);
uint32_t isDevice = 0;
void* list[2] = {dev, (char*)dev + 100};
aclError checked = aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, &isDevice, 0);
uint32_t hostIsDevice = 1;
aclrtCheckMemType(srcs, 1, ACL_RT_MEM_TYPE_DEV, &hostIsDevice, 0);
aclrtMemUsageInfo usage[4] = {};
size_t components = 0;
aclError usageRet = aclrtGetMemUsageInfo(0, usage, 4, &components);
aclrtSynchronizeStream(consumer);
aclrtFree(dev);
aclrtFreeHost(host);
aclrtDestroyStream(producer);
aclrtDestroyStream(consumer);`);
    expect(values(h, 'batched', 'written', 'waited', 'checked', 'isDevice', 'hostIsDevice')).toEqual(['0', '0', '0', '0', '1', '0']);
    // The first async batch copies device → host under an attribute that says host → device: refused at copy 0, named by failIndex (CP-11).
    expect(values(h, 'queued', 'asyncFail', 'back')).toEqual(['107000', '18446744073709551615', '0']);
    expect(values(h, 'usageRet', 'components')).toEqual(['207000', '0']);
    expect(h.ex.calls.filter((c) => c.ret !== 0).map((c) => c.fn)).toEqual(['aclrtMemcpyBatchAsync', 'aclrtGetMemUsageInfo']);
    expect(h.host.state.copies.filter((copy) => copy.fn.startsWith('aclrtMemcpyBatch')).map((copy) => [copy.fn, copy.bytes])).toEqual([
      ['aclrtMemcpyBatch', 65536],
      ['aclrtMemcpyBatch', 65536],
      ['aclrtMemcpyBatch', 65536],
      ['aclrtMemcpyBatchAsync', 65536],
      ['aclrtMemcpyBatchAsync', 65536],
      ['aclrtMemcpyBatchAsync', 65536],
    ]);
  });
});

describe('IPC of device memory between two processes (IP-1 … IP-4)', () => {
  it('the exporter writes a key into a char array, allows the importer, who copies through its own address; both close', async () => {
    const host = new SimHost({ devices: [ASCEND_910B2] });
    const importerRuntime = new SimRuntime(host, 'importer');
    const exporter = await run(
      `
void* buffer = nullptr;
aclrtMalloc(&buffer, 4 * 1024 * 1024, ACL_MEM_MALLOC_HUGE_FIRST);
char key[65] = {0};
aclError exported = aclrtIpcMemGetExportKey(buffer, 4 * 1024 * 1024, key, 65, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT);
int32_t pids[1] = {importerPid};
aclError allowed = aclrtIpcMemSetImportPid(key, pids, 1);`,
      { host, setup: DEVICE, inputs: [{ name: 'importerPid', ctype: 'int32_t', value: String(importerRuntime.pid) }] },
    );
    expect(values(exporter, 'exported', 'allowed')).toEqual(['0', '0']);
    const [key] = [...host.state.ipcKeys.keys()];
    expect(key).toHaveLength(64);
    expect(shown(exporter.ex, 'key')).toContain(key?.slice(0, 20));
    const importCode = `void* remote = nullptr;
aclError imported = aclrtIpcMemImportByKey(&remote, "${key}", ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT);
void* local = nullptr;
aclrtMallocHost(&local, 1024 * 1024);
aclError copied = aclrtMemcpy(local, 1024 * 1024, remote, 1024 * 1024, ACL_MEMCPY_DEVICE_TO_HOST);
aclError closed = aclrtIpcMemClose("${key}");
aclError after = aclrtMemcpy(local, 1024 * 1024, remote, 1024 * 1024, ACL_MEMCPY_DEVICE_TO_HOST);`;
    const importer = new Execution(compile(importCode).program, importerRuntime, { setup: DEVICE });
    expect(await importer.run()).toEqual({ state: 'finished', line: undefined });
    for (const call of importer.calls) called.add(call.fn);
    expect(['imported', 'copied', 'closed', 'after'].map((name) => shown(importer, name))).toEqual(['0', '0', '0', '100000']);
    expect(host.state.copies.at(-1)).toMatchObject({ bytes: 1024 * 1024, path: 'pinned' });
    const exporterClose = await exporter.rt.aclrtIpcMemClose({ key: key ?? '' });
    expect(exporterClose.ret).toBe(0);
    called.add('aclrtIpcMemClose');
    expect([host.state.ipcKeys.size, host.state.ipcImports.size]).toEqual([0, 0]);
  });
});

describe('what PageLens does not model', () => {
  it('printf, logging macros, CHECK_ERROR, kernel launches, unknown ACL functions and helpers leave notes', async () => {
    const code = `int main(void) {
    CHECK_ERROR(aclInit(nullptr));
    INFO_LOG("device %d ready", 0);
    printf("%s has %zu bytes at %p (%5.2f%%)\\n", "buffer", (size_t)64, (void*)0x1000, 12.5);
    void* a = nullptr;
    aclrtStream s = nullptr;
    add_custom<<<8, nullptr, s>>>(a, a);
    aclnnAdd(a, a);
    prepareInputs(a);
    return 0;
}`;
    const h = await run(code);
    const marks = (line: number) => h.ex.lineMarks.get(line);
    expect(marks(2)?.calls.map((c) => c.fn)).toEqual(['aclInit']);
    expect(marks(2)?.notes).toEqual(['CHECK_ERROR(…) is not modeled: its arguments were evaluated and it returned 0']);
    expect(marks(3)?.notes).toEqual(['INFO_LOG(…) is not modeled: its arguments were evaluated and it returned 0']);
    expect(h.ex.output).toEqual(['buffer has 64 bytes at 0x1000 (12.50%)\n']);
    expect(marks(7)?.notes).toEqual([
      'the kernel launch add_custom<<<…>>> is not modeled: PageLens tracks memory, not kernels; its arguments were evaluated',
    ]);
    expect(marks(8)?.warnings).toEqual([
      "aclnnAdd is not in PageLens's catalogue of ACL functions: not modeled (its arguments were evaluated; it returned 0)",
    ]);
    expect(marks(9)?.notes).toEqual(['prepareInputs(…) is not modeled: its arguments were evaluated and it returned 0']);
  });

  it('writes through pointers to runtime memory are notes; through &variable they are real', async () => {
    const h = await run(
      `
int* data = (int*)malloc(64);
*data = 5;
data[3] = 7;
int read = data[1];
void* dev = nullptr;
void** out = &dev;
aclrtMalloc(out, 64, ACL_MEM_MALLOC_NORMAL_ONLY);
int* hostInts = nullptr;
aclrtMallocHost((void**)&hostInts, 64);
aclrtMallocWithCfg(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST, nullptr);
int values[4] = {1, 2, 3, 4};
int* cursor = values + 1;
cursor[1] = 30;
*cursor += 10;
free(data);`,
      { setup: DEVICE },
    );
    expect(h.ex.lineMarks.get(3)?.notes).toEqual([expect.stringMatching(/^writing int at 0x[0-9a-f]+ is not modeled/)]);
    expect(h.ex.lineMarks.get(4)?.notes).toHaveLength(1);
    expect(h.ex.lineMarks.get(5)?.notes).toEqual([expect.stringMatching(/^reading int at 0x[0-9a-f]+ is not modeled: .* it reads as 0$/)]);
    expect(shown(h.ex, 'read')).toBe('0');
    expect(shown(h.ex, 'dev')).toMatch(/^0x/);
    expect(shown(h.ex, 'out')).toBe('&dev');
    expect(shown(h.ex, 'values')).toBe('{1, 12, 30, 4}');
    expect(shown(h.ex, 'cursor')).toBe('&values[1]');
    expect(shown(h.ex, 'hostInts')).toMatch(/^0x[0-9a-f]+$/);
    expect(h.ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
    const withCfg = h.events.find((e) => e.kind === 'call' && e.fn === 'aclrtMallocWithCfg');
    expect(withCfg?.kind === 'call' ? withCfg.args.cfg : undefined).toBeNull();
  });

  it('warns about indeterminate values: a read before any write, and struct fields never set', async () => {
    const h = await run(
      `
int unset;
int copy = unset + 1;
aclrtPhysicalMemProp prop;
prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
prop.memAttr = ACL_HBM_MEM_HUGE;
prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
prop.location.id = 0;
size_t g = 0;
aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g);`,
      { setup: DEVICE },
    );
    expect(h.ex.lineMarks.get(3)?.warnings).toEqual(['unset is read before it is set (indeterminate in C); PageLens uses 0']);
    expect(h.ex.lineMarks.get(11)?.warnings).toEqual([
      'prop.reserve is never set (indeterminate in C); PageLens passes 0: initialise the struct with = {}',
    ]);
    expect(shown(h.ex, 'g')).toBe('2097152 (2 MiB)');
  });
});

describe('inputs, entry and fragments', () => {
  it('runs a plain list of statements; inputs parse sizes, constants, negative numbers and pointers', async () => {
    const h = await run('size_t twice = size * 2;\nint negative = delta;\nint policy = preferred;\nvoid* p = where;', {
      inputs: [
        { name: 'size', ctype: 'size_t', value: '1.5 MiB' },
        { name: 'delta', ctype: 'int', value: '-4' },
        { name: 'preferred', ctype: 'aclrtMemMallocPolicy', value: 'ACL_MEM_MALLOC_NORMAL_ONLY' },
        { name: 'where', ctype: 'void*', value: '0x1000' },
      ],
    });
    expect(values(h, 'twice', 'negative', 'policy', 'p')).toEqual(['3145728 (3 MiB)', '-4', '2', '0x1000']);
    expect(h.ex.variables().map((v) => v.scope)).toEqual(['local', 'local', 'local', 'local', 'input', 'input', 'input', 'input']);
  });

  it('runs the chosen entry; its parameters come from inputs of the same name', async () => {
    const code = 'int first(void) { return 1; }\nint second(int deviceId) { return deviceId + 40; }';
    const h = await run(code, { entry: 'second', inputs: [{ name: 'deviceId', ctype: 'int32_t', value: '2' }] });
    expect(h.ex.exitCode).toBe(42);
  });

  it('ACL constants and macros combine with |', async () => {
    const h = await run(
      'uint32_t flags = ACL_HOST_REG_PINNED|ACL_HOST_REG_MAPPED;\nint ok = ACL_SUCCESS;\nint oom = ACL_ERROR_RT_MEMORY_ALLOCATION;',
    );
    expect(values(h, 'flags', 'ok', 'oom')).toEqual(['268435458', '0', '207001']);
  });
});

describe('variables view', () => {
  it('shows structs with field names, enums by name, pointers as hex, NULL or &name', async () => {
    const h = await run(`
aclrtMemAccessDesc desc = {};
desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
aclrtMallocAttribute attr = {};
attr.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
attr.value.deviceId = 0x10002;
uint16_t low = attr.value.moduleId;
aclrtMemcpyKind kind = ACL_MEMCPY_DEVICE_TO_HOST;
void* none = NULL;
aclrtMemAccessDesc* pointer = &desc;
aclrtMemLocationType type = pointer->location.type;`);
    expect(values(h, 'desc', 'attr', 'low', 'kind', 'none', 'pointer', 'type')).toEqual([
      '{flags = 3 (ACL_RT_MEM_ACCESS_FLAGS_READWRITE), location = {id = 0, type = 1 (ACL_MEM_LOCATION_TYPE_DEVICE)}, rsv = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}',
      '{attr = 2 (ACL_RT_MEM_ATTR_DEVICE_ID), value = {deviceId = 65538}}',
      '2',
      '2 (ACL_MEMCPY_DEVICE_TO_HOST)',
      'NULL',
      '&desc',
      '1 (ACL_MEM_LOCATION_TYPE_DEVICE)',
    ]);
  });
});

afterAll(() => {
  // Every function of the catalogue must have been exercised by some snippet above.
  const missing = ACL_FUNCTION_NAMES.filter((name) => !called.has(name));
  expect(missing).toEqual([]);
});
