import { describe, expect, it } from 'vitest';
import { compile } from '../src/interp/compile.ts';
import { harness, lineOf, runToEnd } from './interp-helpers.ts';

/*
 * What the CANN runtime's own samples (hicann/runtime example/) need beyond the guide's: kernels
 * defined next to the host code, POSIX file calls that hand data to a second process, and the
 * forms their helpers are written in.
 */

describe('kernels defined in the program (hicann/runtime example/kernel_func)', () => {
  const kernelFile = `extern "C" __global__ __aicore__ void DeviceRead(__gm__ int* devPtr)
{
    int32_t idx = block_idx;
    int value = devPtr[idx];
    AscendC::printf("Destination data: %d\\n", value);
#if __NPU_ARCH__ == 3510
    dcci(reinterpret_cast<__gm__ int64_t*>(devPtr), cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);
#endif
}

extern "C" __global__ __aicore__ void DeviceWrite(__gm__ int* devPtr, int value);

void ReadDo(uint32_t blockDim, void* stream, int* devPtr) { DeviceRead<<<blockDim, nullptr, stream>>>(devPtr); }
`;
  const host = `int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    int* devPtr = nullptr;
    aclrtMalloc((void**)&devPtr, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    const char* label = "a __global__ __aicore__ word in a string is text";
    ReadDo(1, stream, devPtr);
    aclrtFree(devPtr);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}`;
  const code = `${kernelFile}${host}`;

  it('skips a kernel definition and a kernel declaration as device code, with a note on each', async () => {
    const h = await runToEnd(code);
    expect(h.ex.exitCode).toBe(0);
    expect(h.ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
    expect(h.ex.calls.map((c) => c.fn)).toContain('aclrtMalloc');
    expect(h.ex.lineMarks.get(1)?.notes[0]).toMatch(
      /^DeviceRead \(lines 1–9\) is a kernel, device code for the AI Core: PageLens runs the host's code/,
    );
    const declaration = lineOf(code, 'void DeviceWrite');
    expect(h.ex.lineMarks.get(declaration)?.notes[0]).toMatch(/^DeviceWrite \(line 11\) declares a kernel/);
  });

  it('a launch of the skipped kernel inside a host helper stays a not-modeled note', async () => {
    const h = await runToEnd(code);
    const launch = lineOf(code, 'DeviceRead<<<');
    expect(h.ex.lineMarks.get(launch)?.notes).toContain(
      'the kernel launch DeviceRead<<<…>>> is not modeled: PageLens tracks memory, not kernels; its arguments were evaluated',
    );
    expect(h.ex.output.join('')).not.toContain('Destination data');
  });

  it('without the blanking the kernel body would not compile: the same body as a host function is an error', () => {
    const hostBody = kernelFile.replace(
      'extern "C" __global__ __aicore__ void DeviceRead(__gm__ int* devPtr)',
      'void DeviceRead(int* devPtr)',
    );
    expect(compile(`${hostBody}${host}`).diagnostics.filter((d) => d.severity === 'error')).not.toEqual([]);
  });
});

describe('two-process samples: what the other process wrote to a file (hicann/runtime memory/7…11)', () => {
  const readFile = `void ReadFile(const char* filePath, void* data, size_t bufferSize)
{
    int fd = open(filePath, O_RDONLY);
    if (fd == -1) {
        return;
    }
    struct stat fileStat;
    if (fstat(fd, &fileStat) == -1) {
        (void)close(fd);
        return;
    }
    size_t fileSize = static_cast<size_t>(fileStat.st_size);
    const ssize_t readSize = read(fd, data, fileSize);
    (void)close(fd);
}
`;

  it('open flags and permission bits are <fcntl.h>/<sys/stat.h> names with their values', async () => {
    const code = `int main() {
    int flags = O_WRONLY | O_CREAT | O_TRUNC;
    int mode = S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH;
    int fd = open("file/flag.bin", flags, mode);
    (void)close(fd);
    return flags == 01101 && mode == 0644 && O_RDONLY == 0 ? 0 : 1;
}`;
    const h = await runToEnd(code);
    expect(h.ex.exitCode).toBe(0);
    expect(h.ex.lineMarks.get(4)?.notes[0]).toMatch(/^open\(…\) is file I\/O, which is not modeled/);
  });

  it("a handle read from the file stops the ACL call it reaches, saying it is the file's", async () => {
    const code = `${readFile}int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    uint64_t shareableHandle = 0;
    ReadFile("file/handle.bin", &shareableHandle, sizeof(shareableHandle));
    aclrtDrvMemHandle importedHandle = nullptr;
    aclrtMemImportFromShareableHandle(shareableHandle, 0, &importedHandle);
    return 0;
}`;
    const compiled = compile(code);
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const h = harness(code);
    const outcome = await h.ex.run();
    expect(outcome.state).toBe('error');
    expect(outcome.error?.line).toBe(lineOf(code, 'aclrtMemImportFromShareableHandle('));
    expect(outcome.error?.message).toMatch(
      /^argument 1 of aclrtMemImportFromShareableHandle \("shareableHandle"\) comes from a file PageLens does not read \(line 13: read\(…\) fills shareableHandle with the file's bytes/,
    );
    expect(h.ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
  });

  it('a host buffer filled from the file is still copied: only values the runtime reads (keys, pid lists) stop', async () => {
    const code = `${readFile}int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    uint32_t num = 0;
    ReadFile("input/num.bin", &num, sizeof(num));
    void* dev = nullptr;
    aclrtMalloc(&dev, sizeof(num), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dev, sizeof(num), &num, sizeof(num), ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtFree(dev);
    return 0;
}`;
    const h = await runToEnd(code);
    expect(h.ex.calls.filter((c) => c.fn.startsWith('acl')).map((c) => [c.fn, c.ret])).toEqual([
      ['aclInit', 0],
      ['aclrtSetDevice', 0],
      ['aclrtMalloc', 0],
      ['aclrtMemcpy', 0],
      ['aclrtFree', 0],
    ]);
  });

  it('an IPC key or a pid list read from the file stops the call too (the check looks through the pointer)', async () => {
    const code = `${readFile}int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    char memName[256] = "name";
    ReadFile("file/memName.bin", memName, sizeof(memName));
    void* devPtr = nullptr;
    aclrtIpcMemImportByKey(&devPtr, memName, 0);
    return 0;
}`;
    const h = harness(code);
    const outcome = await h.ex.run();
    expect(outcome.error?.message).toMatch(/^argument 2 of aclrtIpcMemImportByKey \("memName"\) comes from a file PageLens does not read/);
    expect(h.ex.calls.map((c) => c.fn)).not.toContain('aclrtIpcMemImportByKey');
  });
});

describe('a char array initialised from a string literal (C11 6.7.9 §14)', () => {
  it('fills the bytes, then zeros; the key text reaches the runtime', async () => {
    const code = `int main() {
    char memName[8] = "name";
    char exact[4] = "abcd";
    int size = sizeof(memName);
    return memName[0] == 'n' && memName[3] == 'e' && memName[4] == 0 && memName[7] == 0 && exact[3] == 'd' && size == 8 ? 0 : 1;
}`;
    const h = await runToEnd(code);
    expect(h.ex.exitCode).toBe(0);
  });

  it("an array without a size takes the literal's length, its NUL included", async () => {
    const h = await runToEnd(
      'int main() {\n    char callbackTag[] = "tag";\n    return sizeof(callbackTag) * 10 + (callbackTag[3] == 0 ? 1 : 0);\n}',
    );
    expect(h.ex.exitCode).toBe(41);
  });

  it('a literal longer than the array is an error that says both lengths', async () => {
    const h = harness('int main() {\n    char key[3] = "name";\n    return 0;\n}');
    const outcome = await h.ex.run();
    expect(outcome.error?.message).toBe(
      'the string "name" (4 bytes) does not fit the array key[3]: make the array longer or the text shorter',
    );
  });
});

describe('default arguments (example/runtime_init_utils.h)', () => {
  const code = `namespace runtime {
inline aclError InitRuntimeAndCreateStream(int32_t deviceId, aclrtStream* stream, const char* configPath = nullptr)
{
    aclError ret = aclInit(configPath);
    if (ret != ACL_SUCCESS) {
        return ret;
    }
    ret = aclrtSetDevice(deviceId);
    if (ret != ACL_SUCCESS) {
        return ret;
    }
    return aclrtCreateStream(stream);
}
} // namespace runtime
int Sum(int a, int b = 2, int c = 3) { return a + b + c; }
int main() {
    aclrtStream stream = nullptr;
    int ret = static_cast<int>(runtime::InitRuntimeAndCreateStream(0, &stream));
    return ret + Sum(1) * 100 + Sum(1, 10) * 1000 + Sum(1, 1, 1) * 100000;
}`;

  it('a call that leaves a parameter out takes its default; one that gives it takes the argument', async () => {
    const h = await runToEnd(code);
    expect(h.ex.calls.map((c) => [c.fn, c.ret])).toEqual([
      ['aclInit', 0],
      ['aclrtSetDevice', 0],
      ['aclrtCreateStream', 0],
    ]);
    expect(h.ex.exitCode).toBe(6 * 100 + 14 * 1000 + 3 * 100000);
  });

  it('too few arguments for the parameters without a default is still an arity error', () => {
    const errors = compile(`${code.replace('Sum(1) * 100', 'Sum() * 100')}`).diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.message)).toEqual(['Sum takes 3 argument(s) (a, b, c), not 0']);
  });
});

describe('out of scope, with the designed message', () => {
  it('a lambda called where it is written (managed_memory/0_uvm_allocate) is named as a lambda, with its line and column', () => {
    const code = `int main() {
    const int32_t status = [&]() -> int32_t {
        return 0;
    }();
    return status;
}`;
    const errors = compile(code).diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.line, d.column, d.message])).toEqual([
      [
        2,
        28,
        'A lambda at line 2, column 28 is outside what the playground runs: build the program and run it with `pagelens run`, which records the memory calls of the real process',
      ],
    ]);
  });
});

