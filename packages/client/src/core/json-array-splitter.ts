// Splits a JSON document that arrives in chunks into the elements of one array, found by its path
// of object keys (`["data", "usage"]`), and the rest of the document (the envelope: the same JSON
// with that array left empty). Each element's text is handed over whole as soon as its last byte
// arrives, for `JSON.parse`, so memory holds one element, never the document.
//
// With `inner`, each element is split the same way as it arrives: the items of the array at that
// path inside it (`["paas", "teams"]`) are handed over one by one, then the element without them.
// Before its items, the element's head: the members that came before the inner array, as JSON.
// Memory then holds one inner item: an element can be as large as the document.
//
// With `skip`, an array deep inside each element (or inner item) that its reader does not want is
// passed over as it is found: its bytes are never kept, decoded or parsed, and it arrives empty.
// A usage entry's resources are most of its bytes, and a report by project never reads them.
//
// Why not a token-level streaming parser: on billing pages (deep objects of numbers) the best of
// them read 25 to 37 MB/s on this project's machine, where finding element boundaries byte by byte
// and parsing each element with `JSON.parse` reads about 130 MB/s (`JSON.parse` alone: 148 MB/s).
// See the client's README ("Large reads").

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** What a byte outside strings does to the nesting, by byte. */
const [OTHER, STRING, OPENS, CLOSES] = [0, 1, 2, 3];
const ROLE = new Uint8Array(256);
ROLE[QUOTE] = STRING;
ROLE[OPEN_OBJECT] = OPENS;
ROLE[OPEN_ARRAY] = OPENS;
ROLE[CLOSE_OBJECT] = CLOSES;
ROLE[CLOSE_ARRAY] = CLOSES;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * A piece of the document, in the order of its bytes. `element`: an element of the array (without
 * its inner items when split further). `head` and `inner`: with `inner`, an element's members
 * before its inner array (closed into JSON), then each of its inner items.
 */
export interface SplitPiece {
  kind: "element" | "head" | "inner";
  text: string;
}

/**
 * An array passed over: the one under `key`, `depth` levels inside each element (an element's own
 * members are at 2, theirs at 4). Found by the key just before it in the same chunk, which is
 * nearly always; one whose key ended in the chunk before is kept whole, which costs only time.
 */
export interface SkippedArray {
  key: string;
  depth: number;
}

/**
 * A piece (an element, an inner item, or the envelope) that grew past `maxPieceBytes` before it
 * ended: memory holds one piece, so one piece is what must be bounded.
 */
export class PieceTooLargeError extends Error {
  constructor(
    readonly kind: "element" | "envelope",
    readonly limit: number,
  ) {
    super(
      `one ${kind === "element" ? "element" : "envelope"} of the document holds more than ${limit} bytes`,
    );
  }
}

export class JsonArraySplitter {
  readonly #path: readonly string[];
  readonly #innerPath: readonly string[] | undefined;
  /** Whether this splitter says where its array opens (as the inner splitter of an element). */
  readonly #heads: boolean;
  /** What its elements (or, split further, their inner items) leave out. */
  readonly #skip: { key: Uint8Array; depth: number } | undefined;
  readonly #innerSkip: SkippedArray | undefined;
  /** The depth of the array being passed over, -1 when none is. */
  #skipping = -1;
  /** Splits the element being read, when split further. */
  #inner: JsonArraySplitter | undefined;
  /** As an inner splitter: where in the last chunk its value ended (-1: not yet). */
  #ended = -1;
  /** Open containers. */
  #depth = 0;
  /** Per shallow depth: whether the container is an object, its last string, its current key. */
  readonly #isObject: boolean[] = [];
  readonly #lastString: Array<string | undefined> = [];
  readonly #key: Array<string | undefined> = [];
  #inString = false;
  #escaped = false;
  /** A shallow string (a candidate key) being read: its bytes from earlier chunks, and where it starts in this one. */
  #shallow: { carry: Uint8Array[]; start: number } | undefined;
  /** The depth of the target array once it is open (its elements start one deeper). */
  #arrayDepth = -1;
  #arrayDone = false;
  /** The element being read: its bytes so far, or undefined between elements. */
  #element: Uint8Array[] | undefined;
  #elementIsScalar = false;
  #elementBytes = 0;
  readonly #envelope: Uint8Array[] = [];
  #envelopeBytes = 0;
  /** The most bytes one piece may keep before it ends (see `PieceTooLargeError`). */
  readonly #maxPieceBytes: number;

