import { describe, expect, it } from 'vitest';
import { compile } from '../src/interp/compile.ts';
import { lineOf, runToEnd, shown } from './interp-helpers.ts';

/*
 * Classes as the Ascend samples write them (issue 15): a process object with a constructor, a
 * destructor and member functions defined in and out of the class, `this`, members of class type,
 * `new`/`delete`, and `switch`. The programs are PageLens's own, in the samples' style.
 */

const errorsOf = (code: string) => compile(code).diagnostics.filter((d) => d.severity === 'error');
const calledFns = (h: Awaited<ReturnType<typeof runToEnd>>) => h.ex.calls.map((c) => c.fn);

describe('a sample process class: constructor, destructor, member functions (issue 15)', () => {
  const code = `#include "acl/acl.h"
#include <cstdio>
#define INFO_LOG(fmt, ...) printf("[INFO]  " fmt "\\n", ##__VA_ARGS__)

typedef enum Result { SUCCESS = 0, FAILED = 1 } Result;

class BlockPool {
public:
    explicit BlockPool(size_t blockSize) : blockSize_(blockSize), count_(0) {}
    ~BlockPool();
    Result Grow(uint32_t blocks);
    void Release();
    size_t Bytes() const { return blockSize_ * count_; }
private:
    size_t blockSize_;
    uint32_t count_;
    void* blocks_[4] = {};
};

class SampleProcess {
public:
    SampleProcess();
    ~SampleProcess();
    Result InitResource();
    Result Process();
    size_t PoolBytes() const { return pool_.Bytes(); }
private:
    void DestroyResource();
    int32_t deviceId_;
    aclrtContext context_;
    aclrtStream stream_;
    BlockPool pool_;
};

SampleProcess::SampleProcess() : deviceId_(0), context_(nullptr), stream_(nullptr), pool_(2 * 1024 * 1024)
{
}

SampleProcess::~SampleProcess()
{
    DestroyResource();
}

Result SampleProcess::InitResource()
{
    aclError ret = aclInit(nullptr);
    if (ret != ACL_SUCCESS) {
        return FAILED;
    }
    ret = aclrtSetDevice(deviceId_);
    if (ret != ACL_SUCCESS) {
        return FAILED;
    }
    ret = aclrtCreateContext(&context_, deviceId_);
    if (ret != ACL_SUCCESS) {
        return FAILED;
    }
    ret = aclrtCreateStream(&this->stream_);
    if (ret != ACL_SUCCESS) {
        return FAILED;
    }
    INFO_LOG("open device %d success", deviceId_);
    return SUCCESS;
}

Result SampleProcess::Process()
{
    return pool_.Grow(2);
}

void SampleProcess::DestroyResource()
{
    pool_.Release();
    if (stream_ != nullptr) {
        (void)aclrtDestroyStream(stream_);
        stream_ = nullptr;
    }
    if (context_ != nullptr) {
        (void)aclrtDestroyContext(context_);
        context_ = nullptr;
    }
    (void)aclrtResetDevice(deviceId_);
    (void)aclFinalize();
}

Result BlockPool::Grow(uint32_t blocks)
{
    for (uint32_t i = 0; i < blocks; ++i) {
        if (aclrtMalloc(&blocks_[count_], blockSize_, ACL_MEM_MALLOC_HUGE_ONLY) != ACL_SUCCESS) {
            return FAILED;
        }
        this->count_++;
    }
    return SUCCESS;
}

void BlockPool::Release()
{
    for (uint32_t i = 0; i < count_; ++i) {
        (void)aclrtFree(blocks_[i]);
    }
    count_ = 0;
}

BlockPool::~BlockPool()
{
    Release();
}

int main()
{
    SampleProcess sampleProcess;
    Result ret = sampleProcess.InitResource();
    if (ret != SUCCESS) {
        return FAILED;
    }
    ret = sampleProcess.Process();
    size_t held = sampleProcess.PoolBytes();
    INFO_LOG("the pool holds %zu bytes", held);
    return ret;
}`;

  it('runs main as the samples write it: the constructor before the first call, the destructor when main ends', async () => {
    const h = await runToEnd(code);
    expect(h.ex.exitCode).toBe(0);
    expect(h.ex.aclErrors).toBe(0);
    expect(calledFns(h)).toEqual([
      'aclInit',
      'aclrtSetDevice',
      'aclrtCreateContext',
      'aclrtCreateStream',
      'aclrtMalloc',
      'aclrtMalloc',
      'aclrtFree',
      'aclrtFree',
      'aclrtDestroyStream',
      'aclrtDestroyContext',
      'aclrtResetDevice',
      'aclFinalize',
    ]);
    expect(shown(h.ex, 'held')).toBe('4194304 (4 MiB)');
    // Two 2 MiB huge-page blocks, then nothing left: the destructor gave everything back.
    expect(h.events.filter((e) => e.kind === 'alloc').map((e) => (e.kind === 'alloc' ? e.size : 0))).toEqual([2097152, 2097152]);
    expect(h.host.state.allocations.size).toBe(0);
    expect(h.host.state.streams.size).toBe(0);
    expect(h.ex.output.join('')).toContain('[INFO]  open device 0 success');
  });

  it('marks each call on its line inside the member functions, and the pool member destroyed after its owner', async () => {
    const h = await runToEnd(code);
    const frees = h.ex.lineMarks.get(lineOf(code, '(void)aclrtFree(blocks_[i]);'));
    // Release() runs twice: from DestroyResource (two frees), then from ~BlockPool (count_ is 0 by then).
    expect(frees?.calls.map((c) => c.retName)).toEqual(['ACL_SUCCESS', 'ACL_SUCCESS']);
    expect(h.ex.lineMarks.get(lineOf(code, 'count_ = 0;'))?.hits).toBe(2);
    expect(h.ex.lineMarks.get(lineOf(code, 'this->count_++;'))?.hits).toBe(2);
  });

  it('pauses inside a member function when stepped into, with its members and this visible', async () => {
    const { harness } = await import('./interp-helpers.ts');
    const h = harness(code, { breakpoints: [lineOf(code, 'return pool_.Grow(2);')] });
    const paused = await h.ex.run();
    expect(paused.state).toBe('paused');
    expect(h.ex.currentLine).toBe(lineOf(code, 'return pool_.Grow(2);'));
    const names = h.ex.variables().map((v) => v.name);
    expect(names).toEqual(expect.arrayContaining(['deviceId_', 'stream_', 'pool_', 'this']));
    expect(shown(h.ex, 'deviceId_')).toBe('0');
  });
});

