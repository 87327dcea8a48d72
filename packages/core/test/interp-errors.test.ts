import { describe, expect, it } from 'vitest';
import { type AclRuntime, runtimeFrom } from '../src/acl/runtime.ts';
import { compile } from '../src/interp/compile.ts';
import { Execution, type ExecutionOptions } from '../src/interp/execution.ts';
import { SimHost } from '../src/sim/sim-host.ts';
import { SimRuntime } from '../src/sim/sim-runtime.ts';

const SUPPORTED =
  'PageLens runs declarations, expressions, calls, if/else, switch, for, while, do/while, break, continue and return, classes with member functions, inside functions or as a plain list of statements.';

const errorsOf = (code: string, inputs: readonly string[] = []) =>
  compile(code, { inputs }).diagnostics.filter((d) => d.severity === 'error');

/** Runs code that compiles but must stop; answers the outcome. */
async function stopsWith(code: string, options: ExecutionOptions = {}) {
  const compiled = compile(code, { inputs: (options.inputs ?? []).map((i) => i.name) });
  const ex = new Execution(compiled.program, new SimRuntime(new SimHost()), options);
  const outcome = await ex.run();
  return { outcome, ex };
}

describe('compile errors', () => {
  it('a syntax error points to line:column and says what is supported', () => {
    const result = compile('int main(void) {\n    int x = ;\n    return 0;\n}');
    expect(result.ok).toBe(false);
    expect(result.diagnostics).toEqual([
      {
        severity: 'error',
        kind: 'syntax',
        message: `syntax error at line 2, column 13: unexpected ";" (is something missing before it?). ${SUPPORTED}`,
        line: 2,
        column: 13,
        endLine: 2,
      },
    ]);
  });

  it('unexpected text and code that ends too early', () => {
    expect(errorsOf('int x = 1 @ 2;').map((d) => d.message)).toEqual([`syntax error at line 1, column 11: unexpected "@". ${SUPPORTED}`]);
    expect(errorsOf('int x = 1;\nint y = 2 3;').map((d) => d.message)).toEqual([
      `syntax error at line 2, column 11: unexpected "3" (is something missing before it?). ${SUPPORTED}`,
    ]);
    expect(errorsOf('int main(void) {\n  int x = 1;\n').map((d) => [d.line, d.column, d.message])).toEqual([
      [3, 1, `syntax error at line 3, column 1: the code ends too early. ${SUPPORTED}`],
    ]);
  });

  it('columns count from the original text even after a placeholder or a kernel launch', () => {
    const [error] = errorsOf('......\nk<<<1, 2>>>(a);\nint z = ;', ['a']);
    expect([error?.line, error?.column]).toEqual([3, 9]);
  });

  it('unsupported constructs name themselves', () => {
    expect(errorsOf('int x = 1;\nswitch (x) { default: break; default: x = 2; }').map((d) => [d.kind, d.line, d.message])).toEqual([
      ['syntax', 2, 'a switch has two default labels'],
    ]);
    expect(errorsOf('int n = 4;\nint a[n];').map((d) => d.message)).toEqual([
      `The array size "n" (PageLens needs a constant: a literal, sizeof, or a const/constexpr integer, up to 16,777,216 elements): not supported. ${SUPPORTED}`,
    ]);
    expect(errorsOf('int main(void) { goto out; }').map((d) => d.message)).toEqual([`goto and labels: not supported. ${SUPPORTED}`]);
    expect(errorsOf('MyType x = 1;').map((d) => d.message)).toEqual([
      'unknown type "MyType" at line 1, column 1: not a C or ACL type, and the code does not define it (a header or another library does): define it above its first use, or build the program and run it with `pagelens run`, which records the memory calls of the real process',
    ]);
  });

  it('an undeclared name is structured so a UI can offer to add it as an input', () => {
    const code = 'void* p = nullptr;\naclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST);';
    expect(errorsOf(code)).toEqual([
      {
        severity: 'error',
        kind: 'undeclared',
        name: 'size',
        message: '"size" is not declared: declare it in the code, or add it as an input of the scenario',
        line: 2,
        column: 17,
        endLine: 2,
      },
    ]);
    expect(errorsOf(code, ['size'])).toEqual([]);
    expect(errorsOf('int policy = ACL_MEM_MALLOC_HUGE_FRIST;').map((d) => d.name)).toEqual(['ACL_MEM_MALLOC_HUGE_FRIST']);
    // A name is in scope only after its declaration and inside its block.
    expect(errorsOf('{ int inner = 1; }\nint outer = inner;\nint early = later;\nint later = 2;').map((d) => [d.name, d.line])).toEqual([
      ['inner', 2],
      ['later', 3],
    ]);
  });

  it('catalogue functions take their catalogue arity', () => {
    expect(errorsOf('void* p = nullptr;\naclrtMalloc(&p, 64);').map((d) => [d.kind, d.message])).toEqual([
      ['arity', 'aclrtMalloc takes 3 argument(s) (devPtr, size, policy), not 2'],
    ]);
    expect(errorsOf('const char* soc = aclrtGetSocName(0);').map((d) => d.message)).toEqual([
      'aclrtGetSocName takes 0 argument(s) (none), not 1',
    ]);
  });

  it('several functions and no main: the caller must choose', () => {
    expect(errorsOf('void a() {}\nvoid b() {}').map((d) => [d.kind, d.message])).toEqual([
      ['entry', 'the code defines a, b and no main: choose which one to run with the entry option'],
    ]);
    expect(compile('void a() {}\nvoid b() {}', { entry: 'b' }).ok).toBe(true);
    expect(compile('void a() {}', { entry: 'c' }).diagnostics.map((d) => d.message)).toEqual([
      'there is no function "c" to run; the code defines a',
    ]);
  });
});

