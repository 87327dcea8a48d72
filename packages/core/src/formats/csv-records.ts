import { FormatError } from './format-error.ts';
import { decodeUtf8 } from './utf8.ts';

/**
 * RFC 4180 records read from bytes pushed in chunks of any size (a worker reading a File stream):
 * quoted fields (with "" and line breaks inside), CRLF, LF or CR, a leading UTF-8 BOM. Each record
 * goes to `onRecord` as soon as its line break arrives; the reader keeps only the bytes of the
 * record not yet complete, so memory is one record plus one slice, whatever the file's size.
 *
 * The scan works on bytes: `"`, `,`, CR and LF are ASCII and never part of a multi-byte UTF-8
 * sequence, so a sequence split across chunks simply stays in the pending bytes until its record
 * completes. Fields are decoded only when asked for, each into a string of its own (not a slice of
 * a chunk's text, which would keep the whole chunk alive for as long as the field is kept).
 */
export interface CsvRecord {
  /** 1-based line the record starts on (line breaks inside quoted fields count). */
  readonly line: number;
  readonly fieldCount: number;
  /** Field `at` (0-based) as text, unquoted. Valid only while `onRecord` runs. */
  field(at: number): string;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf] as const;

/** Bytes appended per step, so a whole file pushed at once is not copied whole into the pending buffer. */
const SLICE = 1 << 20;

/** Where the scan is inside the current field; survives the end of a chunk. */
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** A quote inside a quoted field: the next byte says whether it was "" or the closing quote. */
const QUOTE_IN_QUOTED = 3;
type Scan = typeof FIELD_START | typeof UNQUOTED | typeof QUOTED | typeof QUOTE_IN_QUOTED;

/** A quoted field's text: "" is a quote; text after the closing quote is kept, as the Ascend CSVs' first reader kept it. */
function unquote(raw: string): string {
  let out = '';
  let from = 1;
  for (;;) {
    const close = raw.indexOf('"', from);
    // The scanner only completes a quoted field after its closing quote, so `close` is found.
    out += raw.slice(from, close);
    if (raw.charCodeAt(close + 1) !== QUOTE) return out + raw.slice(close + 1);
    out += '"';
    from = close + 2;
  }
}

export class CsvRecordReader {
  /** Pending bytes: the incomplete record from offset 0, then the slice being scanned; `length` of it used. */
  private buffer = new Uint8Array(4096);
  private length = 0;
  /** Scan position, start of the current field, and start and end offsets of the record's completed fields. */
  private at = 0;
  private fieldStart = 0;
  private readonly bounds: number[] = [];
  private scan: Scan = FIELD_START;
  private line = 1;
  private recordLine = 1;
  /** The last record ended with a CR at the end of a slice: an LF that follows belongs to it. */
  private afterCr = false;
  private bomChecked = false;
  private read = 0;
  /** One record object, refilled per record: `onRecord` reads it at once and keeps only what it returns. */
  private readonly record: { line: number; fieldCount: number; field: (at: number) => string };

  constructor(
    private readonly file: string,
    private readonly onRecord: (record: CsvRecord) => void,
  ) {
    this.record = { line: 1, fieldCount: 0, field: (at) => this.field(at) };
  }

  /** Bytes pushed so far (and scanned: records complete in them have been handed on). */
  get bytesRead(): number {
    return this.read;
  }

  /** Scans `chunk`; it is not kept past the call, so the caller may reuse it. A FormatError from `onRecord` ends the reader. */
  push(chunk: Uint8Array): void {
    for (let from = 0; from < chunk.length; from += SLICE) {
      const slice = chunk.subarray(from, Math.min(chunk.length, from + SLICE));
      this.append(slice);
      this.read += slice.length;
      if (!this.bomChecked) {
        if (this.length < BOM.length) continue;
        this.skipBom();
      }
      this.scanPending();
      this.dropDone();
    }
  }

  /** The end of the input: the last record may lack its line break; an open quote means a cut file. */
  end(): void {
    if (!this.bomChecked) this.skipBom();
    this.scanPending();
    if (this.scan === QUOTED) {
      throw new FormatError(
        `${this.file}: line ${this.recordLine}: a quoted field is not closed before the end of the file (truncated?)`,
        this.recordLine,
      );
    }
    if (this.bounds.length > 0 || this.fieldStart < this.length) this.endRecord(this.length);
    this.length = 0;
    this.at = 0;
    this.fieldStart = 0;
  }