describe('objects made by new, overloaded constructors, static member functions (issue 15)', () => {
  const code = `#include "acl/acl.h"
struct DeviceBuffer {
    void* ptr = nullptr;
    size_t size = 0;
    DeviceBuffer() {}
    DeviceBuffer(size_t bytes) : size(bytes)
    {
        (void)aclrtMalloc(&ptr, size, ACL_MEM_MALLOC_NORMAL_ONLY);
    }
    ~DeviceBuffer()
    {
        if (ptr != nullptr) {
            (void)aclrtFree(ptr);
        }
    }
    static size_t Align(size_t n) { return (n + 31) / 32 * 32; }
    bool Valid() const { return ptr != nullptr; }
};

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    DeviceBuffer* buffer = new DeviceBuffer(DeviceBuffer::Align(1000));
    bool valid = buffer->Valid();
    size_t held = buffer->size;
    delete buffer;
    bool emptyValid = true;
    {
        DeviceBuffer empty;
        emptyValid = empty.Valid();
    }
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}`;

  it('new runs the constructor on heap memory from malloc; -> reaches its members; delete runs the destructor, then free', async () => {
    const h = await runToEnd(code);
    expect(h.ex.aclErrors).toBe(0);
    expect(calledFns(h)).toEqual([
      'aclInit',
      'aclrtSetDevice',
      'malloc',
      'aclrtMalloc',
      'aclrtFree',
      'free',
      'aclrtResetDevice',
      'aclFinalize',
    ]);
    expect(h.ex.calls.find((c) => c.fn === 'malloc')?.line).toBe(lineOf(code, 'new DeviceBuffer'));
    expect(h.ex.calls.find((c) => c.fn === 'aclrtFree')?.line).toBe(lineOf(code, '(void)aclrtFree(ptr);'));
    expect(h.events.find((e) => e.kind === 'alloc')).toMatchObject({ size: 1024 });
    expect(shown(h.ex, 'valid')).toBe('true');
    expect(shown(h.ex, 'held')).toBe('1024 (1 KiB)');
    expect(shown(h.ex, 'emptyValid')).toBe('false');
  });

  it('a constructor that takes no such number of arguments stops the run with a type error', async () => {
    const bad =
      'struct Pool {\n    size_t size = 0;\n    Pool(size_t n) : size(n) {}\n};\nint main() {\n    Pool p(1, 2);\n    return 0;\n}';
    const { harness } = await import('./interp-helpers.ts');
    const outcome = await harness(bad).ex.run();
    expect([outcome.state, outcome.line, outcome.error?.message]).toEqual([
      'error',
      6,
      'Pool has no constructor taking 2 argument(s) for p',
    ]);
  });

  it('calling a member function without an object is a type error', async () => {
    const bad = 'struct Pool {\n    int Count() { return 1; }\n};\nint main() {\n    return Pool::Count();\n}';
    const { harness } = await import('./interp-helpers.ts');
    const outcome = await harness(bad).ex.run();
    expect(outcome.error?.message).toBe('Pool::Count is a member function of Pool: call it on an object (object.Count(…))');
  });
});

