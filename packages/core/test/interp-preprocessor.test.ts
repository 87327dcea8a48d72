import { describe, expect, it } from 'vitest';
import { compile } from '../src/interp/compile.ts';
import { lineOf, runToEnd, shown } from './interp-helpers.ts';

const errorsOf = (code: string) => compile(code).diagnostics.filter((d) => d.severity === 'error');

describe('conditional sections (issue 15)', () => {
  it('#ifndef ASCENDC_CPU_DEBUG takes the NPU branch: the other branch is not even parsed', async () => {
    const code = `#include "acl/acl.h"
#ifndef ASCENDC_CPU_DEBUG
#include "aclrtlaunch_add_custom.h"
#define RUN_ON_NPU 1
#else
#include "tikicpulib.h"
this is not C at all, and must not be parsed <<<
#define RUN_ON_NPU 0
#endif
int main() {
    int npu = RUN_ON_NPU;
    return npu;
}`;
    const h = await runToEnd(code);
    expect(h.ex.exitCode).toBe(1);
    expect(h.ex.lineMarks.get(2)?.notes).toEqual(['#ifndef ASCENDC_CPU_DEBUG: true, the lines up to the next #elif, #else or #endif run']);
    expect(h.ex.lineMarks.get(5)?.notes).toEqual(['#else: its lines are skipped']);
    // The include inside the skipped branch says nothing.
    expect(h.ex.lineMarks.get(6)).toBeUndefined();
  });

  it('#if with defined(), arithmetic, #elif chains, nesting and #undef', async () => {
    const code = `#define CANN_VERSION 80
#define USE_VMM
#if defined(USE_VMM) && CANN_VERSION >= 80
int vmm = 1;
#elif CANN_VERSION > 70
int vmm = 2;
#else
int vmm = 3;
#endif
#undef USE_VMM
#ifdef USE_VMM
int later = 1;
#else
#  if (CANN_VERSION * 2) == 160 || UNKNOWN_MACRO
int later = 2;
#  endif
#endif
#if 0
int later = 9;
#endif`;
    const h = await runToEnd(code);
    expect([shown(h.ex, 'vmm'), shown(h.ex, 'later')]).toEqual(['1', '2']);
  });

  it('an unbalanced #endif or #else, a missing #endif and #error are errors on their line', () => {
    expect(errorsOf('#endif\nint a = 1;').map((d) => [d.line, d.message])).toEqual([[1, '#endif without a matching #if']]);
    expect(errorsOf('#if 1\nint a = 1;').map((d) => d.message)).toEqual(['the #if on line 1 has no #endif']);
    expect(errorsOf('#ifdef X\n#else\n#else\n#endif').map((d) => [d.line, d.message])).toEqual([[3, '#else without a matching #if']]);
    expect(errorsOf('#ifndef ACL_H\n#error "needs the ACL headers"\n#endif').map((d) => [d.line, d.message])).toEqual([
      [2, '#error "needs the ACL headers": the code stops the build here'],
    ]);
    expect(errorsOf('#ifdef ACL_H\n#error "never"\n#endif\nint a = 1;')).toEqual([]);
  });
});

