import { describe, expect, it } from 'vitest';
import { compile } from '../src/interp/compile.ts';
import { harness, lineOf, runToEnd, shown } from './interp-helpers.ts';

/*
 * What real ACL programs bring besides memory calls (issue 15): model execution, types of other
 * libraries, `thread_local`, values read out of files. Each either runs as a designed note or
 * stops with a designed message; never a generic syntax error or a false ACL error.
 */

const errorsOf = (code: string) => compile(code).diagnostics.filter((d) => d.severity === 'error');
const notesOf = (code: string) => compile(code).diagnostics.filter((d) => d.severity === 'note');
const runTail = 'or build the program and run it with `pagelens run`, which records the memory calls of the real process';

describe('model execution: aclmdl types are opaque, their calls notes (issue 15)', () => {
  const code = `#include "acl/acl.h"
using namespace std;
aclmdlDesc* g_modelDesc = nullptr;

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    string modelPath = "../model/resnet50.om";
    uint32_t modelId = 0;
    aclmdlLoadFromFile(modelPath.c_str(), &modelId);
    g_modelDesc = aclmdlCreateDesc();
    if (g_modelDesc == nullptr) {
        return 1;
    }
    aclmdlGetDesc(g_modelDesc, modelId);
    aclmdlDataset* input = aclmdlCreateDataset();
    void* dev = nullptr;
    aclrtMalloc(&dev, 602112, ACL_MEM_MALLOC_HUGE_FIRST);
    aclDataBuffer* buffer = aclCreateDataBuffer(dev, 602112);
    aclmdlAddDatasetBuffer(input, buffer);
    aclmdlExecute(modelId, input, nullptr);
    aclDestroyDataBuffer(buffer);
    aclmdlDestroyDataset(input);
    aclrtFree(dev);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}`;

  it('a note says once per type that it is opaque; each model call is a note, the create calls answer a non-NULL handle', async () => {
    expect(
      notesOf(code)
        .filter((d) => d.kind === 'unsupported')
        .map((d) => [d.line, d.message.split(' is an ')[0]]),
    ).toEqual([
      [3, 'aclmdlDesc'],
      [17, 'aclmdlDataset'],
      [20, 'aclDataBuffer'],
    ]);
    const h = await runToEnd(code);
    expect(h.ex.exitCode).toBe(0);
    expect(h.ex.aclErrors).toBe(0);
    expect(h.ex.calls.map((c) => c.fn)).toEqual([
      'aclInit',
      'aclrtSetDevice',
      'aclrtMalloc',
      'aclrtFree',
      'aclrtResetDevice',
      'aclFinalize',
    ]);
    const executed = h.ex.lineMarks.get(lineOf(code, 'aclmdlExecute('));
    expect(executed?.notes).toEqual([
      'aclmdlExecute is model execution (or an operator), which is not modeled: PageLens tracks memory, not models; its arguments were evaluated and it returned 0',
    ]);
    expect(executed?.warnings).toEqual([]);
    expect(h.ex.lineMarks.get(lineOf(code, 'aclmdlCreateDesc()'))?.notes[0]).toContain('returned an opaque handle');
    expect(shown(h.ex, 'input')).not.toBe('NULL');
  });
});

