import { ACL_FUNCTION_NAMES, ACL_FUNCTIONS, type ParamSpec, type ValueType } from '@pagelens/core';
import { MAX_PAYLOAD_BYTES } from '../../src/server/http-server.ts';

/**
 * Hostile client messages for the fuzz test, each with what the agent must make of it: refused
 * when parsed (a bad-message error without id), or a call or ping that parses, answered under its id.
 * Messages are built as text, so they reach the agent exactly so (1e400, -0, 1 MiB of `[`).
 */
export interface Probe {
  readonly text: string;
  readonly kind: 'refused' | 'call' | 'ping';
  /** The id of a call or ping that parses; its answer must carry it. */
  readonly id?: number;
}

/** Deepest nesting a client message may have (core's MAX_CLIENT_NESTING, restated so a change is a decision). */
export const CLIENT_NESTING = 32;

let nextId = 1_000_000;

/** `depth` arrays, one inside the other. */
export const nestedArrays = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** `depth` objects, each the value of key "a" of the one outside it. */
const nestedObjects = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
/** Arrays and objects in turn, `depth` levels. */
const nestedMixed = (depth: number): string => `${'[{"a":'.repeat(depth / 2)}0${'}]'.repeat(depth / 2)}`;

/** Text filling `room` characters (all text here is ASCII, so characters are bytes). */
type Fill = (room: number) => string;

/** The deepest nesting `build` makes within `room`, one level being `unit` characters (an even depth, for nestedMixed). */
const nesting =
  (unit: number, build: (depth: number) => string): Fill =>
  (room) =>
    build(2 * Math.floor(room / unit / 2));
/** A JSON string of `x`. */
const longString: Fill = (room) => `"${'x'.repeat(room - 2)}"`;
/** A JSON array of numbers. */
const wideArray: Fill = (room) => `[${'7,'.repeat(Math.floor((room - 1) / 2) - 1)}7]`;
/** A JSON object of keys "k0", "k1", …, after `lead` (for example `"type":"ping",`). */
const wideObject =
  (lead = ''): Fill =>
  (room) => {
    const parts: string[] = [];
    let length = lead.length + 2;
    for (let index = 0; ; index += 1) {
      const part = `"k${index}":${index}`;
      if (length + part.length + 1 > room) break;
      parts.push(part);
      length += part.length + 1;
    }
    return `{${lead}${parts.join(',')}}`;
  };
/** `fill` between `before` and `after`. */
const inside =
  (before: string, fill: Fill, after: string): Fill =>
  (room) =>
    `${before}${fill(room - before.length - after.length)}${after}`;
/** A whole message filled to the payload limit (1 MiB). */
const filled = (fill: Fill): string => fill(MAX_PAYLOAD_BYTES);

const refused = (text: string): Probe => ({ text, kind: 'refused' });

/** A ping with a fresh id, which parses and is answered under it. */
export function ping(): Probe {
  const id = nextId++;
  return { text: `{"type":"ping","id":${id}}`, kind: 'ping', id };
}

/**
 * A call of `fn` with these args (text, or filling the rest of a 1 MiB message), the whole message
 * nested `depth` levels: parsed and answered under its id within the limit, refused beyond it.
 */
function call(fn: string, args: string | Fill, depth: number): Probe {
  const id = nextId++;
  const prefix = `{"type":"call","id":${id},"fn":"${fn}","args":`;
  const text = `${prefix}${typeof args === 'string' ? args : args(MAX_PAYLOAD_BYTES - prefix.length - 1)}}`;
  return depth <= CLIENT_NESTING ? { text, kind: 'call', id } : refused(text);
}

/**
 * Messages at the edges of the wire format, up to the 1 MiB payload limit: nesting (arrays, objects,
 * both), width (keys, items), length (strings, keys, escapes), JSON cut short, and a few that parse.
 */
