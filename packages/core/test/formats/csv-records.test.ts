import { describe, expect, it } from 'vitest';
import { readMemScopeEvents } from '../../src/formats/ascend-csv.ts';
import { CsvRecordReader } from '../../src/formats/csv-records.ts';
import { FormatError } from '../../src/formats/format-error.ts';
import { type MemScopeDump, memScopeDumpReader, readMemScopeDump } from '../../src/formats/memscope-session.ts';
import { type CsvFile, CsvLoader } from '../../src/formats/open-file.ts';
import { encodeUtf8 } from '../../src/formats/utf8.ts';
import { withArrays } from './snapshot-fixtures.ts';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

interface Seen {
  readonly line: number;
  readonly fields: string[];
}

/** The records of `bytes` fed as the chunks that `cuts` (ascending byte offsets) make. */
function records(bytes: Uint8Array, cuts: readonly number[], file = 'cut.csv'): Seen[] {
  const seen: Seen[] = [];
  const reader = new CsvRecordReader(file, (record) => {
    seen.push({ line: record.line, fields: Array.from({ length: record.fieldCount }, (_, at) => record.field(at)) });
  });
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    reader.push(bytes.slice(from, cut));
    from = cut;
  }
  reader.end();
  expect(reader.bytesRead).toBe(bytes.length);
  return seen;
}

function everyCut(bytes: Uint8Array): number[][] {
  return Array.from({ length: bytes.length + 1 }, (_, at) => [at]);
}

/** A BOM, CRLF, LF and a lone CR, quotes with "" and breaks inside, 2-, 3- and 4-byte UTF-8, a blank line, no final break. */
const SMALL = [
  '\ufeffname,size,note\r\n',
  'é-alloc,512,"a ""quoted"", with comma"\r\n',
  '"显存\nblock",4096,"two\r\nlines"\n',
  '\n',
  '😀,,\r',
  'tail,1,"x"y',
].join('');

const SMALL_ROWS: Seen[] = [
  { line: 1, fields: ['name', 'size', 'note'] },
  { line: 2, fields: ['é-alloc', '512', 'a "quoted", with comma'] },
  { line: 3, fields: ['显存\nblock', '4096', 'two\r\nlines'] },
  { line: 7, fields: ['😀', '', ''] },
  { line: 8, fields: ['tail', '1', 'xy'] },
];