describe('function pointers are out of scope, with the designed message (allocator, stream config, callbacks)', () => {
  const errorsOf = (code: string) =>
    compile(code)
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => d.message);

  it('a function pointer type', () => {
    expect(errorsOf('using DestroyFunc = aclError (*)(aclrtStream*);\nint main() { return 0; }')).toEqual([
      'A function pointer type ("aclError (*)(aclrtStream*)") at line 1, column 21 is outside what the playground runs: build the program and run it with `pagelens run`, which records the memory calls of the real process',
    ]);
  });

  it('a call through a variable', () => {
    const code = `int main() {
    void* allocFunc = nullptr;
    void* block = allocFunc(nullptr, 256);
    return 0;
}`;
    expect(errorsOf(code)).toEqual([
      'A call through the function pointer allocFunc at line 3, column 19 is outside what the playground runs: build the program and run it with `pagelens run`, which records the memory calls of the real process',
    ]);
  });

  it('a function passed as a value stops the run where it is used', async () => {
    const code = `void StreamStateCallback(aclrtStream stream, int state, void* args) {}
int main() {
    aclInit(nullptr);
    aclrtRegStreamStateCallback("sample", StreamStateCallback, nullptr);
    return 0;
}`;
    const h = harness(code);
    const outcome = await h.ex.run();
    expect(outcome.error?.message).toBe(
      'The function StreamStateCallback used as a value (a function pointer, such as a callback) at line 4, column 43 is outside what the playground runs: build the program and run it with `pagelens run`, which records the memory calls of the real process',
    );
    expect(h.ex.calls.map((c) => [c.fn, c.ret])).toEqual([['aclInit', 0]]);
  });
});

describe('network sockets are out of scope (hicann/runtime memory/12, cross-server sharing)', () => {
  it('a socket address type is named, with its line and column', () => {
    const code = 'int main() {\n    struct sockaddr_in server_addr;\n    return 0;\n}';
    expect(
      compile(code)
        .diagnostics.filter((d) => d.severity === 'error')
        .map((d) => d.message),
    ).toEqual([
      'A network socket ("sockaddr_in") at line 2, column 5 is outside what the playground runs: build the program and run it with `pagelens run`, which records the memory calls of the real process',
    ]);
  });
});