export function payloadProbes(): Probe[] {
  const pingId = (fill: Fill): string => filled(inside('{"type":"ping","id":', fill, '}'));
  return [
    refused(nestedArrays(MAX_PAYLOAD_BYTES / 2)),
    refused(nestedArrays(5000)),
    refused(filled(nesting(6, nestedObjects))),
    refused(filled(nesting(8, nestedMixed))),
    refused(pingId(nesting(2, nestedArrays))),
    refused(pingId(nesting(8, nestedMixed))),
    refused(`{"type":"ping","id":${nestedArrays(5000)}}`),
    refused(`{"type":"ping","id":${nestedArrays(CLIENT_NESTING - 1)}}`),
    refused(`{"type":"ping","id":${nestedArrays(CLIENT_NESTING)}}`),
    call('aclrtMalloc', inside('{"size":', nesting(2, nestedArrays), ',"policy":0}'), MAX_PAYLOAD_BYTES),
    call('aclrtMalloc', inside('{"size":', nesting(6, nestedObjects), ',"policy":0}'), MAX_PAYLOAD_BYTES),
    call('aclrtMalloc', `{"size":${nestedArrays(4998)},"policy":0}`, 5000),
    call('aclrtMalloc', `{"size":${nestedArrays(CLIENT_NESTING - 2)},"policy":0}`, CLIENT_NESTING),
    call('aclrtMalloc', `{"size":${nestedArrays(CLIENT_NESTING - 1)},"policy":0}`, CLIENT_NESTING + 1),
    call('aclrtFree', wideObject(), 2),
    call('aclrtMemSetAccess', inside('{"virPtr":"0x0","size":0,"count":1,"desc":', wideArray, '}'), 3),
    call('aclrtMemSetAccess', inside('{"virPtr":"0x0","size":0,"count":1,"desc":', longString, '}'), 2),
    refused(filled(wideObject('"type":"ping",'))),
    refused(filled(wideObject())),
    refused(pingId(wideObject())),
    refused(pingId(wideArray)),
    refused(filled(wideArray)),
    refused(pingId(longString)),
    refused(filled(inside('{"type":', longString, '}'))),
    refused(filled(inside('{"type":"ping",', longString, ':1}'))),
    refused(filled(inside('{"type":"hello","protocol":1,"role":"driver","client":', longString, '}'))),
    refused(`"${'\\\\'.repeat(MAX_PAYLOAD_BYTES / 2 - 1)}"`),
    refused(`{"type":"ping","id":"${'\\u0000'.repeat(MAX_PAYLOAD_BYTES / 6 - 10)}"}`),
    refused('x'.repeat(MAX_PAYLOAD_BYTES)),
    refused(`{"type":"call","id":6,"fn":"aclrtMalloc","args":${'['.repeat(MAX_PAYLOAD_BYTES - 60)}`),
    ping(),
  ];
}

/** Numbers at and past every C range, and what JSON reads as infinite or negative zero. */
const NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '0.5',
  '5e-324',
  '2147483647',
  '2147483648',
  '-2147483648',
  '-2147483649',
  '4294967295',
  '4294967296',
  '9007199254740991',
  '9007199254740992',
  '18446744073709551616',
  '-9223372036854775808',
  '1e308',
  '-1e308',
  '1e400',
  '-1e400',
];
/** Strings that look like numbers, pointers or names, and odd ones. */
const STRINGS = [
  '""',
  '"NaN"',
  '"Infinity"',
  '"-1"',
  '"0x"',
  '"0x0"',
  '"0x-1"',
  '" 0x10"',
  '"0xffffffffffffffff"',
  '"0x1fffffffffffff"',
  '"0x20000000000000"',
  '"ACL_MEM_MALLOC_HUGE_FIRST"',
  '"ACL_HOST_REG_PINNED|ACL_HOST_REG_MAPPED"',
  '"|||"',
  '"\\u0000\\ud800"',
  JSON.stringify('x'.repeat(4096)),
  JSON.stringify('x'.repeat(4097)),
  JSON.stringify(`0x${'0'.repeat(65_536)}`),
  JSON.stringify('ACL_HOST_REG_PINNED|'.repeat(3000)),
  JSON.stringify('s'.repeat(256 * 1024)),
];
/** Other shapes: empty, wrong and wide containers, with their nesting. */
const SHAPES: readonly (readonly [string, number])[] = [
  ['null', 0],
  ['true', 0],
  ['[]', 1],
  ['{}', 1],
  ['[1,2,3]', 1],
  ['["ACL_HOST_REG_PINNED","ACL_HOST_REG_MAPPED"]', 1],
  ['[null]', 1],
  ['{"id":0,"type":1}', 1],
  ['{"__proto__":{"polluted":true}}', 2],
  [`[${'1,'.repeat(20_000)}1]`, 1],
  [`{${Array.from({ length: 10_000 }, (_, index) => `"k${index}":${index}`).join(',')}}`, 1],
  [`[${Array.from({ length: 1025 }, () => '{"flags":3,"location":{"type":1,"id":0}}').join(',')}]`, 3],
];