describe('CSV records from chunks', () => {
  const bytes = encode(SMALL);

  it('reads the whole file: BOM dropped, quotes undone, lines counted through quoted breaks, blank lines skipped', () => {
    expect(records(bytes, [])).toEqual(SMALL_ROWS);
  });

  it('every split position gives the same records (quotes, CRLF, the BOM and multi-byte characters cut in two)', () => {
    for (const cuts of everyCut(bytes)) expect(records(bytes, cuts), `cut at ${cuts[0]}`).toEqual(SMALL_ROWS);
  });

  it('one byte at a time, and every pair of split positions', () => {
    expect(
      records(
        bytes,
        Array.from({ length: bytes.length - 1 }, (_, at) => at + 1),
      ),
    ).toEqual(SMALL_ROWS);
    for (let a = 0; a <= bytes.length; a += 1) {
      for (let b = a; b <= bytes.length; b += 1) expect(records(bytes, [a, b]), `cuts at ${a}, ${b}`).toEqual(SMALL_ROWS);
    }
  });

  it('a trailing comma is an empty last field; a file of only a BOM or of blank lines has no records', () => {
    expect(records(encode('a,b,\n'), [])).toEqual([{ line: 1, fields: ['a', 'b', ''] }]);
    expect(records(encode('a,b,'), [])).toEqual([{ line: 1, fields: ['a', 'b', ''] }]);
    expect(records(encode('\ufeff'), [1])).toEqual([]);
    expect(records(encode('\r\n\n\r'), [1])).toEqual([]);
    // A quoted empty field alone on its line is blank too, as the whole-text reader had it.
    expect(records(encode('a\n""\nb'), [])).toEqual([
      { line: 1, fields: ['a'] },
      { line: 3, fields: ['b'] },
    ]);
  });

  it('invalid UTF-8 becomes U+FFFD (one per byte, as decodeUtf8 has it) in its field only, wherever the file is cut', () => {
    const damaged = new Uint8Array([0x61, 0xc3, 0x2c, 0xe6, 0x98, 0x0a, 0x62]);
    for (const cuts of everyCut(damaged)) {
      expect(records(damaged, cuts)).toEqual([
        { line: 1, fields: ['a\ufffd', '\ufffd\ufffd'] },
        { line: 2, fields: ['b'] },
      ]);
    }
  });

  it('a quote not closed by the end names the line the record starts on, wherever the file is cut', () => {
    const cut = encode('a,b\n1,"open\nstill open');
    for (const cuts of everyCut(cut)) {
      let error: unknown;
      try {
        records(cut, cuts);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(FormatError);
      expect(error).toMatchObject({
        message: 'cut.csv: line 2: a quoted field is not closed before the end of the file (truncated?)',
        at: 2,
      });
    }
  });

  it('a record longer than the buffer is read whole (the buffer grows)', () => {
    const long = 'x'.repeat(3 * 1024 * 1024);
    const big = encode(`a,"${long}"\nb,c\n`);
    expect(records(big, [5, 2 * 1024 * 1024]).map((seen) => [seen.line, seen.fields[0], seen.fields[1]?.length])).toEqual([
      [1, 'a', long.length],
      [2, 'b', 1],
    ]);
  });
});

describe('encodeUtf8', () => {
  it('writes what TextEncoder writes, a lone surrogate as U+FFFD', () => {
    for (const text of ['', 'ascii', 'é显存😀', 'a\ud800b', '\udc00', 'x\ud83d']) {
      expect(Array.from(encodeUtf8(text)), JSON.stringify(text)).toEqual(Array.from(encode(text)));
    }
  });
});

const HEADER = 'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)';
const DUMP = [
  HEADER,
  '1,MALLOC,PTA,N/A,1732000000000000001,4242,4243,0,0x12c000000000,"{allocation_id:1,addr:0x12c000000000,size:4096,owner:PTA@model}","train.py:10 step\nmodel.py:3 forward",',
  '2,FREE,PTA,N/A,1732000000000000777,4242,4243,0,0x12c000000000,"{allocation_id:1,size:4096}",,',
  '3,MSTX,Mark,显存,1732000000000001000,4242,4243,0,N/A,{},,',
].join('\r\n');

/** A dump with its traces as arrays, for toEqual (the columns' fields are private). */
function plain(file: CsvFile | MemScopeDump) {
  if (file.kind !== 'memscope_dump') throw new Error(`read as ${file.kind}`);
  return { ...file, snapshot: withArrays(file.snapshot), byDevice: [...file.byDevice] };
}

describe('the Ascend readers from chunks', () => {
  const bytes = encode(DUMP);
  const whole = plain(readMemScopeDump(DUMP, 'memscope_dump_1.csv'));

  it('a memscope dump cut anywhere reads as the whole text does', () => {
    expect(readMemScopeEvents(DUMP).map((event) => [event.line, event.event, event.name])).toEqual([
      [2, 'MALLOC', 'N/A'],
      [4, 'FREE', 'N/A'],
      [5, 'MSTX', '显存'],
    ]);
    for (const [cut] of everyCut(bytes)) {
      const reader = memScopeDumpReader('memscope_dump_1.csv');
      reader.push(bytes.subarray(0, cut));
      reader.push(bytes.subarray(cut));
      expect(plain(reader.end()), `cut at ${cut}`).toEqual(whole);
    }
  });

  it('a damaged row names its line and column wherever the file is cut', () => {
    const damaged = encode(DUMP.replace('1732000000000000777', 'notatime'));
    for (const [cut] of everyCut(damaged)) {
      const reader = memScopeDumpReader('memscope_dump_1.csv');
      expect(() => {
        reader.push(damaged.subarray(0, cut));
        reader.push(damaged.subarray(cut));
        reader.end();
      }).toThrow('memscope_dump_1.csv: line 4: "Timestamp(ns)" is "notatime", expected an integer');
    }
  });

  it('with no telling name, the kind comes from the header, even when the header is cut', () => {
    for (const cut of [1, 20, HEADER.length, HEADER.length + 1, HEADER.length + 2]) {
      const loader = new CsvLoader('upload.csv');
      loader.push(bytes.subarray(0, cut));
      loader.push(bytes.subarray(cut));
      expect(loader.bytesRead).toBe(bytes.length);
      expect(plain(loader.finish()), `cut at ${cut}`).toEqual(whole);
    }
  });

  it('a file of no kind is refused from its first line, before the rest arrives', () => {
    const loader = new CsvLoader('upload.csv');
    expect(() => loader.push(encode('hello,world\n1,2\n'))).toThrow(/not a file PageLens reads: .* starts with 68 65 6c 6c 6f/);
  });
});