describe('types of other libraries name themselves (issue 15)', () => {
  it.each([
    ['a framework typedef', 'static void Sync(ggml_backend_t backend) {}', 'ggml_backend_t', 1, 18, 'ggml'],
    [
      'a status enum of a plugin API',
      'C_Status SetDevice(const int device) { return 0; }',
      'C_Status',
      1,
      1,
      "PaddlePaddle's custom-device C API",
    ],
    [
      'a scoped library type',
      'int main() {\n    at::OptionalDeviceGuard guard;\n    return 0;\n}',
      'at::OptionalDeviceGuard',
      2,
      5,
      'PyTorch (c10, ATen) or torch_npu',
    ],
    ["Python's object type", 'static PyObject* g_malloc = nullptr;', 'PyObject', 1, 8, "Python's C API"],
  ])('%s', (_, code, type, line, column, library) => {
    expect(errorsOf(code).map((d) => d.message)).toEqual([
      `the type "${type}" at line ${line}, column ${column} is another library's, ${library}: its headers define it, and the playground runs only the code given, not that library; ${runTail.replace(/^or /, '')}`,
    ]);
  });

  it('a type no known library spells stays unknown: a header of the code or a library defines it', () => {
    expect(errorsOf('TransferMetadata* g_meta = nullptr;').map((d) => d.message)).toEqual([
      `unknown type "TransferMetadata" at line 1, column 1: not a C or ACL type, and the code does not define it (a header or another library does): define it above its first use, ${runTail}`,
    ]);
  });

  it.each([
    [
      'a std::set after using namespace std',
      'using namespace std;\nint main() {\n    set<float, greater<float>> top;\n    return 0;\n}',
      'The C++ library type "set<float, greater<float>>" (PageLens models std::vector, std::string, std::map, std::unordered_map, std::optional, std::shared_ptr and std::unique_ptr of the library) at line 3, column 5 is outside what the playground runs: build the program and run it with `pagelens run`, which records the memory calls of the real process',
    ],
    [
      'std::chrono timing after using namespace std',
      'using namespace std;\nint main() {\n    chrono::steady_clock::time_point start;\n    return 0;\n}',
      'Timing with std::chrono ("chrono::steady_clock::time_point": PageLens keeps no clock) at line 3, column 5 is outside what the playground runs: build the program and run it with `pagelens run`, which records the memory calls of the real process',
    ],
    [
      'an over-aligned member (torch_npu keeps its event pools off one cache line)',
      'struct Pool {\n    alignas(64) int count_;\n};',
      'An alignment specifier (alignas) at line 2, column 5 is outside what the playground runs: build the program and run it with `pagelens run`, which records the memory calls of the real process',
    ],
    [
      'a reader-writer lock',
      'std::shared_mutex g_lock;',
      'Thread synchronisation (std::shared_mutex) at line 1, column 1 is outside what the playground runs: build the program and run it with `pagelens run`, which records the memory calls of the real process',
    ],
    [
      "another library's template",
      'ska::flat_hash_map<void*, size_t> g_sizes;',
      'The template type "ska::flat_hash_map<void*, size_t>" (another library\'s, flat_hash_map, which torch_npu vendors) at line 1, column 1 is outside what the playground runs: build the program and run it with `pagelens run`, which records the memory calls of the real process',
    ],
    [
      'a static member of a class in a header',
      '#include "sample_process.h"\naclrtStream SampleProcess::stream_ = nullptr;',
      `SampleProcess::stream_ at line 2, column 13 is a static member of SampleProcess, a class the code does not define (its definition is in a header, and PageLens reads no headers): paste the class definition above it, ${runTail}`,
    ],
  ])('%s', (_, code, message) => {
    expect(errorsOf(code).map((d) => d.message)).toEqual([message]);
  });

  it('string and ifstream after using namespace std are the library types', async () => {
    const code =
      'using namespace std;\nint main() {\n    string path = "a.bin";\n    ifstream file(path);\n    size_t n = path.size();\n    return 0;\n}';
    const h = await runToEnd(code);
    expect(shown(h.ex, 'n')).toBe('5');
  });
});

describe('thread_local, functional casts (issue 15)', () => {
  it('thread_local is an ordinary variable in a one-thread run, with a note', async () => {
    const code =
      'thread_local int32_t g_device = -1;\nint main() {\n    g_device = int(0.9);\n    aclrtSetDevice(g_device);\n    size_t half = size_t(4097 / 2);\n    return 0;\n}';
    expect(notesOf(code).map((d) => [d.line, d.message])).toEqual([
      [1, 'thread_local: the playground runs one thread, so this is an ordinary variable (its one copy)'],
    ]);
    const h = await runToEnd(code);
    expect(h.ex.calls.map((c) => [c.fn, c.retName])).toEqual([['aclrtSetDevice', 'ACL_SUCCESS']]);
    expect(shown(h.ex, 'g_device')).toBe('0');
    expect(shown(h.ex, 'half')).toBe('2048 (2 KiB)');
  });
});