describe('execution errors', () => {
  it('a runaway loop stops at the step limit, naming it', async () => {
    const { outcome, ex } = await stopsWith('int main(void) {\n    int n = 0;\n    while (1) {\n        n++;\n    }\n}', {
      stepLimit: 1000,
    });
    expect(outcome).toEqual({
      state: 'error',
      line: 4,
      error: {
        kind: 'step-limit',
        message: 'stopped after 1,000 statements, the step limit: is there a loop that never ends? Raise stepLimit to run longer',
        line: 4,
        column: 9,
      },
    });
    expect(ex.steps).toBe(1001);
    expect(ex.lineMarks.get(4)?.errors).toEqual([outcome.error?.message]);
  });

  it('the default step limit is 100,000 statements', async () => {
    const { outcome, ex } = await stopsWith('for (;;) {}');
    expect(outcome.error?.message).toBe(
      'stopped after 100,000 statements, the step limit: is there a loop that never ends? Raise stepLimit to run longer',
    );
    expect(ex.steps).toBe(100_001);
  });

  it('type misuse: a struct where a size is expected, a struct by value where a pointer is expected', async () => {
    const setup = 'aclInit(nullptr);\naclrtSetDevice(0);';
    const bySize = await stopsWith(
      'aclrtPhysicalMemProp prop = {};\nvoid* p = nullptr;\naclrtMalloc(&p, prop, ACL_MEM_MALLOC_HUGE_FIRST);',
      { setup },
    );
    expect(bySize.outcome.error).toEqual({
      kind: 'type',
      message: 'aclrtMalloc argument 2 (size_t size): expected an integer (size_t), got "prop" of type aclrtPhysicalMemProp',
      line: 3,
      column: 17,
    });
    const byValue = await stopsWith(
      'aclrtPhysicalMemProp prop = {};\nsize_t g = 0;\naclrtMemGetAllocationGranularity(prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g);',
    );
    expect(byValue.outcome.error?.message).toBe(
      'aclrtMemGetAllocationGranularity argument 1 (aclrtPhysicalMemProp* prop): expected a pointer to aclrtPhysicalMemProp (write &prop), got "prop" of type aclrtPhysicalMemProp',
    );
  });

  it('type misuse: out-parameters of the wrong width, variables passed as device memory, ints as pointers', async () => {
    const narrow = await stopsWith(
      'aclrtPhysicalMemProp prop = {};\nuint32_t g = 0;\naclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g);',
    );
    expect(narrow.outcome.error?.message).toBe(
      'aclrtMemGetAllocationGranularity argument 3 (size_t* granularity): "&g" points to uint32_t, but aclrtMemGetAllocationGranularity writes a size_t there',
    );
    // A variable is host memory of the process (issue 15): freeing it as device memory is the runtime's error, not a stop.
    const variable = await stopsWith('int x = 0;\naclError ret = aclrtFree(&x);');
    expect(variable.outcome.state).toBe('finished');
    expect(variable.ex.calls.map((c) => [c.fn, c.retName])).toEqual([
      ['malloc', 'ACL_SUCCESS'],
      ['aclrtFree', 'ACL_ERROR_INVALID_PARAM'],
      ['free', 'ACL_SUCCESS'],
    ]);
    expect((await stopsWith('void* p = 4096;')).outcome.error?.message).toBe('initialising p: cannot convert int 4096 to void*');
    expect((await stopsWith('void* p = nullptr;\naclrtMalloc(&p, -1, 0);')).outcome.error?.message).toBe(
      'aclrtMalloc argument 2 (size_t size): 18446744073709551615 is 2^53 or more; PageLens keeps sizes and flags exact below 2^53',
    );
  });

  it('undefined behaviour stops the run: division by zero, NULL dereference, out-of-bounds index, wide shifts', async () => {
    const messages = await Promise.all(
      ['int z = 0;\nint y = 1 / z;', 'int* p = nullptr;\nint y = *p;', 'int a[2] = {};\na[2] = 1;', 'int s = 1 << 40;'].map(
        async (code) => (await stopsWith(code)).outcome.error,
      ),
    );
    expect(messages.map((e) => [e?.kind, e?.message])).toEqual([
      ['runtime', 'division by zero (undefined behaviour in C)'],
      ['runtime', '*p dereferences a NULL pointer (undefined behaviour in C)'],
      ['runtime', 'a[2] reaches element 2, outside a[0..1] (undefined behaviour in C)'],
      ['runtime', 'shifting a 32-bit int by 40 is undefined behaviour in C'],
    ]);
  });

  it('const, unknown fields, calling a variable, runaway recursion', async () => {
    const errors = await Promise.all(
      [
        'const size_t n = 1;\nn = 2;',
        'aclrtPhysicalMemProp prop = {};\nprop.size = 1;',
        'int free = 0;\nfree(0);',
        'int f(int n) { return f(n + 1); }\nint main(void) { return f(0); }',
      ].map(async (code) => (await stopsWith(code)).outcome.error?.message),
    );
    expect(errors).toEqual([
      'n is const: it cannot be assigned',
      'aclrtPhysicalMemProp has no field "size"; its fields are handleType, allocationType, memAttr, location, reserve',
      'free is a variable here, not a function: it cannot be called',
      'calls nest deeper than 256: runaway recursion?',
    ]);
  });

  it('an undeclared name in the setup, or an input that does not parse, stops before anything runs', async () => {
    const setup = await stopsWith('int x = 1;', { setup: 'aclrtCreateStream(&stream);' });
    expect(setup.outcome.error).toEqual({
      kind: 'undeclared',
      name: 'stream',
      message: 'setup: "stream" is not declared: declare it in the code, or add it as an input of the scenario',
      line: 1,
      column: 20,
      inSetup: true,
    });
    expect(setup.ex.steps).toBe(0);
    const input = await stopsWith('size_t x = size;', { inputs: [{ name: 'size', ctype: 'size_t', value: '4 lots' }] });
    expect(input.outcome.error?.kind).toBe('input');
    expect(input.outcome.error?.message.startsWith('input size (size_t): "lots" is not a size unit;')).toBe(true);
  });

  it('an execution built from code that does not compile refuses to run', async () => {
    const { outcome } = await stopsWith('int x = ;');
    expect(outcome.state).toBe('error');
    expect(outcome.error?.kind).toBe('unsupported');
    expect(outcome.error?.line).toBe(1);
    const undeclared = await stopsWith('int y = missing;');
    expect(undeclared.outcome.error).toMatchObject({ kind: 'undeclared', name: 'missing', line: 1, column: 9 });
  });
});

describe('a runtime that throws', () => {
  it('stops on the call line with an internal error naming the function', async () => {
    // Every call goes through the runtime's one entry point: this one fails on aclrtSetDevice only.
    const sim = new SimRuntime(new SimHost());
    const failing: AclRuntime = runtimeFrom((fn, args) =>
      fn === 'aclrtSetDevice' ? Promise.reject(new Error('connection closed')) : sim.call(fn, args),
    );
    const { program } = compile('aclInit(nullptr);\naclrtSetDevice(0);');
    const ex = new Execution(program, failing, {});
    expect(await ex.run()).toEqual({
      state: 'error',
      line: 2,
      error: { kind: 'internal', message: 'aclrtSetDevice: the runtime failed: connection closed', line: 2, column: 1 },
    });
    expect(ex.calls.map((c) => c.fn)).toEqual(['aclInit']);
  });
});
