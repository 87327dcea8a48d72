import { describe, expect, it } from 'vitest';
import { runToEnd } from './interp-helpers.ts';

/*
 * Whole programs in the style of the Ascend samples and of a framework back-end (PageLens's own
 * code, issue 15): each runs on the simulator with no false error, and leaves the host as it found it.
 */

const SESSION_SAMPLE = `/**
 * Host-to-device round trip in the style of the Ascend samples (PageLens's own code).
 */
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "acl/acl.h"

#define SUCCESS 0
#define FAILED 1

#define INFO_LOG(fmt, ...) fprintf(stdout, "[INFO]  " fmt "\\n", ##__VA_ARGS__)
#define WARN_LOG(fmt, ...) fprintf(stdout, "[WARN]  " fmt "\\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) fprintf(stderr, "[ERROR]  " fmt "\\n", ##__VA_ARGS__)

#define CHECK_ACL(expr)                                                    \\
    do {                                                                  \\
        aclError __status = (expr);                                       \\
        if (__status != ACL_SUCCESS) {                                    \\
            ERROR_LOG("%s failed at %s:%d, code %d", #expr, __FILE__, __LINE__, __status); \\
            return FAILED;                                                \\
        }                                                                 \\
    } while (0)

typedef enum Result_ { OK_RESULT = 0 } Result;

namespace sample {
struct Resource {
    int32_t deviceId = 0;
    aclrtContext context;
    aclrtStream stream;
};

class Buffers {
public:
    void* hostIn;
    void* devIn;
    void* devOut;
    size_t bytes;
};

static int InitResource(Resource& res)
{
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(res.deviceId));
    CHECK_ACL(aclrtCreateContext(&res.context, res.deviceId));
    CHECK_ACL(aclrtCreateStream(&res.stream));
    INFO_LOG("device %d ready", res.deviceId);
    return SUCCESS;
}

int ReleaseResource(Resource& res);
}  // namespace sample

using namespace sample;

int RunCopy(Resource& res, Buffers* buf)
{
    CHECK_ACL(aclrtMallocHost(&buf->hostIn, buf->bytes));
    CHECK_ACL(aclrtMalloc(&buf->devIn, buf->bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&buf->devOut, buf->bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpyAsync(buf->devIn, buf->bytes, buf->hostIn, buf->bytes, ACL_MEMCPY_HOST_TO_DEVICE, res.stream));
    CHECK_ACL(aclrtMemcpyAsync(buf->devOut, buf->bytes, buf->devIn, buf->bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, res.stream));
    CHECK_ACL(aclrtSynchronizeStream(res.stream));
    std::vector<float> result(buf->bytes / sizeof(float));
    CHECK_ACL(aclrtMemcpy(result.data(), result.size() * sizeof(float), buf->devOut, buf->bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    float first = 0.0f;
    CHECK_ACL(aclrtMemcpy(&first, sizeof(first), buf->devOut, sizeof(first), ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_ACL(aclrtFree(buf->devOut));
    CHECK_ACL(aclrtFree(buf->devIn));
    CHECK_ACL(aclrtFreeHost(buf->hostIn));
    return SUCCESS;
}

int sample::ReleaseResource(Resource& res)
{
    CHECK_ACL(aclrtDestroyStream(res.stream));
    CHECK_ACL(aclrtDestroyContext(res.context));
    CHECK_ACL(aclrtResetDevice(res.deviceId));
    CHECK_ACL(aclFinalize());
    return SUCCESS;
}

int main(int argc, char* argv[])
{
    Resource res;
    Buffers buf;
    buf.bytes = 4 * 1024 * 1024;
    if (InitResource(res) != SUCCESS) {
        ERROR_LOG("init failed");
        return FAILED;
    }
    int ret = RunCopy(res, &buf);
    ReleaseResource(res);
    INFO_LOG("run %s", ret == SUCCESS ? "succeeded" : "failed");
    return ret;
}
`;