describe('a size read out of memory contents PageLens does not model (issue 15)', () => {
  it('stops at the call with a message naming the read, instead of a false ACL_ERROR_INVALID_PARAM', async () => {
    const code = `int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    void* tilingHost = nullptr;
    aclrtMallocHost(&tilingHost, 12);
    ReadFile("./input/tiling.bin", 12, tilingHost, 12);
    uint32_t blockDim = *(const uint32_t*)tilingHost;
    size_t inputByteSize = blockDim * 2048 * sizeof(uint16_t);
    void* xHost = nullptr;
    aclrtMallocHost(&xHost, inputByteSize);
    return 0;
}`;
    const h = harness(code);
    const outcome = await h.ex.run();
    expect([outcome.state, outcome.line, outcome.error?.kind]).toEqual(['error', 10, 'unsupported']);
    expect(outcome.error?.message).toMatch(
      /^argument 2 of aclrtMallocHost \("inputByteSize"\) comes from memory contents PageLens does not model \(line 7 reads the uint32_t at 0x[0-9a-f]+, /,
    );
    expect(h.ex.aclErrors).toBe(0);
    expect(h.ex.calls.map((c) => c.fn)).toEqual(['aclInit', 'aclrtSetDevice', 'aclrtMallocHost']);
  });

  it('a size the code computes itself from known values still runs', async () => {
    const code =
      'int main() {\n    aclInit(nullptr);\n    aclrtSetDevice(0);\n    uint32_t blockDim = 8;\n    void* x = nullptr;\n    aclrtMallocHost(&x, blockDim * 2048 * sizeof(uint16_t));\n    aclrtFreeHost(x);\n    return 0;\n}';
    const h = await runToEnd(code);
    expect(h.ex.calls.map((c) => c.retName)).toEqual(['ACL_SUCCESS', 'ACL_SUCCESS', 'ACL_SUCCESS', 'ACL_SUCCESS']);
  });
});

describe('destructors next to comments (issue 15)', () => {
  it('a destructor under a doc comment, as ggml writes them, parses and runs', async () => {
    const code = `struct Pool {
    void* base = nullptr;
    /**
     * @brief Frees the pool's memory.
     */
    ~Pool() {
        if (base != nullptr) {
            (void)aclrtFree(base);
        }
    }
    // Grows the pool.
    void Grow() { (void)aclrtMalloc(&base, 4096, ACL_MEM_MALLOC_NORMAL_ONLY); }
};
int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    {
        Pool pool;
        pool.Grow();
    }
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}`;
    const h = await runToEnd(code);
    expect(h.ex.calls.map((c) => c.fn)).toEqual([
      'aclInit',
      'aclrtSetDevice',
      'aclrtMalloc',
      'aclrtFree',
      'aclrtResetDevice',
      'aclFinalize',
    ]);
    expect(h.ex.aclErrors).toBe(0);
  });
});

describe('brace initialisers on members (issue 15)', () => {
  it('void* ptr_{}; and int32_t device_{-1}; are members with initialisers, not function definitions', async () => {
    const code = `class Segment final {
public:
    Segment() {}
    void Map() { (void)aclrtMalloc(&ptr_, size_, ACL_MEM_MALLOC_HUGE_ONLY); }
    void* ptr_{};
    size_t size_{2097152};
};
struct Empty {};
int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    Segment segment;
    segment.Map();
    int32_t count{3};
    void* base = segment.ptr_;
    aclrtFree(base);
    return count;
}`;
    const h = await runToEnd(code);
    expect(h.ex.calls.map((c) => [c.fn, c.retName])).toEqual([
      ['aclInit', 'ACL_SUCCESS'],
      ['aclrtSetDevice', 'ACL_SUCCESS'],
      ['aclrtMalloc', 'ACL_SUCCESS'],
      ['aclrtFree', 'ACL_SUCCESS'],
    ]);
    expect(h.events.find((e) => e.kind === 'alloc')).toMatchObject({ size: 2097152 });
    expect(h.ex.exitCode).toBe(3);
  });
});

describe('statements in the arguments of a macro from a header (issue 15)', () => {
  it('names the macro instead of a bare syntax error', () => {
    const code =
      'bool Init() {\n    void* dev = nullptr;\n    ACL_REQUIRES_OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_NORMAL_ONLY), return false);\n    return true;\n}';
    expect(errorsOf(code).map((d) => [d.line, d.column, d.message])).toEqual([
      [
        3,
        72,
        `syntax error at line 3, column 72: "return" inside the arguments of ACL_REQUIRES_OK(…), a macro the code does not define (its #define is in a header, and PageLens reads no headers): paste the #define above its first use, ${runTail}`,
      ],
    ]);
  });
});
