import { describe, expect, it } from 'vitest';
import { compile } from '../src/interp/compile.ts';
import { runToEnd, shown } from './interp-helpers.ts';

describe('std::map and std::unordered_map', () => {
  it('a map sorted by std::greater, read through iterators, as the classification samples print their top results', async () => {
    const code = `using namespace std;
map<float, unsigned int, greater<float>> resultMap;
float scores[4] = {0.5f, 2.0f, 1.0f, 3.0f};
for (unsigned int j = 0; j < 4; ++j) {
    resultMap[scores[j]] = j;
}
int cnt = 0;
unsigned int order = 0;
for (auto it = resultMap.begin(); it != resultMap.end(); ++it) {
    if (++cnt > 3) break;
    printf("top %d: index[%d]\\n", cnt, it->second);
    order = order * 10 + it->second;
}`;
    const h = await runToEnd(code);
    expect(shown(h.ex, 'order')).toBe('312');
    expect(h.ex.output.join('')).toBe('top 1: index[3]\ntop 2: index[1]\ntop 3: index[2]\n');
    expect(shown(h.ex, 'resultMap')).toBe('{size = 4: [3] = 3, [2] = 1, [1] = 2, [0.5] = 0}');
  });

  it('a table of contexts by device: find, end, and m[key] as an out-parameter of an ACL call', async () => {
    const code = `std::unordered_map<int, aclrtContext> ctx_map;
aclInit(nullptr);
aclrtSetDevice(0);
int found = 0;
if (ctx_map.find(0) == ctx_map.end()) {
    aclrtGetCurrentContext(&ctx_map[0]);
}
if (ctx_map.find(0) != ctx_map.end()) found = 1;
size_t count = ctx_map.count(0);`;
    const h = await runToEnd(code);
    expect(h.ex.calls.map((call) => [call.fn, call.ret])).toContainEqual(['aclrtGetCurrentContext', 0]);
    expect([shown(h.ex, 'found'), shown(h.ex, 'count')]).toEqual(['1', '1']);
    expect(shown(h.ex, 'ctx_map')).toMatch(/^\{size = 1: \[0\] = 0x[0-9a-f]+\}$/);
  });

  it('initialiser lists, insert of {key, value}, range-for over pairs, erase by key', async () => {
    const code = `std::map<int, size_t> sizes = {{1, 4096}, {0, 2048}};
sizes.insert({2, 8192});
sizes.insert({1, 1});
size_t total = 0;
for (auto& kv : sizes) total += kv.second;
size_t erased = sizes.erase(1);
size_t left = sizes.size();
int first = sizes.begin()->first;`;
    const h = await runToEnd(code);
    expect([shown(h.ex, 'total'), shown(h.ex, 'erased'), shown(h.ex, 'left'), shown(h.ex, 'first')]).toEqual([
      '14336 (14 KiB)',
      '1',
      '2',
      '0',
    ]);
  });

  it('at() of a missing key is std::out_of_range; copying a map is refused with a message', async () => {
    const missing = await (async () => {
      const c = compile('std::map<int, int> m;\nint v = m.at(3);');
      return c.ok;
    })();
    expect(missing).toBe(true);
    await expect(runToEnd('std::map<int, int> m;\nint v = m.at(3);')).rejects.toThrow('the key is not in the map (std::out_of_range)');
    await expect(runToEnd('std::map<int, int> a;\nstd::map<int, int> b = a;')).rejects.toThrow('copying a map');
  });
});

describe('std::optional', () => {
  it('an optional stream: empty, set, tested, dereferenced for ACL calls, reset with std::nullopt', async () => {
    const code = `std::optional<aclrtStream> stream_;
int before = stream_.has_value() ? 1 : 0;
aclInit(nullptr);
aclrtSetDevice(0);
aclrtStream s = nullptr;
aclrtCreateStream(&s);
stream_ = s;
int after = stream_ ? 1 : 0;
aclrtSynchronizeStream(*stream_);
aclrtDestroyStream(stream_.value());
stream_ = std::nullopt;
int reset = stream_.has_value() ? 1 : 0;
std::optional<uint64_t> handle;
uint64_t h = handle.value_or(7);`;
    const h = await runToEnd(code);
    expect(h.ex.calls.map((call) => [call.fn, call.ret])).toEqual([
      ['aclInit', 0],
      ['aclrtSetDevice', 0],
      ['aclrtCreateStream', 0],
      ['aclrtSynchronizeStream', 0],
      ['aclrtDestroyStream', 0],
    ]);
    expect(['before', 'after', 'reset', 'h', 'stream_'].map((name) => shown(h.ex, name))).toEqual(['0', '1', '0', '7', 'std::nullopt']);
  });

  it('value() of an empty optional is std::bad_optional_access', async () => {
    await expect(runToEnd('std::optional<int> o;\nint v = o.value();')).rejects.toThrow('std::bad_optional_access');
  });
});