const VMM_POOL_SAMPLE = `// VMM + registered host memory + events across two streams, written like a framework back-end (PageLens's own code).
#include "acl/acl.h"
#include <cstdio>
#include <cstdint>
#include <vector>
#include <memory>

#ifndef ACL_MEM_CHECK
#define ACL_MEM_CHECK(call)                                                           \\
  do {                                                                                \\
    const aclError err_ = (call);                                                     \\
    if (err_ != ACL_SUCCESS) {                                                        \\
      printf("[%s] %s returned %d: %s\\n", __func__, #call, err_, aclGetRecentErrMsg()); \\
      return false;                                                                   \\
    }                                                                                 \\
  } while (false)
#endif

namespace backend {
namespace detail {
inline size_t RoundUp(size_t value, size_t granule) { return ((value + granule - 1) / granule) * granule; }
}  // namespace detail

struct Pool {
  void* base = nullptr;
  size_t reserved = 0;
  std::vector<aclrtDrvMemHandle> handles;
  std::vector<void*> mapped;
};

bool Reserve(Pool& pool, size_t bytes, int32_t device) {
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  size_t granule = 0;
  ACL_MEM_CHECK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granule));
  pool.reserved = detail::RoundUp(bytes, granule);
  ACL_MEM_CHECK(aclrtReserveMemAddress(&pool.base, pool.reserved, 0, nullptr, 0));
  for (size_t offset = 0; offset < pool.reserved; offset += granule) {
    aclrtDrvMemHandle handle = nullptr;
    ACL_MEM_CHECK(aclrtMallocPhysical(&handle, granule, &prop, 0));
    void* at = static_cast<char*>(pool.base) + offset;
    ACL_MEM_CHECK(aclrtMapMem(at, granule, 0, handle, 0));
    pool.handles.push_back(handle);
    pool.mapped.push_back(at);
  }
  return true;
}

bool Release(Pool& pool) {
  for (size_t i = 0; i < pool.mapped.size(); ++i) {
    ACL_MEM_CHECK(aclrtUnmapMem(pool.mapped[i]));
  }
  ACL_MEM_CHECK(aclrtReleaseMemAddress(pool.base));
  for (auto handle : pool.handles) {
    ACL_MEM_CHECK(aclrtFreePhysical(handle));
  }
  return true;
}
}  // namespace backend

int main() {
  const int32_t device = 0;
  if (aclInit(nullptr) != ACL_SUCCESS) return 1;
  if (aclrtSetDevice(device) != ACL_SUCCESS) return 1;
  backend::Pool pool;
  bool ok = backend::Reserve(pool, 5 * 1024 * 1024, device);
  aclrtStream copy = nullptr, compute = nullptr;
  aclrtCreateStream(&copy);
  aclrtCreateStream(&compute);
  aclrtEvent done = nullptr;
  aclrtCreateEvent(&done);
  const size_t bytes = 2 * 1024 * 1024;
  void* host = nullptr;
  aclrtMallocHost(&host, bytes);
  aclrtMemcpyAsync(pool.base, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, copy);
  aclrtRecordEvent(done, copy);
  aclrtStreamWaitEvent(compute, done);
  aclrtSynchronizeStream(compute);
  uint64_t check = 0;
  aclrtMemcpy(&check, sizeof(check), pool.base, sizeof(check), ACL_MEMCPY_DEVICE_TO_HOST);
  ok = ok && backend::Release(pool);
  aclrtFreeHost(host);
  aclrtDestroyEvent(done);
  aclrtDestroyStream(compute);
  aclrtDestroyStream(copy);
  aclrtResetDevice(device);
  aclFinalize();
  printf("%s\\n", ok ? "ok" : "failed");
  return ok ? 0 : 2;
}
`;

const FILE_SAMPLE = `#include <cstring>
#include <string>
#include "acl/acl.h"
#define CHECK(ret, msg) if ((ret) != ACL_SUCCESS) { printf("%s failed: %d\\n", msg, ret); return false; }

static bool ReadFile(const std::string& path, void* buffer, size_t bytes)
{
    FILE* fp = fopen(path.c_str(), "rb");
    if (fp == nullptr) {
        printf("cannot open %s: using zeros\\n", path.c_str());
        memset(buffer, 0, bytes);
        return true;
    }
    fread(buffer, 1, bytes, fp);
    fclose(fp);
    return true;
}

int main(int argc, char* argv[])
{
    const char* config = "./acl.json";
    CHECK(aclInit(config), "aclInit");
    uint32_t count = 0;
    CHECK(aclrtGetDeviceCount(&count), "aclrtGetDeviceCount");
    int32_t deviceId = count > 1 ? 1 : 0;
    CHECK(aclrtSetDevice(deviceId), "aclrtSetDevice");
    size_t inputSize = 256 * sizeof(float);
    void* inputHost = nullptr;
    CHECK(aclrtMallocHost(&inputHost, inputSize), "aclrtMallocHost");
    ReadFile("input/input_x.bin", inputHost, inputSize);
    void* inputDevice = nullptr;
    CHECK(aclrtMalloc(&inputDevice, inputSize, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    CHECK(aclrtMemcpy(inputDevice, inputSize, inputHost, inputSize, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
    uint8_t* bytes = reinterpret_cast<uint8_t*>(inputHost);
    printf("first byte %u, size %zu\\n", bytes[0], inputSize);
    CHECK(aclrtFree(inputDevice), "aclrtFree");
    CHECK(aclrtFreeHost(inputHost), "aclrtFreeHost");
    CHECK(aclrtResetDevice(deviceId), "aclrtResetDevice");
    CHECK(aclFinalize(), "aclFinalize");
    return 0;
}
`;