/** A valid value of each C type, the background of each probe (where one argument at a time is extreme). */
const STRUCTS: Readonly<Record<string, string>> = {
  aclrtMemLocation: '{"id":0,"type":1}',
  aclrtPhysicalMemProp: '{"handleType":0,"allocationType":0,"memAttr":4,"location":{"type":1,"id":0},"reserve":0}',
  aclrtMemAccessDesc: '{"flags":3,"location":{"type":1,"id":0}}',
  aclrtMallocConfig: '{"attrs":[{"attr":1,"value":{"moduleId":1}}],"numAttrs":1}',
  aclrtPtrAttributes: '{"location":{"type":1,"id":0},"pageSize":0}',
};

function usual(value: ValueType): string {
  switch (value.t) {
    case 'int':
    case 'uint':
    case 'u64':
    case 'enum':
    case 'flags':
    case 'float':
    case 'index':
      return '0';
    case 'size':
      return '4096';
    case 'ptr':
    case 'handle':
      return '"0x0"';
    case 'string':
      return 'null';
    case 'charBuffer':
      return '""';
    case 'list':
      return '[]';
    case 'struct':
      return STRUCTS[value.struct] ?? '{}';
    case 'structArray':
      return `[${STRUCTS[value.struct] ?? '{}'}]`;
  }
}

/** Each extreme value with its own nesting. */
const EXTREMES: readonly { readonly text: string; readonly depth: number }[] = [
  ...[...NUMBERS, ...STRINGS].map((text) => ({ text, depth: 0 })),
  ...SHAPES.map(([text, depth]) => ({ text, depth })),
  { text: nestedArrays(CLIENT_NESTING - 2), depth: CLIENT_NESTING - 2 },
  { text: nestedArrays(CLIENT_NESTING - 1), depth: CLIENT_NESTING - 1 },
  { text: nestedArrays(5000), depth: 5000 },
  { text: nestedObjects(CLIENT_NESTING - 2), depth: CLIENT_NESTING - 2 },
];

/** Every ACL function, each input in turn replaced by each extreme value, the others usual. */
export function extremeCalls(): Probe[] {
  const probes: Probe[] = [];
  for (const fn of ACL_FUNCTION_NAMES) {
    const inputs = ACL_FUNCTIONS[fn].params.filter((param: ParamSpec) => param.dir === 'in');
    const usualArgs = inputs.map((param) => ({ name: param.name, text: usual(param.value) }));
    // A function without inputs gets the values as an argument it does not take.
    const targets = inputs.length > 0 ? inputs.map((param) => param.name) : ['extra'];
    for (const target of targets) {
      for (const extreme of EXTREMES) {
        const others = usualArgs.filter((arg) => arg.name !== target);
        const fields = [...others.map((arg) => `"${arg.name}":${arg.text}`), `"${target}":${extreme.text}`];
        // The usual values nest at most 4 levels (a cfg), so the extreme one decides near the limit.
        probes.push(call(fn, `{${fields.join(',')}}`, 2 + extreme.depth));
      }
    }
  }
  return probes;
}

/**
 * A long string and a wide array filling the payload limit, in one input of each kind of C value
 * (each takes its own path through normalizeArgs and checkArgs; extremeCalls gives every input
 * smaller ones, and payloadProbes nests calls to the limit).
 */
export function payloadCalls(): Probe[] {
  const probes: Probe[] = [];
  const kinds = new Set<string>();
  for (const fn of ACL_FUNCTION_NAMES) {
    for (const param of ACL_FUNCTIONS[fn].params) {
      const kind = param.value.t === 'enum' || param.value.t === 'flags' ? `${param.value.t} ${param.value.enum}` : param.value.t;
      if (param.dir !== 'in' || kinds.has(kind)) continue;
      kinds.add(kind);
      const field = (fill: Fill): Fill => inside(`{"${param.name}":`, fill, '}');
      probes.push(call(fn, field(longString), 2), call(fn, field(wideArray), 2));
    }
  }
  return probes;
}