  private append(slice: Uint8Array): void {
    if (this.length + slice.length > this.buffer.length) {
      const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + slice.length));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(slice, this.length);
    this.length += slice.length;
  }

  private skipBom(): void {
    this.bomChecked = true;
    if (this.length >= BOM.length && BOM.every((byte, i) => this.buffer[i] === byte)) {
      this.at = BOM.length;
      this.fieldStart = BOM.length;
    }
  }

  private scanPending(): void {
    const bytes = this.buffer;
    const n = this.length;
    let i = this.at;
    if (this.afterCr && i < n) {
      this.afterCr = false;
      if (bytes[i] === LF) {
        i += 1;
        this.fieldStart = i;
      }
    }
    while (i < n) {
      switch (this.scan) {
        case FIELD_START:
          if (bytes[i] === QUOTE) {
            this.scan = QUOTED;
            i += 1;
          } else {
            this.scan = UNQUOTED;
          }
          break;
        case UNQUOTED: {
          let c = bytes[i];
          while (c !== COMMA && c !== LF && c !== CR) {
            i += 1;
            if (i === n) break;
            c = bytes[i];
          }
          if (i < n) i = this.separator(i, c ?? 0);
          break;
        }
        case QUOTED: {
          const close = bytes.indexOf(QUOTE, i);
          const stop = close < 0 || close >= n ? n : close;
          for (let k = bytes.indexOf(LF, i); k >= 0 && k < stop; k = bytes.indexOf(LF, k + 1)) this.line += 1;
          if (stop === n) {
            i = n;
          } else {
            i = stop + 1;
            this.scan = QUOTE_IN_QUOTED;
          }
          break;
        }
        case QUOTE_IN_QUOTED:
          if (bytes[i] === QUOTE) {
            this.scan = QUOTED;
            i += 1;
          } else {
            // Closed: what follows up to the separator is scanned, and kept, as unquoted text.
            this.scan = UNQUOTED;
          }
          break;
      }
    }
    this.at = i;
  }

  /** `c` at `i` ends the field: a comma starts the next one, a line break ends the record. Returns where scanning goes on. */
  private separator(i: number, c: number): number {
    if (c === COMMA) {
      this.bounds.push(this.fieldStart, i);
      this.fieldStart = i + 1;
      this.scan = FIELD_START;
      return i + 1;
    }
    this.endRecord(i);
    let next = i + 1;
    if (c === CR) {
      if (next < this.length) {
        if (this.buffer[next] === LF) next += 1;
      } else {
        this.afterCr = true;
      }
    }
    this.fieldStart = next;
    return next;
  }

  /** The record's last field ends at `end`; a blank line (one empty field) is no record. */
  private endRecord(end: number): void {
    this.bounds.push(this.fieldStart, end);
    const blank = this.bounds.length === 2 && this.field(0) === '';
    if (!blank) {
      this.record.line = this.recordLine;
      this.record.fieldCount = this.bounds.length / 2;
      this.onRecord(this.record);
    }
    this.bounds.length = 0;
    this.scan = FIELD_START;
    this.line += 1;
    this.recordLine = this.line;
  }

  /** Moves the incomplete record to the front of the buffer; the completed ones are gone. */
  private dropDone(): void {
    const from = this.fieldStartOfRecord();
    if (from === 0) return;
    this.buffer.copyWithin(0, from, this.length);
    this.length -= from;
    this.at -= from;
    this.fieldStart -= from;
    for (let k = 0; k < this.bounds.length; k += 1) this.bounds[k] = (this.bounds[k] ?? 0) - from;
  }

  private fieldStartOfRecord(): number {
    return this.bounds.length > 0 ? (this.bounds[0] ?? 0) : this.fieldStart;
  }

  private field(at: number): string {
    const start = this.bounds[2 * at];
    const end = this.bounds[2 * at + 1];
    if (start === undefined || end === undefined) throw new RangeError(`field ${at} of a record of ${this.bounds.length / 2}`);
    const text = decodeUtf8(this.buffer, start, end);
    return this.buffer[start] === QUOTE ? unquote(text) : text;
  }
}