describe('switch, case, default (issue 15)', () => {
  const code = `#include "acl/acl.h"
int Weight(int kind)
{
    int weight = 0;
    switch (kind) {
        case 0:
            weight += 1;
        case 1:
            weight += 10;
            break;
        case ACL_MEM_MALLOC_NORMAL_ONLY:
            weight = 100;
            break;
        default:
            weight = -1;
    }
    return weight;
}

aclError AllocFor(int kind, void** ptr)
{
    switch (kind) {
        case 'h':
            return aclrtMalloc(ptr, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
        case 'n': {
            aclrtMemMallocPolicy policy = ACL_MEM_MALLOC_NORMAL_ONLY;
            return aclrtMalloc(ptr, 4096, policy);
        }
    }
    return ACL_ERROR_INVALID_PARAM;
}

int main()
{
    int a = Weight(0);
    int b = Weight(1);
    int c = Weight(2);
    int d = Weight(7);
    int counted = 0;
    for (int i = 0; i < 4; ++i) {
        switch (i) {
            case 1:
                continue;
            default:
                break;
        }
        counted++;
    }
    aclInit(nullptr);
    aclrtSetDevice(0);
    void* dev = nullptr;
    aclError viaName = AllocFor('n', &dev);
    aclError unknown = AllocFor('x', &dev);
    aclrtFree(dev);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}`;

  it('falls through to the next label, break leaves the switch (not the loop), continue goes on with the loop', async () => {
    const h = await runToEnd(code);
    expect(['a', 'b', 'c', 'd', 'counted'].map((name) => shown(h.ex, name))).toEqual(['11', '10', '100', '-1', '3']);
  });

  it('a return inside a case, a block as a case body, and no matching label without default runs nothing', async () => {
    const h = await runToEnd(code);
    expect(shown(h.ex, 'viaName')).toBe('0');
    expect(shown(h.ex, 'unknown')).toBe('100000');
    expect(h.ex.calls.filter((c) => c.fn === 'aclrtMalloc').length).toBe(1);
    expect(h.events.find((e) => e.kind === 'alloc')).toMatchObject({ size: 4096 });
    expect(h.ex.lineMarks.get(lineOf(code, 'weight = -1;'))?.hits).toBe(1);
    expect(h.ex.lineMarks.get(lineOf(code, 'weight += 1;'))?.hits).toBe(1);
  });
});

describe('~ in expressions and destructors (issue 15)', () => {
  it('~mask stays the complement operator next to destructors', async () => {
    const code = `struct Guard {
    int released = 0;
    ~Guard() { released = 1; }
};
int main() {
    uint32_t flags = 0x0F;
    uint32_t inverted = ~flags;
    uint32_t picked = flags > 1 ? ~flags : 0;
    Guard guard;
    return 0;
}`;
    const h = await runToEnd(code);
    expect(shown(h.ex, 'inverted')).toBe('4294967280');
    expect(shown(h.ex, 'picked')).toBe('4294967280');
    expect(h.ex.lineMarks.get(lineOf(code, 'released = 1;'))?.hits).toBe(1);
  });

  it('virtual functions and inheritance keep their designed message', () => {
    const code = 'class Engine {\npublic:\n    virtual ~Engine() {}\n    virtual void Run();\n};';
    expect(errorsOf(code).map((d) => [d.line, d.column, d.message.split(' is outside')[0]])).toEqual([
      [4, 5, 'The virtual member function Run() of Engine (virtual functions and inheritance) at line 4, column 5'],
    ]);
  });

  it('a virtual destructor of a class with no base is an ordinary destructor (no inheritance)', async () => {
    const code = `class Pool {
public:
    Pool() = default;
    virtual ~Pool();
    void* Take() { return buffer_; }
private:
    void* buffer_ = nullptr;
};
Pool::~Pool() { (void)aclrtFree(buffer_); }
int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    { Pool pool; }
    return 0;
}`;
    expect(errorsOf(code)).toEqual([]);
    const h = await runToEnd(code);
    expect(h.ex.calls.map((call) => call.fn)).toEqual(['aclInit', 'aclrtSetDevice', 'aclrtFree']);
  });
});
