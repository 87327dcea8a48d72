import { describe, expect, it } from 'vitest';
import { HostMap } from '../../src/run/host-map.ts';
import { encodeReply, hexText } from '../../src/run/reply.ts';

describe('the interposer reply line', () => {
  it('gives the code, then each out-value in catalogue order; "-" for one not written', () => {
    expect(encodeReply('aclrtMalloc', 0, { devPtr: '0x100000200000' })).toBe('0 0x100000200000');
    expect(encodeReply('aclrtMalloc', 100000, {})).toBe('100000 -');
    expect(encodeReply('aclrtGetMemInfo', 0, { free: 10, total: 20 })).toBe('0 10 20');
    expect(encodeReply('aclrtMemcpyBatch', 107000, { failIndex: -1 })).toBe('107000 -1');
  });

  it('flattens a struct out-value in STRUCT_LAYOUTS order, arrays included', () => {
    const attributes = { location: { id: 0, type: 1 }, pageSize: 2_097_152 };
    expect(encodeReply('aclrtPointerGetAttributes', 0, { attributes })).toBe('0 s 0 1 2097152 0 0 0 0');
  });

  it('hex-encodes text, "=" for the empty string', () => {
    expect(hexText('Ascend910B2')).toBe('417363656e643931304232');
    expect(hexText('')).toBe('=');
    expect(encodeReply('aclrtGetSocName', 0, { socName: 'A' })).toBe('0 41');
  });
});

describe('HostMap', () => {
  it('translates inside a range both ways, pinned before pageable, newest pageable first', () => {
    const map = new HostMap();
    map.add({ real: 0x7f00_0000_0000, sim: 0x7000_0000_0000, size: 8192, kind: 'pageable' });
    map.add({ real: 0x7f00_0000_1000, sim: 0x7100_0000_0000, size: 4096, kind: 'pinned' });
    expect(map.toSim(0x7f00_0000_0010)).toBe(0x7000_0000_0010);
    expect(map.toSim(0x7f00_0000_1010)).toBe(0x7100_0000_0010);
    // A range that does not hold the whole extent is not used.
    expect(map.toSim(0x7f00_0000_1f00, 512)).toBeUndefined();
    expect(map.toReal(0x7100_0000_0020)).toBe(0x7f00_0000_1020);
    expect(map.toReal(0x1234)).toBeUndefined();
    map.remove(0x7f00_0000_1000, 'pinned');
    expect(map.toSim(0x7f00_0000_1010)).toBe(0x7000_0000_1010);
  });
});
