import { describe, expect, it } from 'vitest';
import { compile } from '../src/interp/compile.ts';
import { lineOf, runToEnd, shown } from './interp-helpers.ts';

/*
 * std::shared_ptr and std::unique_ptr as ACL programs use them (issue 15): a dataset or buffer
 * owned by a shared_ptr with a release function as its deleter (the sentiment sample's pattern),
 * make_shared / make_unique, get(), `->`, `!p`, reset, copies sharing one owner, and a unique_ptr
 * returned from a factory. The programs are PageLens's own.
 */

const errorsOf = (code: string) => compile(code).diagnostics.filter((d) => d.severity === 'error');
const callsOf = (h: Awaited<ReturnType<typeof runToEnd>>) => h.ex.calls.map((c) => `${c.line}:${c.fn}`);

describe('std::shared_ptr and std::unique_ptr', () => {
  it('a shared_ptr with a deleter function frees the device buffer when its block ends, once, after its copies let go', async () => {
    const code = `struct Buffer { void* dev; size_t size; };
static void ReleaseBuffer(Buffer* b) {
    aclrtFree(b->dev);
    delete b;
}
int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    long count = 0;
    {
        std::shared_ptr<Buffer> owner(new Buffer(), ReleaseBuffer);
        if (!owner) return 1;
        aclrtMalloc(&owner->dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
        owner->size = 4096;
        {
            auto copy = owner;
            count = owner.use_count();
        }
        Buffer* raw = owner.get();
        if (raw == nullptr || owner == nullptr) return 2;
    }
    aclrtResetDevice(0);
    return 0;
}`;
    const h = await runToEnd(code);
    expect(h.ex.exitCode).toBe(0);
    expect(shown(h.ex, 'count')).toBe('2');
    const frees = h.ex.calls.filter((c) => c.fn === 'aclrtFree');
    // The deleter runs once, when the outer block ends (not when the copy's block does).
    expect(frees).toHaveLength(1);
    expect(frees[0]?.ret).toBe(0);
    const order = callsOf(h);
    expect(order.indexOf(`${lineOf(code, 'aclrtFree')}:aclrtFree`)).toBeLessThan(
      order.indexOf(`${lineOf(code, 'aclrtResetDevice')}:aclrtResetDevice`),
    );
    expect(h.host.state.allocations.size).toBe(0);
  });

  it("a static member function is the deleter, named plainly inside the class or qualified (the sentiment sample's datasets)", async () => {
    const code = `class Engine {
public:
    static void ReleaseInput(void* p) { aclrtFree(p); }
    static void ReleaseOutput(void* p) { aclrtFree(p); }
    int Run();
};
int Engine::Run() {
    void* in = nullptr;
    void* out = nullptr;
    aclrtMalloc(&in, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&out, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    std::shared_ptr<void> input(in, ReleaseInput);
    std::shared_ptr<void> output(out, Engine::ReleaseOutput);
    return input && output ? 0 : 1;
}
int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    Engine engine;
    int ret = engine.Run();
    return ret;
}`;
    const h = await runToEnd(code);
    expect(h.ex.exitCode).toBe(0);
    expect(h.ex.calls.filter((c) => c.fn === 'aclrtFree').map((c) => [c.line, c.ret])).toEqual([
      [4, 0],
      [3, 0],
    ]);
    expect(h.host.state.allocations.size).toBe(0);
  });

  it('make_shared and make_unique take pageable host memory with new and free it when the last owner lets go', async () => {
    const code = `struct Session { aclrtStream stream; };
int main() {
    auto session = std::make_shared<Session>();
    std::unique_ptr<int> counter = std::make_unique<int>(3);
    bool held = static_cast<bool>(counter);
    counter.reset();
    bool after = counter ? true : false;
    return 0;
}`;
    const h = await runToEnd(code);
    const heap = h.ex.calls.filter((c) => c.fn === 'malloc' || c.fn === 'free').map((c) => `${c.line}:${c.fn}`);
    expect(heap).toEqual(['3:malloc', '4:malloc', '6:free', '9:free']);
    expect([shown(h.ex, 'held'), shown(h.ex, 'after')]).toEqual(['true', 'false']);
  });

  it('a unique_ptr returned from a factory reaches its caller alive and is deleted when the caller is done', async () => {
    const code = `struct Pool { void* base; };
std::unique_ptr<Pool> MakePool() {
    auto pool = std::make_unique<Pool>();
    aclrtMalloc(&pool->base, 2097152, ACL_MEM_MALLOC_HUGE_ONLY);
    return pool;
}
int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    std::unique_ptr<Pool> pool = MakePool();
    void* base = pool->base;
    aclrtFree(pool->base);
    return 0;
}`;
    const h = await runToEnd(code);
    const heap = h.ex.calls.filter((c) => c.fn === 'malloc' || c.fn === 'free').map((c) => `${c.line}:${c.fn}`);
    // Freed at the end of main (line 14), not when MakePool's local goes (line 6).
    expect(heap).toEqual(['3:malloc', '14:free']);
    expect(h.ex.calls.find((c) => c.fn === 'aclrtFree')?.ret).toBe(0);
    expect(shown(h.ex, 'base')).not.toBe('NULL');
  });

  it('refuses what C++ refuses: copying a unique_ptr, a raw pointer assigned without make_* or a constructor', async () => {
    const copied = `int main() {
    auto a = std::make_unique<int>(1);
    std::unique_ptr<int> b = a;
    return 0;
}`;
    await expect(runToEnd(copied)).rejects.toThrow(/std::unique_ptr b cannot be a copy of another/);
    const raw = `int main() {
    int* p = new int;
    std::shared_ptr<int> s = p;
    return 0;
}`;
    await expect(runToEnd(raw)).rejects.toThrow(/cannot convert int\* 0x[0-9a-f]+ to std::shared_ptr<int>/);
  });

  it('weak_ptr and a unique_ptr deleter type stop with a message that names them and points to pagelens run', () => {
    const [weak] = errorsOf('std::weak_ptr<int> w;');
    expect(weak?.message).toMatch(/"std::weak_ptr<int>".*line 1, column 1.*`pagelens run`/);
    const [deleter] = errorsOf('std::unique_ptr<int, void (*)(int*)> u;');
    expect(deleter?.message).toMatch(/std::unique_ptr<T>, without a deleter type/);
  });
});
