import { describe, expect, it } from 'vitest';
import { compile } from '../src/interp/compile.ts';
import { lineOf, runToEnd } from './interp-helpers.ts';

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