  constructor(
    path: readonly string[],
    options: { inner?: readonly string[]; heads?: boolean; skip?: SkippedArray; maxPieceBytes?: number } = {},
  ) {
    this.#path = path;
    this.#maxPieceBytes = options.maxPieceBytes ?? Number.POSITIVE_INFINITY;
    this.#innerPath = options.inner;
    this.#heads = options.heads ?? false;
    const { skip } = options;
    if (skip && options.inner) this.#innerSkip = skip;
    else if (skip) this.#skip = { key: Buffer.from(skip.key), depth: skip.depth };
  }

  /** Reads a chunk; returns every piece it completed, in order. */
  write(chunk: Uint8Array): SplitPiece[] {
    const done: SplitPiece[] = [];
    /** Where this chunk's part of the document ends (earlier for an inner splitter at its value's end). */
    let n = chunk.length;
    /** Where the current run of bytes (element or envelope) began in this chunk. */
    let runStart = 0;
    const inArray = () => this.#arrayDepth >= 0 && !this.#arrayDone;
    for (let i = 0; i < n; i++) {
      if (this.#inner) {
        // Split further: the inner splitter reads the element and says where it ended.
        const end = this.#inner.#readUntilEnd(chunk.subarray(i), done);
        if (end < 0) {
          runStart = n;
          break;
        }
        this.#takeElement(done);
        runStart = i + end + 1;
        i += end;
        continue;
      }
      if (this.#element !== undefined && !this.#elementIsScalar) {
        // It keeps the element's bytes itself (but a skipped array's).
        const end = this.#scanElement(chunk, i, runStart);
        if (end < 0) {
          runStart = n;
          break;
        }
        this.#takeElement(done);
        runStart = end + 1;
        i = end;
        continue;
      }
      const c = chunk[i] as number;
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (c === BACKSLASH) this.#escaped = true;
        else if (c === QUOTE) {
          this.#inString = false;
          if (this.#shallow) this.#endShallowString(chunk, i);
        }
        continue;
      }
      if (this.#element !== undefined) {
        // A scalar element ends at the next comma or at the array's own `]`.
        if (c === COMMA || c === CLOSE_ARRAY) {
          this.#feed(chunk.subarray(runStart, i));
          this.#takeElement(done);
          runStart = i;
          i--;
        }
        continue;
      }
      if (inArray() && this.#depth === this.#arrayDepth) {
        // Between elements of the target array: the next element starts here, or the array ends.
        if (isSpace(c) || c === COMMA) {
          this.#keepEnvelope(chunk.subarray(runStart, i));
          runStart = i + 1;
          continue;
        }
        if (c !== CLOSE_ARRAY) {
          this.#keepEnvelope(chunk.subarray(runStart, i));
          runStart = i;
          this.#element = [];
          this.#elementIsScalar = c !== OPEN_OBJECT && c !== OPEN_ARRAY;
          if (this.#innerPath && !this.#elementIsScalar) {
            // The inner splitter reads the element from its first byte.
            this.#inner = new JsonArraySplitter(this.#innerPath, {
              heads: true,
              maxPieceBytes: this.#maxPieceBytes,
              ...(this.#innerSkip ? { skip: this.#innerSkip } : {}),
            });
            i--;
            continue;
          }
          if (c === QUOTE) this.#inString = true;
          else if (!this.#elementIsScalar) this.#depth++;
          continue;
        }
      }
      // The envelope.
      if (c === QUOTE) {
        this.#inString = true;
        if (this.#depth <= this.#path.length) this.#shallow = { carry: [], start: i };
      } else if (c === COLON) this.#key[this.#depth] = this.#lastString[this.#depth];
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        const isTarget = c === OPEN_ARRAY && this.#arrayDepth < 0 && this.#atPath();
        this.#depth++;
        if (this.#depth <= this.#path.length + 1) {
          this.#isObject[this.#depth] = c === OPEN_OBJECT;
          this.#key[this.#depth] = undefined;
        }
        if (isTarget) {
          this.#arrayDepth = this.#depth;
          if (this.#heads) {
            const before = Buffer.concat([...this.#envelope, chunk.subarray(runStart, i)]).toString("utf8");
            done.push({ kind: "head", text: `${before}[]${"}".repeat(this.#path.length)}` });
          }
        }
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (this.#depth === this.#arrayDepth) this.#arrayDone = true;
        this.#depth--;
        if (this.#depth === 0 && this.#heads) {
          this.#ended = i;
          n = i + 1;
          break;
        }
      }
    }
    if (this.#element !== undefined) this.#feed(chunk.subarray(runStart, n));
    else this.#keepEnvelope(chunk.subarray(runStart, n));
    if (this.#shallow) {
      // A shallow string continues in the next chunk: keep what this one held of it.
      this.#shallow.carry.push(chunk.subarray(this.#shallow.start, n));
      this.#shallow.start = 0;
    }
    return done;
  }

  /** The document without the array's elements, once every chunk was written. */
  end(): string {
    if (this.#depth !== 0 || this.#inString || this.#element !== undefined)
      throw new SyntaxError("the JSON document ended before it was complete");
    return Buffer.concat(this.#envelope, this.#envelopeBytes).toString("utf8");
  }

  /**
   * Reads an object or array element from `from`, keeping its bytes from `keptFrom` on: where it
   * closes in this chunk, or -1 when it goes on. Only strings and nesting matter inside; locals
   * keep this loop (nearly every byte of a large list passes through it) fast.
   */
  #scanElement(chunk: Uint8Array, from: number, keptFrom: number): number {
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    let skipping = this.#skipping;
    let kept = keptFrom;
    const closed = this.#arrayDepth;
    const skipAt = this.#skip ? closed + this.#skip.depth : -1;
    const length = chunk.length;
    let end = -1;
    for (let j = from; j < length; j++) {
      if (inString) {
        // The rest of a string in a loop of its own: only its quote and escapes matter.
        if (escaped) {
          escaped = false;
          continue;
        }
        for (; j < length; j++) {
          const c = chunk[j] as number;
          if (c === QUOTE) break;
          if (c === BACKSLASH && ++j === length) escaped = true;
        }
        if (j < length) inString = false;
        continue;
      }
      // Outside strings most bytes are digits, keys' quotes aside: one lookup tells them apart.
      const c = chunk[j] as number;
      const role = ROLE[c];
      if (role === OTHER) continue;
      if (role === STRING) inString = true;
      else if (role === OPENS) {
        if (++depth === skipAt && c === OPEN_ARRAY && this.#skippedKeyBefore(chunk, j)) {
          // Kept up to its `[`; from here on nothing, until its `]`.
          this.#feed(chunk.subarray(kept, j + 1));
          skipping = depth;
        }
      } else {
        if (depth === skipping) {
          kept = j;
          skipping = -1;
        }
        if (--depth === closed) {
          end = j;
          break;
        }
      }
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
    this.#skipping = skipping;
    // Kept: up to the element's end, or to the chunk's end unless inside a skipped array. Every
    // way out runs the same code: a way out that optimised code had never seen taken would leave
    // it for the interpreter at every chunk.
    const ended = end >= 0;
    const keeping = skipping < 0;
    if (ended || keeping) this.#feed(chunk.subarray(kept, ended ? end + 1 : length));
    return end;
  }

  /** Whether the `[` at `at` is the value of the skipped key: `{` or `,`, then `"key"`, `:`, within this chunk. */
  #skippedKeyBefore(chunk: Uint8Array, at: number): boolean {
    const key = (this.#skip as { key: Uint8Array }).key;
    let j = at - 1;
    while (j >= 0 && isSpace(chunk[j] as number)) j--;
    if (chunk[j] !== COLON) return false;
    j--;
    while (j >= 0 && isSpace(chunk[j] as number)) j--;
    if (chunk[j] !== QUOTE) return false;
    j -= key.length;
    if (j < 1) return false;
    for (let k = 0; k < key.length; k++) if (chunk[j + k] !== key[k]) return false;
    if (chunk[j - 1] !== QUOTE) return false;
    // The quote opens the key (an escaped one stands after a backslash, inside a longer string).
    j -= 2;
    while (j >= 0 && isSpace(chunk[j] as number)) j--;
    return chunk[j] === COMMA || chunk[j] === OPEN_OBJECT;
  }

  /** Whether the keys of the open objects are the path. */
  #atPath(): boolean {
    if (this.#depth !== this.#path.length) return false;
    for (let d = 1; d <= this.#depth; d++)
      if (!this.#isObject[d] || this.#key[d] !== this.#path[d - 1]) return false;
    return true;
  }

  #endShallowString(chunk: Uint8Array, end: number): void {
    const { carry, start } = this.#shallow ?? { carry: [], start: 0 };
    this.#shallow = undefined;
    const text = Buffer.concat([...carry, chunk.subarray(start, end + 1)]).toString("utf8");
    this.#lastString[this.#depth] = JSON.parse(text) as string;
  }

  #keepEnvelope(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    // Copied: the chunk's memory belongs to the stream.
    this.#envelopeBytes += bytes.length;
    if (this.#envelopeBytes > this.#maxPieceBytes)
      throw new PieceTooLargeError("envelope", this.#maxPieceBytes);
    this.#envelope.push(Buffer.from(bytes));
  }

  /** Bytes of the element being read, kept until it ends. */
  #feed(bytes: Uint8Array): void {
    if (bytes.length === 0 || !this.#element) return;
    this.#elementBytes += bytes.length;
    if (this.#elementBytes > this.#maxPieceBytes)
      throw new PieceTooLargeError("element", this.#maxPieceBytes);
    this.#element.push(bytes);
  }

  /**
   * As the inner splitter of an element: reads `chunk` up to the end of the element's value;
   * returns where in `chunk` it ended, or -1 when it goes on in the next chunk.
   */
  #readUntilEnd(chunk: Uint8Array, done: SplitPiece[]): number {
    this.#ended = -1;
    for (const piece of this.write(chunk))
      done.push(piece.kind === "element" ? { kind: "inner", text: piece.text } : piece);
    return this.#ended;
  }

  #takeElement(done: SplitPiece[]): void {
    const parts = this.#element ?? [];
    this.#element = undefined;
    this.#elementBytes = 0;
    this.#elementIsScalar = false;
    if (this.#inner) {
      const inner = this.#inner;
      this.#inner = undefined;
      done.push({ kind: "element", text: inner.end() });
      return;
    }
    const only = parts.length === 1 ? (parts[0] as Uint8Array) : undefined;
    const bytes = only ? Buffer.from(only.buffer, only.byteOffset, only.length) : Buffer.concat(parts);
    done.push({ kind: "element", text: bytes.toString("utf8") });
  }
}

/**
 * Every way through the scanner taken once, at load, on a small document read whole and a byte at
 * a time. V8 compiles the scanner's loop while it reads the first large element (on-stack
 * replacement) from what the interpreter saw until then; a way out it had not seen sends that code
 * back to the interpreter, and does so again at every chunk (measured: in some runs a 15 MB
 * report's scan took three times as long).
 */
function takeEveryWay(): void {
  const bytes = Buffer.from('{"a":[{"p":[{"s":[1]},{}],"t":"\\"]"},{"p":[]},2],"b":{}}');
  for (const size of [bytes.length, 1]) {
    const splitter = new JsonArraySplitter(["a"], { inner: ["p"], skip: { key: "s", depth: 2 } });
    for (let at = 0; at < bytes.length; at += size) splitter.write(bytes.subarray(at, at + size));
    splitter.end();
  }
}
takeEveryWay();