describe('macros (issue 15)', () => {
  it('object-like macros, continued lines, and macros that use macros', async () => {
    const code = `#define ELEMENTS 8
#define ELEMENT_BYTES sizeof(float)
#define BUFFER_BYTES \\
    (ELEMENTS * ELEMENT_BYTES)
size_t bytes = BUFFER_BYTES;
int line = __LINE__;`;
    const h = await runToEnd(code);
    expect([shown(h.ex, 'bytes'), shown(h.ex, 'line')]).toEqual(['32', '6']);
  });

  it('CHECK_ACL(x): a do/while(0) error-check macro returns the failing code from main', async () => {
    const code = `#include <cstdio>
#include "acl/acl.h"
#define CHECK_ACL(x)                                                                   \\
    do {                                                                               \\
        auto __ret = x;                                                                \\
        if (__ret != ACL_SUCCESS) {                                                    \\
            printf("%s:%d aclError:%d\\n", __FILE__, __LINE__, static_cast<int>(__ret)); \\
            return __ret;                                                              \\
        }                                                                              \\
    } while (0)

int main() {
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    void* dev = nullptr;
    CHECK_ACL(aclrtMalloc(&dev,
                          1024, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtFree(dev));
    CHECK_ACL(aclrtFree(dev));
    printf("not reached\\n");
    return 0;
}`;
    const h = await runToEnd(code);
    expect(h.ex.exitCode).toBe(100000);
    expect(h.ex.output).toEqual([`main.cpp:${lineOf(code, 'CHECK_ACL(aclrtFree(dev));') + 1} aclError:100000\n`]);
    // Each call is marked on the line its macro use starts on.
    expect(h.ex.calls.map((c) => [c.fn, c.line])).toEqual([
      ['aclInit', lineOf(code, 'aclInit')],
      ['aclrtSetDevice', lineOf(code, 'aclrtSetDevice')],
      ['aclrtMalloc', lineOf(code, 'aclrtMalloc')],
      ['aclrtFree', lineOf(code, 'aclrtFree')],
      ['aclrtFree', lineOf(code, 'aclrtFree') + 1],
    ]);
    // A macro line that ran once counts once, however many statements its expansion holds.
    expect(h.ex.lineMarks.get(lineOf(code, 'aclInit'))?.hits).toBe(1);
  });

  it('CHECK_RET(cond, expr) with a statement list as its argument, variadic log macros and ##__VA_ARGS__', async () => {
    const code = `#define INFO_LOG(fmt, ...) fprintf(stdout, "[INFO]  " fmt "\\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, args...) fprintf(stderr, "[ERROR] " fmt "\\n", ##args)
#define CHECK_RET(cond, return_expr) \\
    do {                             \\
        if (!(cond)) {               \\
            return_expr;             \\
        }                            \\
    } while (0)
#define STR(x) #x
#define JOIN(a, b) a##b

int Init(int32_t deviceId) {
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, ERROR_LOG("aclInit failed. ERROR: %d", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, ERROR_LOG("aclrtSetDevice failed. ERROR: %d", ret); return ret);
    INFO_LOG("device %d is ready", deviceId);
    INFO_LOG("done");
    return 0;
}

int main() {
    int JOIN(dev, Id) = 7;
    const char* name = STR(aclrtSetDevice( devId ));
    int ret = Init(devId);
    return ret;
}`;
    const h = await runToEnd(code);
    expect(h.ex.exitCode).toBe(107001);
    expect(h.ex.output).toEqual(['[ERROR] aclrtSetDevice failed. ERROR: 107001\n']);
    expect(shown(h.ex, 'name')).toBe('"aclrtSetDevice( devId )"');
  });

  it('a one-line macro use is one step, as a one-line block is', async () => {
    const code = `#define CHECK_ACL(x) do { aclError __ret = x; if (__ret != ACL_SUCCESS) { return __ret; } } while (0)
int main() {
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    int a = 0; if (a == 0) { a = 1; a = 2; }
    return a;
}`;
    const { harness } = await import('./interp-helpers.ts');
    const { ex } = harness(code);
    const lines: (number | undefined)[] = [];
    for (let outcome = await ex.step(); outcome.state === 'paused'; outcome = await ex.step()) lines.push(outcome.line);
    expect(lines).toEqual([3, 4, 5, 5, 6]);
    expect(ex.exitCode).toBe(2);
  });

  it('macros that double themselves stop with an error instead of freezing the page', () => {
    const levels = Array.from({ length: 30 }, (_, i) => `#define M${i} M${i + 1} M${i + 1}`).join('\n');
    const errors = errorsOf(`${levels}\nint x = M0;`);
    expect(errors.map((d) => [d.line, d.message])).toEqual([
      [31, 'the macros expand to more than 500,000 characters here (a macro that doubles itself?): PageLens stops expanding'],
    ]);
  });

  it('a function-like macro name without arguments is left alone, and a macro is not expanded inside itself', async () => {
    const code = `#define f(x) (x + 1)
#define self self
int f = 3;
int self = f(f);`;
    const h = await runToEnd(code);
    expect(shown(h.ex, 'self')).toBe('4');
  });
});
