import { compile, Execution, type LineMark, SimHost, SimRuntime } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { aclErrorCount, callText, gutterMarks } from './gutter-model.ts';

const CODE = [
  '#include "acl/acl.h"', // 1: preprocessor note
  'aclInit(nullptr);', // 2: ok
  'aclrtSetDevice(0);', // 3: ok
  'void* p = nullptr;', // 4: executed, no call
  'aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST);', // 5: ACL error (size 0)
  '...', // 6: placeholder note
  'printf("p=%p\\n", p);', // 7: executed with a not-modeled note
  'aclnnAdd(p);', // 8: warning
  'for (int i = 0; i < 3; i++) aclrtFree(nullptr);', // 9: the same ACL error three times
].join('\n');

describe('gutterMarks', () => {
  it('turns an execution’s line marks into one glyph per line, most serious first, with the codes on hover', async () => {
    const { program, diagnostics } = compile(CODE);
    const ex = new Execution(program, new SimRuntime(new SimHost()));
    await ex.run();
    const marks = gutterMarks(ex.lineMarks, diagnostics);
    const byLine = new Map(marks.map((m) => [m.line, m]));
    expect(marks.map((m) => [m.line, m.kind, m.executed])).toEqual([
      [1, 'note', false],
      [2, 'ok', true],
      [3, 'ok', true],
      [4, 'ok', true],
      [5, 'acl-error', true],
      [6, 'note', false],
      [7, 'note', true],
      [8, 'warning', true],
      [9, 'acl-error', true],
    ]);
    expect(byLine.get(2)?.details).toEqual([{ kind: 'ok', text: 'aclInit → ACL_SUCCESS', count: 1 }]);
    expect(byLine.get(5)?.details[0]?.text).toMatch(/^aclrtMalloc → ACL_ERROR_INVALID_PARAM \(100000\): /);
    const loop = byLine.get(9);
    expect(loop?.details[0]).toMatchObject({ kind: 'acl-error', count: 3 });
    expect(loop?.details[0]?.text).toMatch(/^aclrtFree → ACL_ERROR_INVALID_PARAM \(100000\)/);
    expect(byLine.get(6)?.details[0]?.text).toContain('placeholder');
    expect(byLine.get(7)?.details.map((d) => d.kind)).toEqual(['note']);
    expect(aclErrorCount(marks)).toBe(4);
  });

  it('shows the compiler’s diagnostics before anything ran, and an error above everything else', () => {
    const { diagnostics } = compile('int x = y + 1;\n...');
    const marks = gutterMarks(undefined, diagnostics);
    expect(marks.map((m) => [m.line, m.kind, m.executed, m.details[0]?.text])).toEqual([
      [1, 'error', false, '"y" is not declared: declare it in the code, or add it as an input of the scenario'],
      [2, 'note', false, '"..." is a placeholder for code the sample leaves out: skipped'],
    ]);
    const failed: LineMark = {
      executed: true,
      hits: 1,
      calls: [{ fn: 'aclrtMalloc', ret: 0, retName: 'ACL_SUCCESS' }],
      callCount: 1,
      notes: ['a note'],
      warnings: ['a warning'],
      errors: ['stopped after 100,000 statements'],
    };
    expect(gutterMarks(new Map([[3, failed]]), [])[0]?.details.map((d) => d.kind)).toEqual(['error', 'warning', 'note', 'ok']);
  });

  it('does not count the line an execution is paused before as run, unless it ran before (a loop)', () => {
    const started: LineMark = { executed: true, hits: 1, calls: [], callCount: 0, notes: [], warnings: [], errors: [] };
    expect(gutterMarks(new Map([[7, started]]), [], 7)).toEqual([]);
    expect(gutterMarks(new Map([[7, started]]), [], 8)).toEqual([{ line: 7, kind: 'ok', executed: true, hits: 1, details: [] }]);
    const again: LineMark = { ...started, hits: 3 };
    expect(gutterMarks(new Map([[7, again]]), [], 7)).toEqual([{ line: 7, kind: 'ok', executed: true, hits: 2, details: [] }]);
  });

  it('names a failing call by code name and number, and a successful one by name only', () => {
    expect(callText({ fn: 'aclrtFree', ret: 100000, retName: 'ACL_ERROR_INVALID_PARAM', message: 'devPtr is NULL' })).toBe(
      'aclrtFree → ACL_ERROR_INVALID_PARAM (100000): devPtr is NULL',
    );
    expect(callText({ fn: 'aclrtFree', ret: 0, retName: 'ACL_SUCCESS', message: 'ignored' })).toBe('aclrtFree → ACL_SUCCESS');
  });
});
