import { describe, expect, it } from 'vitest';
import { compile } from '../src/interp/compile.ts';
import { harness, lineOf, runToEnd, shown } from './interp-helpers.ts';

/*
 * Programs written as engineers write ACL code (issue 15): helpers in namespaces, structs of
 * session state, host buffers that are ordinary C and C++ objects. Each is PageLens's own, in the
 * style of the Ascend samples.
 */

const errorsOf = (code: string) => compile(code).diagnostics.filter((d) => d.severity === 'error');
const hostBuffers = (h: Awaited<ReturnType<typeof runToEnd>>) => [...h.host.state.hostBuffers.values()].map((b) => [b.memory, b.size]);

describe('namespaces, static functions, prototypes (issue 15)', () => {
  const code = `#include "acl/acl.h"
namespace memory {
int AllocDevice(void** ptr, size_t size);
static size_t AlignUp(size_t size, size_t align) { return (size + align - 1) / align * align; }
}  // namespace memory

namespace {
constexpr size_t kBlock = 2 * 1024 * 1024;
bool Release(void* ptr) { return aclrtFree(ptr) == ACL_SUCCESS; }
}

using namespace memory;

int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    void* dev = nullptr;
    int ret = memory::AllocDevice(&dev, 3 * 1024 * 1024);
    bool released = Release(dev);
    aclrtResetDevice(0);
    aclFinalize();
    return ret;
}

int memory::AllocDevice(void** ptr, size_t size) {
    size_t rounded = AlignUp(size, kBlock);
    return aclrtMalloc(ptr, rounded, ACL_MEM_MALLOC_HUGE_ONLY);
}`;

  it('a prototype in a namespace, its definition outside as memory::AllocDevice, a static helper, an anonymous namespace', async () => {
    const h = await runToEnd(code);
    expect(h.ex.exitCode).toBe(0);
    expect(shown(h.ex, 'released')).toBe('true');
    expect(h.ex.calls.filter((c) => c.fn === 'aclrtMalloc').map((c) => c.retName)).toEqual(['ACL_SUCCESS']);
    expect(h.events.some((e) => e.kind === 'alloc' && e.size === 4 * 1024 * 1024)).toBe(true);
  });

  it('a member function of a class the code does not define (its header is not pasted) says so', () => {
    const member = '#include "buffer.h"\nsize_t Buffer::Size() { return 0; }';
    expect(errorsOf(member).map((d) => [d.line, d.message])).toEqual([
      [
        2,
        'Buffer::Size at line 2, column 8 is a member function of Buffer, a class the code does not define (its definition is in a header, and PageLens reads no headers): paste the class definition above it, or build the program and run it with `pagelens run`, which records the memory calls of the real process',
      ],
    ]);
  });
});

describe('enums and default member initialisers (issue 15)', () => {
  it('typedef enum with implicit values, enum class read as Mode::B, and a struct member with a default', async () => {
    const h = await runToEnd(`typedef enum Result_ { SUCCESS = 0, FAILED, SKIPPED = 5, NEXT } Result;
enum class Mode : int { Sync, Async };
struct Resource {
    int32_t deviceId = 3;
    float scale{0.5f};
    aclrtStream stream = nullptr;
    bool ready = true;
};
int main() {
    Result r = FAILED;
    Mode mode = Mode::Async;
    Resource res;
    int sum = SUCCESS + FAILED + SKIPPED + NEXT;
    return r;
}`);
    expect(h.ex.exitCode).toBe(1);
    expect([shown(h.ex, 'sum'), shown(h.ex, 'mode')]).toEqual(['12', '1']);
    expect(shown(h.ex, 'res')).toBe('{deviceId = 3, scale = 0.5, stream = NULL, ready = true}');
  });

  it("a member defaults to an enumerator of its class, a constant, or a string literal (Mooncake's Status, xLLM's options)", async () => {
    const h = await runToEnd(`constexpr int kDefaultLayers = 32;
struct Status {
    enum class Code : int32_t { kOk = 0, kInvalidArgument = 3 };
    Code code_ = Code::kInvalidArgument;
    int32_t layers = kDefaultLayers;
    std::string protocol = "tcp";
    const char* name = "ascend";
    std::string_view view;
};
int main() {
    Status status;
    size_t length = status.protocol.size();
    return 0;
}`);
    expect(shown(h.ex, 'status')).toBe('{code_ = 3, layers = 32, protocol = "tcp", name = "ascend", view = ""}');
    expect(shown(h.ex, 'length')).toBe('3');
  });

  it("a member defaults to an ACL constant (Ascend/samples' FVResource: aclrtRunMode runMode = ACL_HOST)", async () => {
    const h = await runToEnd(`struct Resource {
    aclrtRunMode runMode = ACL_HOST;
    aclrtMemMallocPolicy policy = ACL_MEM_MALLOC_HUGE_ONLY;
};
int main() {
    Resource res;
    return res.runMode;
}`);
    expect(h.ex.exitCode).toBe(1);
    expect(shown(h.ex, 'res')).toBe('{runMode = 1 (ACL_HOST), policy = 1 (ACL_MEM_MALLOC_HUGE_ONLY)}');
  });
});