const C_STYLE_SAMPLE = `#include <cstring>
#include <vector>
#include <string>
struct Buffer { void* dev; size_t bytes; };
static inline int Count() { return 2; }
int main(int argc, const char* argv[]) {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtPhysicalMemProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    size_t granularity = 0;
    aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity);
    Buffer buffers[4];
    for (int i = 0; i < Count(); ++i) {
        buffers[i].bytes = (i + 1) * granularity;
        aclrtMalloc(&buffers[i].dev, buffers[i].bytes, ACL_MEM_MALLOC_HUGE_ONLY);
    }
    std::vector<std::string> names = {"first", "second"};
    for (const auto& name : names) printf("%s\\n", name.c_str());
    char path[64];
    snprintf(path, sizeof(path), "%s/%d.bin", "out", 3);
    size_t n = sizeof(buffers) / sizeof(buffers[0]);
    for (int i = 0; i < Count(); ++i) aclrtFree(buffers[i].dev);
    aclrtResetDevice(0);
    return static_cast<int>(n);
}
`;

const DEVICE_SETUP = 'aclInit(nullptr);\naclrtSetDevice(0);';

function leftovers(h: Awaited<ReturnType<typeof runToEnd>>) {
  const s = h.host.state;
  return [s.allocations.size, s.hostBuffers.size, s.reservations.size, s.mappings.size, s.handles.size, s.streams.size];
}

describe('whole programs (issue 15)', () => {
  it('a sample-style program: log and check macros, a namespace with a struct and a class, references, a vector and a local as host buffers', async () => {
    const h = await runToEnd(SESSION_SAMPLE, { setup: DEVICE_SETUP });
    expect(h.ex.exitCode).toBe(0);
    expect(h.ex.aclErrors).toBe(0);
    expect(h.ex.output.join('')).toBe('[INFO]  device 0 ready\n[INFO]  run succeeded\n');
    // The setup's aclInit and aclrtSetDevice were left to the code.
    expect(h.ex.calls.filter((c) => c.inSetup)).toEqual([]);
    // The result vector (4 MiB of floats) and the local `first` were host memory of the process.
    const pageable = h.events.flatMap((e) => (e.kind === 'hostAlloc' && e.memory === 'pageable' ? [e.size] : []));
    expect(pageable).toEqual([4 * 1024 * 1024, 4]);
    expect(leftovers(h)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('an input file read into pinned memory: fopen/fread answer as if the file opened, a const std::string& takes a literal', async () => {
    const h = await runToEnd(FILE_SAMPLE);
    expect(h.ex.exitCode).toBe(0);
    expect(h.ex.aclErrors).toBe(0);
    expect(h.ex.output).toEqual(['first byte 0, size 1024\n']);
    const fopenLine = FILE_SAMPLE.split('\n').findIndex((line) => line.includes('fopen(')) + 1;
    expect(h.ex.lineMarks.get(fopenLine)?.notes).toEqual([
      'fopen(…) is file I/O, which is not modeled: PageLens runs no file system; it answers as if the file opened and every byte moved, without reading or writing any',
    ]);
    expect(h.ex.calls.filter((c) => c.fn === 'aclrtMallocHost' || c.fn === 'aclrtMemcpy').map((c) => c.retName)).toEqual([
      'ACL_SUCCESS',
      'ACL_SUCCESS',
    ]);
    expect(leftovers(h)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('C-style habits: memset of a struct, an array of structs, sizeof(a) / sizeof(a[0]), a vector of strings, snprintf', async () => {
    const h = await runToEnd(C_STYLE_SAMPLE);
    expect(h.ex.exitCode).toBe(4);
    expect(h.ex.aclErrors).toBe(0);
    expect(h.ex.output).toEqual(['first\n', 'second\n']);
    // memset(&prop, 0, sizeof(prop)) set every member: no "never set" warning on the call that reads prop.
    const granularityLine = C_STYLE_SAMPLE.split('\n').findIndex((line) => line.includes('aclrtMemGetAllocationGranularity')) + 1;
    expect(h.ex.lineMarks.get(granularityLine)?.warnings).toEqual([]);
    expect(h.events.filter((e) => e.kind === 'alloc').map((e) => (e.kind === 'alloc' ? e.size : 0))).toEqual([
      2 * 1024 * 1024,
      4 * 1024 * 1024,
    ]);
    expect(leftovers(h)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('a VMM pool in nested namespaces: handles and mapped addresses kept in vectors of a struct, events across two streams', async () => {
    const h = await runToEnd(VMM_POOL_SAMPLE);
    expect(h.ex.exitCode).toBe(0);
    expect(h.ex.aclErrors).toBe(0);
    expect(h.ex.output).toEqual(['ok\n']);
    // 5 MiB rounds up to three 2 MiB granules (VM-2): three handles, three mappings, all undone (VM-8).
    expect(h.events.filter((e) => e.kind === 'map')).toHaveLength(3);
    expect(h.events.filter((e) => e.kind === 'unmap')).toHaveLength(3);
    expect(leftovers(h)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
