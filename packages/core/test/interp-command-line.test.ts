import { describe, expect, it } from 'vitest';
import { compile } from '../src/interp/compile.ts';
import { harness as harnessOf, lineOf, runToEnd, shown } from './interp-helpers.ts';

const errorsOf = (code: string) => compile(code).diagnostics.filter((d) => d.severity === 'error');

/** The Ascend memcpy samples' get_option, cut to two options: a getopt_long table and atoi of optarg. */
const SAMPLE = `#include <getopt.h>
uint32_t g_release_cycle = -1;
size_t g_memory_size = 10485760;
int32_t get_option(int32_t argc, char **argv)
{
    int32_t c = 0;
    int32_t option_index = 0;
    struct option long_options[] =
    {
        {"release_cycle",       1, nullptr, 'r'},
        {"memory_size",         required_argument, nullptr, 's'},
        {nullptr,               0, nullptr, 0}
    };
    while (1) {
        c = getopt_long(argc, argv, "r:s:", long_options, &option_index);
        if (c == -1) {
            break;
        }
        switch (c) {
            case 'r':
                g_release_cycle = atoi(optarg);
                break;
            case 's':
                g_memory_size = strtoul(optarg, nullptr, 0);
                break;
            default:
                return 1;
        }
    }
    return 0;
}
int32_t main(int32_t argc, char *argv[])
{
    if (argc < 3) {
        printf("usage: %s --release_cycle N\\n", argv[0]);
        return 2;
    }
    if (get_option(argc, &(*argv)) != 0) return 1;
    void* dev = nullptr;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtMalloc(&dev, g_memory_size, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtFree(dev);
    return (int32_t)g_release_cycle;
}`;

describe('the command line of main', () => {
  it('argv is the program name alone by default: argc is 1, and the sample prints its usage', async () => {
    const h = await runToEnd(SAMPLE);
    expect(h.ex.exitCode).toBe(2);
    expect(h.ex.output.join('')).toBe('usage: ./main --release_cycle N\n');
    expect(h.ex.calls).toEqual([]);
    expect(h.ex.lineMarks.get(lineOf(SAMPLE, 'int32_t main('))?.notes.join(' ')).toContain('simulated command line: "./main" (1 argument)');
  });

  it('getopt_long reads --name value and --name=value, and strtoul a hex size', async () => {
    const h = await runToEnd(SAMPLE, { argv: ['./main', '--release_cycle', '3', '--memory_size=0x200000'] });
    expect(h.ex.exitCode).toBe(3);
    const malloc = h.ex.calls.find((call) => call.fn === 'aclrtMalloc');
    expect(malloc?.ret).toBe(0);
    expect(h.events.find((e) => e.kind === 'alloc')).toMatchObject({ size: 2 * 1024 * 1024 });
  });

  it('an unknown option makes getopt_long answer ?', async () => {
    const h = await runToEnd(SAMPLE, { argv: ['./main', '--colour', 'red'] });
    expect(h.ex.exitCode).toBe(1);
  });

  it('getopt reads short options, joined or apart, and stops at the first non-option', async () => {
    const code = `int main(int argc, char** argv) {
    int c;
    int n = 0;
    int d = 0;
    while ((c = getopt(argc, argv, "n:d:")) != -1) {
        if (c == 'n') n = atoi(optarg);
        else if (c == 'd') d = atoi(optarg);
    }
    return n * 100 + d * 10 + (argc - optind);
}`;
    const h = await runToEnd(code, { argv: ['prog', '-n', '4', '-d2', 'rest'] });
    expect(h.ex.exitCode).toBe(421);
  });
});