describe('designed messages for what the playground cannot tell apart (issue 15)', () => {
  it('an ACL constant outside the catalogue, and two functions of one name and parameter count, point to pagelens run', () => {
    const [constant] = errorsOf('uint32_t limit = 0;\naclrtDevResLimitType kind = ACL_RT_DEV_RES_CUBE_CORE;');
    expect(constant?.message).toMatch(
      /^"ACL_RT_DEV_RES_CUBE_CORE" is not declared: not an ACL constant PageLens models \(check its spelling/,
    );
    expect(constant?.message).toContain('`pagelens run`');
    const [twice] = errorsOf(`struct Options {
    int rank_ = 0;
    int& rank() & { return rank_; }
    const int& rank() const& { return rank_; }
};`);
    expect(twice?.message).toMatch(
      /^the function Options::rank is defined twice with 0 parameter\(s\) at line \d+, column \d+: PageLens tells overloads apart only by their number of parameters/,
    );
    expect(twice?.message).toContain('`pagelens run`');
  });
});

describe('functions returning a reference (issue 15)', () => {
  it("a getter returning const T& and a function returning T& read as the object's value; a write through one is refused", async () => {
    const h = await runToEnd(`struct Options {
    int layers_ = 32;
    std::vector<int> sizes_;
    const int& layers() const { return layers_; }
    const std::vector<int>& sizes() const { return sizes_; }
};
int g_count = 3;
int& Count() { return g_count; }
int main() {
    Options opts;
    opts.sizes_.push_back(7);
    int layers = opts.layers();
    const int& view = opts.layers();
    size_t n = opts.sizes().size();
    return layers + Count() + view;
}`);
    expect(h.ex.exitCode).toBe(67);
    expect(shown(h.ex, 'n')).toBe('1');
    const refused = harness('int g = 3;\nint& Count() { return g; }\nint main() {\n    Count() = 5;\n    return g;\n}');
    const outcome = await refused.ex.run();
    expect(outcome.error?.message).toBe(
      '"Count(…)" cannot be assigned or pointed to: a call gives a value; writing through a reference a function returns is not supported',
    );
  });
});

describe('constexpr arithmetic (issue 15)', () => {
  it('array sizes from const and constexpr integers, sizeof and enumerators', async () => {
    const h = await runToEnd(`constexpr int kRows = 4;
constexpr int kCols = kRows * 2;
const size_t kBytes = kRows * kCols * sizeof(float);
enum { kLanes = 3 };
float tile[kRows * kCols];
uint8_t raw[kBytes + 1];
int lanes[kLanes];
size_t sizes[] = {sizeof(tile), sizeof(raw), sizeof(lanes)};`);
    expect(shown(h.ex, 'sizes')).toBe('{128, 129, 12}');
  });
});

describe('structs and typedefs as plain data (issue 15)', () => {
  it('a session struct with . and ->, typedef struct, nested members, sizeof as gcc lays it out', async () => {
    const h = await runToEnd(`#include "acl/acl.h"
struct RuntimeSession {
    int32_t deviceId;
    aclrtStream stream;
    void* host;
    void* device;
    size_t bytes;
};
typedef struct {
    float scale;
    uint8_t flags[3];
} Options;
using Bytes = size_t;

static int Open(RuntimeSession* session) {
    if (aclrtSetDevice(session->deviceId) != ACL_SUCCESS) return -1;
    if (aclrtCreateStream(&session->stream) != ACL_SUCCESS) return -2;
    if (aclrtMallocHost(&session->host, session->bytes) != ACL_SUCCESS) return -3;
    return aclrtMalloc(&session->device, session->bytes, ACL_MEM_MALLOC_NORMAL_ONLY);
}

int main() {
    aclInit(nullptr);
    struct RuntimeSession session = {0, nullptr, nullptr, nullptr, 64 * 1024};
    Options options = {};
    options.scale = 0.5f;
    RuntimeSession& ref = session;
    int ret = Open(&session);
    aclrtMemcpyAsync(ref.device, ref.bytes, ref.host, ref.bytes, ACL_MEMCPY_HOST_TO_DEVICE, ref.stream);
    aclrtSynchronizeStream(session.stream);
    Bytes sessionSize = sizeof(RuntimeSession);
    Bytes optionsSize = sizeof(Options);
    aclrtFree(session.device);
    aclrtFreeHost(session.host);
    aclrtDestroyStream(session.stream);
    aclrtResetDevice(0);
    return ret;
}`);
    expect(h.ex.exitCode).toBe(0);
    expect(h.ex.aclErrors).toBe(0);
    expect([shown(h.ex, 'sessionSize'), shown(h.ex, 'optionsSize')]).toEqual(['40', '8']);
    expect(shown(h.ex, 'options')).toBe('{scale = 0.5, flags = {0, 0, 0}}');
    expect(shown(h.ex, 'session')).toMatch(
      /^\{deviceId = 0, stream = 0x[0-9a-f]+, host = 0x[0-9a-f]+, device = 0x[0-9a-f]+, bytes = 65536 \(64 KiB\)\}$/,
    );
  });
});

describe('host buffers that are ordinary C objects (issue 15, HM-1, CP-1)', () => {
  it('&num and float a[8] are pageable host memory: a synchronous copy accepts them; they are freed when their block ends', async () => {
    const code = `int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    void* dev = nullptr;
    aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_NORMAL_ONLY);
    {
        int32_t num = 0;
        float values[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        aclError up = aclrtMemcpy(dev, 64, values, sizeof(values), ACL_MEMCPY_HOST_TO_DEVICE);
        aclError down = aclrtMemcpy(&num, sizeof(num), dev, sizeof(num), ACL_MEMCPY_DEVICE_TO_HOST);
        aclError half = aclrtMemcpy(values + 4, 16, dev, 16, ACL_MEMCPY_DEVICE_TO_HOST);
        aclError tooBig = aclrtMemcpy(&num, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST);
    }
    aclrtFree(dev);
    return 0;
}`;
    const h = await runToEnd(code);
    const ret = (line: string) => h.ex.lineMarks.get(lineOf(code, line))?.calls.find((c) => c.fn === 'aclrtMemcpy')?.retName;
    expect([ret('aclError up'), ret('aclError down'), ret('aclError half')]).toEqual(['ACL_SUCCESS', 'ACL_SUCCESS', 'ACL_SUCCESS']);
    // 64 bytes do not fit in the 4 bytes of num: the runtime refuses, as it would with a real 4-byte host buffer (CP-2).
    expect(ret('aclError tooBig')).toBe('ACL_ERROR_INVALID_PARAM');
    expect(h.ex.calls.filter((c) => c.fn === 'malloc' || c.fn === 'free').map((c) => [c.fn, c.line])).toEqual([
      ['malloc', lineOf(code, 'aclError up')],
      ['malloc', lineOf(code, 'aclError down')],
      // The block ends: num first (declared first, freed last), C++'s reverse order.
      ['free', lineOf(code, '    }')],
      ['free', lineOf(code, '    }')],
    ]);
    expect(h.ex.lineMarks.get(lineOf(code, 'aclError up'))?.notes).toContain(
      'values (float[8]), a local on the stack, is host memory of the process: 32 B of pageable host memory at 0x7f0000000000 (malloc, HM-1)',
    );
    expect(hostBuffers(h)).toEqual([]);
  });

  it('new[]/delete[] and malloc/free are heap memory the runtime sees; a host-to-device copy from them succeeds', async () => {
    const code = `int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    const size_t count = 1024;
    float* input = new float[count];
    void* scratch = malloc(4096);
    void* dev = nullptr;
    aclrtMalloc(&dev, count * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclError ret = aclrtMemcpy(dev, count * sizeof(float), input, count * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
    delete[] input;
    free(scratch);
    aclrtFree(dev);
    return ret;
}`;
    const h = await runToEnd(code);
    expect(h.ex.exitCode).toBe(0);
    expect(h.events.filter((e) => e.kind === 'hostAlloc').map((e) => (e.kind === 'hostAlloc' ? [e.fn, e.size, e.memory] : []))).toEqual([
      ['malloc', 4096, 'pageable'],
      ['malloc', 4096, 'pageable'],
    ]);
    expect(h.events.filter((e) => e.kind === 'hostFree')).toHaveLength(2);
  });
});

describe('std::vector, std::string, references, range-for, constexpr (issue 15)', () => {
  it('a vector as host buffer: (n), data(), size(), resize and push_back grow it as libstdc++ does; freed at the end', async () => {
    const code = `#include <vector>
#include <string>
#include <iostream>
constexpr int kRows = 4;
constexpr int kCols = 8;
constexpr size_t kCount = kRows * kCols;

static void Fill(std::vector<float>& data, float value) {
    for (auto& item : data) item = value;
}

int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    std::vector<float> host(kCount);
    Fill(host, 1.5f);
    void* dev = nullptr;
    size_t bytes = host.size() * sizeof(float);
    aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_NORMAL_ONLY);
    aclError ret = aclrtMemcpy(dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    host.resize(40);
    std::vector<int32_t> ids;
    ids.push_back(1);
    ids.push_back(2);
    ids.push_back(3);
    int32_t second = ids[1];
    ids[2] = 30;
    int32_t last = ids.back();
    float filled = host[5];
    size_t idCount = ids.size();
    size_t idRoom = ids.capacity();
    std::string message = std::string("copied ") + "to device";
    std::cout << message << ": " << bytes << " bytes" << std::endl;
    bool ok = ret == ACL_SUCCESS && !host.empty();
    aclrtFree(dev);
    return ok ? 0 : 1;
}`;
    const h = await runToEnd(code);
    expect(h.ex.exitCode).toBe(0);
    expect([shown(h.ex, 'bytes'), shown(h.ex, 'idCount'), shown(h.ex, 'idRoom')]).toEqual(['128', '3', '4']);
    // The values the code writes are kept: push_back's, Fill's through a reference in a range-for, ids[2] = 30.
    expect([shown(h.ex, 'second'), shown(h.ex, 'last'), shown(h.ex, 'filled')]).toEqual(['2', '30', '1.5']);
    expect(h.ex.output).toEqual(['copied to device: 128 bytes\n']);
    // host: 32 floats, then 64 (resize to 40 > 32 grows to max(40, 2 × 32)); ids: 1, 2, 4 elements.
    const sizes = h.events.filter((e) => e.kind === 'hostAlloc').map((e) => (e.kind === 'hostAlloc' ? e.size : 0));
    expect(sizes).toEqual([128, 256, 4, 8, 16]);
    expect(hostBuffers(h)).toEqual([]);
    expect(shown(h.ex, 'host')).toMatch(/^\{size = 40, data = 0x7f[0-9a-f]+\}$/);
  });

  it('operator[] past the end and a vector copy stop with a message', async () => {
    const past = compile('std::vector<float> v(4);\nfloat x = v[4];');
    expect(past.ok).toBe(true);
    const { harness } = await import('./interp-helpers.ts');
    const h = harness('std::vector<float> v(4);\nfloat x = v[4];');
    expect((await h.ex.run()).error?.message).toBe('v[4] is outside its 4 elements (undefined behaviour in C++)');
    const copy = harness('std::vector<float> v(4);\nauto w = v;');
    expect((await copy.ex.run()).error?.message).toBe('auto w = a std::vector: copying a vector is not supported; write auto& w');
  });
});

describe('out of scope, with a designed message (issue 15)', () => {
  const scope = (what: string, line: number, column: number) =>
    `${what} at line ${line}, column ${column} is outside what the playground runs: build the program and run it with \`pagelens run\`, which records the memory calls of the real process`;

  it.each([
    ['a thread', 'int main() {\n    std::thread worker(Run);\n    return 0;\n}', 'A thread (std::thread)', 2, 5],
    ['std::call_once', 'std::once_flag flag;', 'std::call_once (its std::once_flag)', 1, 1],
    ['call_once itself', 'void Init();\nint main() {\n    std::call_once(flag, Init);\n}', 'std::call_once', 3, 5],
    ['a lambda', 'int main() {\n    auto f = [](int x) { return x; };\n}', 'A lambda', 2, 14],
    ['a template', 'template <typename T>\nT Twice(T x) { return x * 2; }', 'A template the code defines ("template <typename T>")', 1, 1],
    ['inheritance', 'struct Base { int a; };\nstruct Derived : public Base { int b; };', 'Inheritance ("public Base")', 2, 16],
    ['try', 'int main() {\n    try { aclInit(nullptr); } catch (...) {}\n}', 'An exception handler (try/catch)', 2, 5],
    ['throw', 'int main() {\n  throw 1;\n}', 'Throwing an exception (throw)', 2, 3],
    [
      'a virtual member function',
      'class Model {\npublic:\n    virtual int Load() { return 0; }\n};',
      'The virtual member function Load() of Model (virtual functions and inheritance)',
      3,
      5,
    ],
  ])('%s', (_, code, what, line, column) => {
    expect(errorsOf(code).map((d) => [d.kind, d.message])).toEqual([['unsupported', scope(what, line, column)]]);
  });

  it('file I/O and kernel launches run as not-modeled notes', async () => {
    const code = `#include <fstream>
int main() {
    std::ifstream file("input.bin", std::ios::binary);
    bool opened = file.is_open();
    add_custom<<<8, nullptr, nullptr>>>(nullptr, nullptr);
    return opened ? 0 : 1;
}`;
    const h = await runToEnd(code.replace('std::ios::binary', '0'));
    expect(h.ex.exitCode).toBe(0);
    expect(h.ex.lineMarks.get(3)?.notes).toEqual(['the std::ifstream file is not modeled: PageLens runs no file system']);
    expect(h.ex.lineMarks.get(5)?.notes[0]).toMatch(/^the kernel launch add_custom<<<…>>> is not modeled/);
  });
});
