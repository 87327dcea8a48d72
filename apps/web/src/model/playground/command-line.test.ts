import { describe, expect, it } from 'vitest';
import { simAgent } from '../../../test/playground-sim-agent.ts';
import { PlaygroundController, type PlaygroundHost } from './controller.ts';
import { commandLine, docData, type PlaygroundDoc, parseDoc, sameProgram } from './playground-doc.ts';

/* The playground's command line for main(int argc, char** argv): split, kept with the document, run, remembered (follow-wire.test.ts: followed). */

const PRINT_ARGV = `#include <cstdio>
int main(int argc, char** argv) {
    for (int i = 0; i < argc; ++i) printf("[%d] %s\\n", i, argv[i]);
    return argc;
}`;

function controllerFor(doc: PlaygroundDoc) {
  const agent = simAgent();
  const host: PlaygroundHost = {
    call: agent.call,
    lastSeq: agent.lastSeq,
    firstSeq: () => 0,
    followLive: () => undefined,
    callsPerSecond: () => 0,
    yieldControl: () => Promise.resolve(),
    now: () => 0,
  };
  return new PlaygroundController(host, doc, { kind: 'builtin', id: 'seed-device-memory' });
}

describe('commandLine', () => {
  it('splits at unquoted blanks after ./main; quotes and backslashes keep blanks in one argument', () => {
    expect(commandLine(undefined).argv).toEqual(['./main']);
    expect(commandLine('  --device_id 0   --memory_size=1048576 ').argv).toEqual(['./main', '--device_id', '0', '--memory_size=1048576']);
    expect(commandLine(`--name "two words" 'it''s' a\\ b "" "say \\"hi\\""`).argv).toEqual([
      './main',
      '--name',
      'two words',
      'its',
      'a b',
      '',
      'say "hi"',
    ]);
  });

  it('an unclosed quote says where it opened, and its argument runs to the end', () => {
    expect(commandLine('--model "a b')).toEqual({ argv: ['./main', '--model', 'a b'], unclosedQuote: 9 });
  });
});

describe('the command line in the playground document', () => {
  const doc: PlaygroundDoc = { name: 'argv', code: PRINT_ARGV, inputs: [], setup: '', args: '--device_id 0 "a b"' };

  it('is stored and read back with the document, and makes a different program', () => {
    const parsed = parseDoc(JSON.parse(JSON.stringify(docData(doc))));
    expect(parsed).toEqual({ ok: true, value: doc });
    expect(sameProgram(doc, { ...doc, args: '' })).toBe(false);
    expect(sameProgram({ ...doc, args: '' }, { name: 'argv', code: PRINT_ARGV, inputs: [], setup: '' })).toBe(true);
    expect(parseDoc({ ...docData(doc), args: 'x'.repeat(1001) })).toMatchObject({ ok: false, problem: { key: 'tooLong' } });
  });

  it('reaches main as argv when the program runs', async () => {
    const controller = controllerFor(doc);
    await controller.run();
    expect(controller.state.run).toMatchObject({ status: 'finished', exitCode: 4 });
    expect(controller.state.run.output.join('')).toBe('[0] ./main\n[1] --device_id\n[2] 0\n[3] a b\n');
  });

  it('is remembered for the scenario it was typed for when the scenario is opened again', () => {
    const controller = controllerFor({ ...doc, args: '' });
    controller.edit({ args: '--device_id 1' });
    controller.open({ name: 'other', code: 'int x = 0;', inputs: [], setup: '' }, { kind: 'new' });
    expect(controller.state.doc.args).toBeUndefined();
    const { args: _typed, ...withoutArgs } = doc;
    controller.open(withoutArgs, { kind: 'builtin', id: 'seed-device-memory' });
    expect(controller.state.doc.args).toBe('--device_id 1');
  });
});