describe('declarations real headers write', () => {
  it('a prototype returning a pointer or a reference declares a function, at top level and in a class', async () => {
    const code = `void *BaseAlloc(uint32_t n);
class Engine {
public:
    static Engine &Instance();
private:
    char *ReadBinFile(const std::string &name, uint32_t *size);
};
void *BaseAlloc(uint32_t n) { return malloc(n); }
int main() {
    void* p = BaseAlloc(64);
    free(p);
    return 0;
}`;
    expect(errorsOf(code)).toEqual([]);
    const h = await runToEnd(code);
    expect(h.ex.calls.map((call) => [call.fn, call.ret])).toEqual([
      ['malloc', 0],
      ['free', 0],
    ]);
  });

  it('a byte-order mark before a file (one of several joined) is no character of the code', () => {
    expect(errorsOf('\uFEFF/** @file common.h */\nint a = 1;\n\uFEFF/** next */\nint b = 2;')).toEqual([]);
  });

  it('vector<T> after using namespace std is std::vector', async () => {
    const h = await runToEnd('using namespace std;\nvector<void*> list;\nlist.push_back(nullptr);\nsize_t n = list.size();');
    expect(h.ex.variables().find((v) => v.name === 'n')?.value).toBe('1');
  });

  it('acldvppMalloc and acldvppFree run as aclrtMalloc and aclrtFree, with a note saying so', async () => {
    const code = 'aclInit(nullptr);\naclrtSetDevice(0);\nvoid* dev = nullptr;\nacldvppMalloc(&dev, 4096);\nacldvppFree(dev);';
    const h = await runToEnd(code);
    expect(h.ex.calls.map((call) => [call.fn, call.ret])).toEqual([
      ['aclInit', 0],
      ['aclrtSetDevice', 0],
      ['aclrtMalloc', 0],
      ['aclrtFree', 0],
    ]);
    expect(h.ex.lineMarks.get(4)?.notes.join(' ')).toContain('runs as aclrtMalloc(…, ACL_MEM_MALLOC_HUGE_FIRST)');
  });
});

describe('the build and what PageLens cannot know', () => {
  it('-D flags of the build are defined before the first line, so a file inside #ifdef USE_NPU runs', async () => {
    const code = '#ifdef USE_NPU\nint npu = USE_NPU;\n#else\nint npu = -1;\n#endif';
    expect((await runToEnd(code)).ex.variables().find((v) => v.name === 'npu')?.value).toBe('-1');
    const h = await runToEnd(code, { defines: { USE_NPU: '1' } });
    expect(h.ex.variables().find((v) => v.name === 'npu')?.value).toBe('1');
  });

  it('module is an ordinary identifier, not the C++20 keyword', async () => {
    const code = 'int module = 3;\nint twice = module * 2;';
    expect(errorsOf(code)).toEqual([]);
    const h = await runToEnd(code);
    expect(h.ex.variables().map((v) => [v.name, v.value])).toEqual(
      expect.arrayContaining([
        ['module', '3'],
        ['twice', '6'],
      ]),
    );
  });

  it('a size a file stream reports stops the run at the ACL call it sizes, naming the file read (no made-up 0)', async () => {
    const code = `using namespace std;
void* host = nullptr;
ifstream binFile("dog.bin", ifstream::binary);
binFile.seekg(0, binFile.end);
size_t size = binFile.tellg();
aclInit(nullptr);
aclrtSetDevice(0);
aclrtMallocHost(&host, size);`;
    const h = harnessOf(code);
    const outcome = await h.ex.run();
    expect(outcome.state).toBe('error');
    expect(outcome.error?.line).toBe(8);
    expect(outcome.error?.message).toContain('comes from a file PageLens does not read (line 5: binFile.tellg() reports');
    expect(h.ex.calls.map((call) => call.fn)).toEqual(['aclInit', 'aclrtSetDevice']);
  });

  it("a model's output size stops the run at the allocation it sizes", async () => {
    const code = `aclInit(nullptr);
aclrtSetDevice(0);
aclmdlDesc* desc = aclmdlCreateDesc();
size_t outputSize = aclmdlGetOutputSizeByIndex(desc, 0);
void* out = nullptr;
aclrtMalloc(&out, outputSize, ACL_MEM_MALLOC_HUGE_FIRST);`;
    const outcome = await harnessOf(code).ex.run();
    expect(outcome.error?.line).toBe(6);
    expect(outcome.error?.message).toContain('comes from a model PageLens does not load (line 4: aclmdlGetOutputSizeByIndex(…)');
  });
});

