import { describe, expect, it } from 'vitest';
import type { Expr, Stmt } from '../src/interp/ast.ts';
import { parseProgram } from '../src/interp/parse.ts';
import { preprocess } from '../src/interp/preprocess.ts';

function onlyExpr(code: string): Expr {
  const { program, diagnostics } = parseProgram(code);
  expect(diagnostics).toEqual([]);
  const [stmt] = program.topLevel;
  if (stmt?.kind === 'expr') return stmt.expr;
  if (stmt?.kind === 'decl' && stmt.declarators[0]?.init !== undefined) return stmt.declarators[0].init;
  throw new Error('not one expression');
}

/** The expression as fully parenthesised text, to compare groupings. */
function shape(e: Expr): string {
  switch (e.kind) {
    case 'name':
      return e.name;
    case 'int':
      return e.text;
    case 'binary':
      return `(${shape(e.left)} ${e.op} ${shape(e.right)})`;
    case 'assign':
      return `(${shape(e.target)} ${e.op} ${shape(e.value)})`;
    case 'cond':
      return `(${shape(e.test)} ? ${shape(e.consequent)} : ${shape(e.alternate)})`;
    case 'unary':
      return `(${e.op}${shape(e.operand)})`;
    case 'deref':
      return `(*${shape(e.operand)})`;
    case 'addr':
      return `(&${shape(e.operand)})`;
    case 'cast':
      return `((${e.type.k === 'int' ? e.type.name : e.type.k})${shape(e.operand)})`;
    case 'sizeofExpr':
      return `(sizeof ${shape(e.operand)})`;
    case 'paren':
      return shape(e.inner);
    case 'call':
      return `${e.callee}(${e.args.map(shape).join(', ')})`;
    default:
      return e.kind;
  }
}

describe('parsing with @lezer/cpp and C precedence', () => {
  it.each([
    ['y = a < b && c > d;', '(y = ((a < b) && (c > d)))'],
    ['y = a > b;', '(y = (a > b))'],
    ['x = i < n ? 1 : 2;', '(x = ((i < n) ? 1 : 2))'],
    ['x = a ? b : c ? d : e;', '(x = (a ? b : (c ? d : e)))'],
    ['z = (size_t)a + b;', '(z = (((size_t)a) + b))'],
    ['z = sizeof x + 1;', '(z = ((sizeof x) + 1))'],
    ['*p = 5;', '((*p) = 5)'],
    ['*p += 1;', '((*p) += 1)'],
    ['x = ~a + 1;', '(x = ((~a) + 1))'],
    ['y = a & ~b;', '(y = (a & (~b)))'],
    ['y = a + b * c - d / e % f;', '(y = ((a + (b * c)) - ((d / e) % f)))'],
    ['y = a | b & c ^ d;', '(y = (a | ((b & c) ^ d)))'],
    ['y = a << 2 | 1;', '(y = ((a << 2) | 1))'],
    ['y = -a * b;', '(y = ((-a) * b))'],
    ['x = y = 3;', '(x = (y = 3))'],
    ['f(a < b, c > d);', 'f((a < b), (c > d))'],
  ])('%s groups as %s', (code, expected) => {
    expect(shape(onlyExpr(code))).toBe(expected);
  });

  it('gives integer literals their C11 types on LP64', () => {
    const typeOf = (text: string) => {
      const e = onlyExpr(`x = ${text};`);
      return e.kind === 'assign' && e.value.kind === 'int' ? [e.value.type.name, e.value.value] : undefined;
    };
    expect(typeOf('0UL')).toEqual(['unsigned long', 0n]);
    expect(typeOf('1U')).toEqual(['unsigned int', 1n]);
    expect(typeOf('0x10ULL')).toEqual(['unsigned long', 16n]);
    expect(typeOf('2147483648')).toEqual(['long', 2147483648n]);
    expect(typeOf('0xFFFFFFFF')).toEqual(['unsigned int', 4294967295n]);
    expect(typeOf('010')).toEqual(['int', 8n]);
    expect(typeOf("'A'")).toEqual(['int', 65n]);
  });

  it('records the lines a UI can run to, and function definitions with their parameters', () => {
    const { program } = parseProgram(
      'int add(int a, size_t *b) {\n  return a;\n}\nint main(void) {\n  int x = add(1, nullptr);\n  return x;\n}',
    );
    expect(program.statementLines).toEqual([2, 5, 6]);
    expect([...program.functions.values()].map((f) => [f.name, f.params.map((p) => p.name)])).toEqual([
      ['add', ['a', 'b']],
      ['main', []],
    ]);
    expect(program.defaultEntry).toBe('main');
    expect(program.isScript).toBe(false);
  });

  it('reads a kernel launch as a call whose first arguments are the launch configuration', () => {
    const { program } = parseProgram('kernel<<<blocks, nullptr, stream>>>(x, y);');
    const [stmt] = program.topLevel as Stmt[];
    expect(
      stmt?.kind === 'expr' && stmt.expr.kind === 'call' ? [stmt.expr.callee, stmt.expr.args.length, stmt.expr.launch] : undefined,
    ).toEqual(['kernel', 5, { configCount: 3 }]);
  });
});

describe('preprocess', () => {
  it('blanks placeholder lines, keeps their length, and notes comment placeholders', () => {
    const source = 'a();\n......\n  ……  // 其他代码\n// ...\nb();';
    const pre = preprocess(source);
    expect(pre.text.split('\n')).toEqual(['a();', ' '.repeat(6), ' '.repeat('  ……  // 其他代码'.length), '// ...', 'b();']);
    expect(pre.placeholders).toEqual([
      { line: 2, text: '......', blanked: true },
      { line: 3, text: '……  // 其他代码', blanked: true },
      { line: 4, text: '// ...', blanked: false },
    ]);
  });

  it('maps every offset of the rewritten text back to the source', () => {
    const source = 'x = ~mask;\nk<<<1, 2>>>(a);\nk<<<1>>>();';
    const pre = preprocess(source);
    expect(pre.text).toBe('x = ~(mask);\nk(1, 2, a);\nk(1);');
    const back = (needle: string) => pre.origin[pre.text.indexOf(needle)];
    expect(back('mask')).toBe(source.indexOf('mask'));
    expect(back('a)')).toBe(source.indexOf('a)'));
    expect(back('k(1);')).toBe(source.lastIndexOf('k<<<'));
    expect(pre.origin[pre.text.length]).toBe(source.length);
    expect(pre.launches.map((l) => l.configCount)).toEqual([2, 1]);
  });

  it('leaves strings and comments alone', () => {
    const source = 'printf("~x <<<"); // ~y k<<<1>>>(z)';
    expect(preprocess(source).text).toBe(source);
  });
});