describe('what real files carry around their code', () => {
  it('static_assert is checked when it folds, and fails with the code’s message', () => {
    expect(errorsOf('static_assert(sizeof(int) == 4, "int is 32 bits");\nint a = 1;')).toEqual([]);
    expect(errorsOf('static_assert(sizeof(int) == 8, "int is 64 bits");').map((d) => d.message)).toEqual([
      'static_assert failed: "int is 64 bits"',
    ]);
  });

  it('GNU attributes and an extern "C" prototype declare nothing that runs', () => {
    const code =
      'extern "C" __attribute__((weak)) aclError\naclrtReserveX(void** p, size_t size);\nstatic int counter __attribute__((unused)) = 2;';
    expect(errorsOf(code)).toEqual([]);
  });

  it('a brace initialiser over several lines, without =, initialises the object', async () => {
    const code = 'struct Pair { int a; int b; };\nstruct Pair pair {\n    3,\n    4, // the second\n};\nint sum = pair.a + pair.b;';
    expect(errorsOf(code)).toEqual([]);
    expect((await runToEnd(code)).ex.variables().find((v) => v.name === 'sum')?.value).toBe('7');
  });

  it("a class whose definition stops makes its members' messages point at that definition, not at a header", () => {
    const code = `class Runner {
public:
    template<typename T>
    void Set(T v) { value_ = v; }
    bool Init();
private:
    int value_ = 0;
};
bool Runner::Init() { return true; }`;
    const messages = errorsOf(code).map((d) => [d.line, d.message.split(/: the definition|: build/)[0]]);
    expect(messages).toEqual([
      [3, 'A member template the code defines ("template<typename T>" in Runner) at line 3, column 5 is outside what the playground runs'],
      [9, 'Runner::Init (a member function of Runner) at line 9, column 6'],
    ]);
    expect(errorsOf(code)[1]?.message).toContain(
      'the definition of Runner at line 3 is outside what the playground runs (A member template',
    );
  });
});

describe('the rest of the samples’ library', () => {
  it('a std::stringstream builds a file name with << and str(); a call’s result takes a method', async () => {
    const code = `using namespace std;
stringstream ss;
int executeNum = 0;
for (size_t i = 0; i < 2; ++i) {
    ss << "output" << ++executeNum << "_" << i << ".bin";
}
string name = ss.str();
std::ostringstream oss;
oss << 42;
size_t digits = oss.str().size();
ss.str("");
string emptied = ss.str();`;
    const h = await runToEnd(code);
    expect([shown(h.ex, 'name'), shown(h.ex, 'digits'), shown(h.ex, 'emptied')]).toEqual(['"output1_0.binoutput2_1.bin"', '2', '""']);
  });

  it('stat answers as for a regular file (a note says so), and its size is the file’s', async () => {
    const code = `struct stat sBuf;
int fileStatus = stat("model.om", &sBuf);
int regular = S_ISREG(sBuf.st_mode);
void* host = nullptr;
aclInit(nullptr);
aclrtSetDevice(0);
aclrtMallocHost(&host, sBuf.st_size);`;
    const h = harnessOf(code);
    const outcome = await h.ex.run();
    expect([shown(h.ex, 'fileStatus'), shown(h.ex, 'regular')]).toEqual(['0', '1']);
    expect(h.ex.lineMarks.get(2)?.notes.join(' ')).toContain('as if the path were a regular file');
    expect(outcome.error?.message).toContain("comes from a file PageLens does not read (line 2: stat(…) reports the file's size");
  });

  it('extern declares a variable another file defines; a model call’s out-parameters are the model’s', async () => {
    const code = `extern bool g_isDevice;
bool g_isDevice = false;
size_t workSize = 0;
size_t weightSize = 0;
aclInit(nullptr);
aclrtSetDevice(0);
aclmdlQuerySize("resnet50.om", &workSize, &weightSize);
void* work = nullptr;
aclrtMalloc(&work, workSize, ACL_MEM_MALLOC_HUGE_FIRST);`;
    const outcome = await harnessOf(code).ex.run();
    expect(outcome.error?.line).toBe(9);
    expect(outcome.error?.message).toContain('comes from a model PageLens does not load (line 7: aclmdlQuerySize(…) writes workSize');
  });
});

describe('string literals over lines', () => {
  it('a backslash ending a line inside a string joins the next line, as the memcpy samples print their sizes', async () => {
    const h = await runToEnd('printf("free:%d   \\\n      total\\n", 1);');
    expect(h.ex.output).toEqual(['free:1         total\n']);
  });
});
