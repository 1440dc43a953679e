export const id = 834;
export const ids = [834];
export const modules = {

/***/ 4834:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  FocusParquet: () => (/* binding */ FocusParquet)
});

// EXTERNAL MODULE: ../../packages/cost-report/dist/render/line-file.js
var line_file = __webpack_require__(5164);
// EXTERNAL MODULE: ../../packages/cost-report/dist/render/focus/columns.js
var focus_columns = __webpack_require__(7687);
;// CONCATENATED MODULE: ../../packages/cost-report/dist/render/focus/parquet/byte-buffer.js
// The bytes of a page or of the file's footer as they are made: a buffer that grows, with the few
// encodings Parquet's pages and Thrift's compact protocol need.
const utf8 = new TextEncoder();
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
class ByteBuffer {
    #bytes;
    #view;
    length = 0;
    constructor(capacity = 1 << 16) {
        this.#bytes = new Uint8Array(capacity);
        this.#view = new DataView(this.#bytes.buffer);
    }
    /** What was written, without a copy (valid until the next write). */
    get bytes() {
        return this.#bytes.subarray(0, this.length);
    }
    byte(value) {
        this.#room(1);
        this.#bytes[this.length++] = value;
    }
    /** An unsigned LEB128 varint; exact up to 2^53 (file offsets), so without 32-bit operators. */
    varint(value) {
        this.#room(10);
        let rest = value;
        while (rest >= 0x80) {
            this.#bytes[this.length++] = (rest % 0x80) | 0x80;
            rest = Math.floor(rest / 0x80);
        }
        this.#bytes[this.length++] = rest;
    }
    int32(value) {
        this.#room(4);
        this.#view.setInt32(this.length, value, true);
        this.length += 4;
    }
    int64(value) {
        this.#room(8);
        this.#view.setBigInt64(this.length, BigInt(value), true);
        this.length += 8;
    }
    /** A string as Parquet's PLAIN BYTE_ARRAY: its UTF-8 length, then its UTF-8. */
    byteArray(value) {
        // Room for the worst case: three bytes for each UTF-16 unit.
        this.#room(4 + value.length * 3);
        const { written } = utf8.encodeInto(value, this.#bytes.subarray(this.length + 4));
        this.int32(written);
        this.length += written;
    }
    append(bytes) {
        this.#room(bytes.length);
        this.#bytes.set(bytes, this.length);
        this.length += bytes.length;
    }
    /** Doubles as Parquet stores them, little-endian: the array's own bytes where the machine is. */
    doubles(values) {
        if (LITTLE_ENDIAN) {
            this.append(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
            return;
        }
        this.#room(values.length * 8);
        for (const value of values) {
            this.#view.setFloat64(this.length, value, true);
            this.length += 8;
        }
    }
    #room(more) {
        if (this.length + more <= this.#bytes.length)
            return;
        const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.length + more));
        grown.set(this.bytes);
        this.#bytes = grown;
        this.#view = new DataView(grown.buffer);
    }
}
//# sourceMappingURL=byte-buffer.js.map
// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(8522);
;// CONCATENATED MODULE: ../../packages/cost-report/dist/render/focus/parquet/thrift.js
const TYPE = { true: 1, false: 2, i32: 5, i64: 6, binary: 8, list: 9, struct: 12 };
const thrift_text = new TextEncoder();
function writeStruct(out, fields) {
    let last = 0;
    for (const [id, value] of fields) {
        const type = typeOf(value);
        // The field header holds the id's distance from the last one when it is 1 to 15.
        if (id > last && id - last <= 15)
            out.byte(((id - last) << 4) | type);
        else {
            out.byte(type);
            out.varint(zigzag(id));
        }
        last = id;
        if (!("bool" in value))
            writeValue(out, value);
    }
    out.byte(0);
}
function typeOf(value) {
    if ("bool" in value)
        return value.bool ? TYPE.true : TYPE.false;
    if ("i32" in value)
        return TYPE.i32;
    if ("i64" in value)
        return TYPE.i64;
    if ("binary" in value)
        return TYPE.binary;
    if ("list" in value)
        return TYPE.list;
    return TYPE.struct;
}
function writeValue(out, value) {
    if ("i32" in value)
        out.varint(zigzag(value.i32));
    else if ("i64" in value)
        out.varint(zigzag(value.i64));
    else if ("binary" in value)
        writeBinary(out, value.binary);
    else if ("struct" in value)
        writeStruct(out, value.struct);
    else if ("list" in value) {
        const size = value.of.length;
        const type = TYPE[value.list];
        if (size < 15)
            out.byte((size << 4) | type);
        else {
            out.byte(0xf0 | type);
            out.varint(size);
        }
        if (value.list === "i32")
            for (const item of value.of)
                out.varint(zigzag(item));
        else if (value.list === "binary")
            for (const item of value.of)
                writeBinary(out, item);
        else
            for (const item of value.of)
                writeStruct(out, item);
    }
}
function writeBinary(out, value) {
    const bytes = thrift_text.encode(value);
    out.varint(bytes.length);
    out.append(bytes);
}
/** Zigzag: small negative numbers stay short. Exact beyond 32 bits (i64 offsets). */
const zigzag = (n) => (n >= 0 ? n * 2 : -n * 2 - 1);
//# sourceMappingURL=thrift.js.map
;// CONCATENATED MODULE: ../../packages/cost-report/dist/render/focus/parquet/column-chunk.js



// One column of a row group as Parquet stores it (https://parquet.apache.org/docs/file-format/):
// amounts as PLAIN doubles; every other column as a dictionary of its distinct values and, per
// row, the index of its value, in runs (RLE), since neighbouring rows share their values. Pages
// may be compressed with Zstandard (Node's own zlib; the writer's caller says which).
const column_chunk_TYPE = { INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6 };
const ENCODING = { PLAIN: 0, RLE: 3, RLE_DICTIONARY: 8 };
const PAGE = { DATA: 0, DICTIONARY: 2 };
const CODEC = { UNCOMPRESSED: 0, ZSTD: 6 };
/** Zstandard's fastest level: resource ids (the largest dictionaries) shrink by half. */
const ZSTD_OPTIONS = { chunkSize: 1 << 20, params: { [external_node_zlib_.constants.ZSTD_c_compressionLevel]: 1 } };
/**
 * Makes a row group's columns, each as its pages. Pages to compress are compressed in libuv's
 * threads (`zlib`), while the next row group is read; `place` then puts a column in the file, in
 * order, once its pages are ready.
 */
class ColumnPagesWriter {
    /** Reused for every page: a page is compressed from a copy. */
    #page = new ByteBuffer(1 << 20);
    #levels = new ByteBuffer(1 << 12);
    /** The values of a column to bit-pack, nulls left out. */
    #values = new Int32Array(0);
    /** A required DOUBLE column, PLAIN; `compress`: with Zstandard. */
    doubles(name, values, compress) {
        this.#page.length = 0;
        this.#page.doubles(values);
        const data = (compress ? this.#compressed : this.#uncompressed)(PAGE.DATA, values.length, ENCODING.PLAIN);
        return {
            name,
            type: "DOUBLE",
            rows: values.length,
            encodings: [ENCODING.PLAIN, ENCODING.RLE],
            codec: compress ? CODEC.ZSTD : CODEC.UNCOMPRESSED,
            pages: data.then((page) => [page]),
        };
    }
    /**
     * A dictionary column: `dictionary` holds the values (INT64 as numbers, BYTE_ARRAY as strings),
     * `runs` the rows' values in order (-1 for null, which only a nullable column has).
     * `compress`: with Zstandard.
     */
    dictionary(name, type, dictionary, column) {
        const { runs, rows, nullable, compress } = column;
        const page = compress ? this.#compressed : this.#uncompressed;
        this.#page.length = 0;
        for (const value of dictionary) {
            if (typeof value === "number")
                this.#page.int64(value);
            else
                this.#page.byteArray(value);
        }
        const dictionaryPage = page(PAGE.DICTIONARY, dictionary.length, ENCODING.PLAIN);
        this.#page.length = 0;
        if (nullable) {
            // Definition levels: 1 where a row has a value, 0 where it is null; their length first.
            this.#levels.length = 0;
            writeLevels(this.#levels, runs);
            this.#page.int32(this.#levels.length);
            this.#page.append(this.#levels.bytes);
        }
        const bitWidth = Math.max(1, Math.ceil(Math.log2(dictionary.length)));
        this.#page.byte(bitWidth);
        this.#writeValues(runs, bitWidth);
        const data = page(PAGE.DATA, rows, ENCODING.RLE_DICTIONARY);
        return {
            name,
            type,
            rows,
            encodings: [ENCODING.PLAIN, ENCODING.RLE, ENCODING.RLE_DICTIONARY],
            codec: compress ? CODEC.ZSTD : CODEC.UNCOMPRESSED,
            pages: Promise.all([dictionaryPage, data]),
        };
    }
    /**
     * The RLE/bit-packing hybrid of the values (nulls left out): as runs (each run's length and
     * value) where values repeat, as a row's period or project does; else bit-packed, `bitWidth` bits
     * a value, as a row's charge, which changes with every price component.
     */
    #writeValues(runs, bitWidth) {
        const width = (bitWidth + 7) >> 3;
        let present = 0;
        for (let k = 0; k < runs.count; k++)
            if (runs.values[k] >= 0)
                present += runs.lengths[k];
        // A run takes a byte or two of length and its value; packing takes bitWidth bits a value.
        if (runs.count * (2 + width) <= Math.ceil(present / 8) * bitWidth) {
            let value = -1;
            let count = 0;
            for (let k = 0; k < runs.count; k++) {
                const v = runs.values[k];
                if (v < 0)
                    continue;
                if (v === value)
                    count += runs.lengths[k];
                else {
                    if (count > 0)
                        writeRepeat(this.#page, value, count, width);
                    value = v;
                    count = runs.lengths[k];
                }
            }
            if (count > 0)
                writeRepeat(this.#page, value, count, width);
            return;
        }
        if (this.#values.length < present)
            this.#values = new Int32Array(present);
        let at = 0;
        for (let k = 0; k < runs.count; k++) {
            const v = runs.values[k];
            if (v >= 0)
                for (let n = runs.lengths[k]; n > 0; n--)
                    this.#values[at++] = v;
        }
        writePacked(this.#page, this.#values.subarray(0, present), bitWidth);
    }
    #uncompressed = (type, values, encoding) => {
        const bytes = this.#page.bytes.slice();
        return Promise.resolve({ type, values, encoding, size: bytes.length, bytes });
    };
    #compressed = (type, values, encoding) => {
        const size = this.#page.length;
        return new Promise((resolve, reject) => (0,external_node_zlib_.zstdCompress)(this.#page.bytes.slice(), ZSTD_OPTIONS, (error, bytes) => error ? reject(error) : resolve({ type, values, encoding, size, bytes })));
    };
}
/** A column's pages, their headers first, at `offset` in the file. */
function place(column, pages, offset) {
    const chunk = new ByteBuffer(pages.reduce((sum, p) => sum + p.bytes.length + 64, 0));
    let dictionaryPageOffset;
    let dataPageOffset = offset;
    let uncompressed = 0;
    for (const page of pages) {
        if (page.type === PAGE.DICTIONARY)
            dictionaryPageOffset = offset + chunk.length;
        else
            dataPageOffset = offset + chunk.length;
        const before = chunk.length;
        const header = page.type === PAGE.DICTIONARY
            ? [
                7,
                {
                    struct: [
                        [1, { i32: page.values }],
                        [2, { i32: page.encoding }],
                    ],
                },
            ]
            : [
                5,
                {
                    struct: [
                        [1, { i32: page.values }],
                        [2, { i32: page.encoding }],
                        [3, { i32: ENCODING.RLE }],
                        [4, { i32: ENCODING.RLE }],
                    ],
                },
            ];
        writeStruct(chunk, [
            [1, { i32: page.type }],
            [2, { i32: page.size }],
            [3, { i32: page.bytes.length }],
            header,
        ]);
        uncompressed += chunk.length - before + page.size;
        chunk.append(page.bytes);
    }
    const meta = [
        [1, { i32: column_chunk_TYPE[column.type] }],
        [2, { list: "i32", of: column.encodings }],
        [3, { list: "binary", of: [column.name] }],
        [4, { i32: column.codec }],
        [5, { i64: column.rows }],
        [6, { i64: uncompressed }],
        [7, { i64: chunk.length }],
        [9, { i64: dataPageOffset }],
    ];
    if (dictionaryPageOffset !== undefined)
        meta.push([11, { i64: dictionaryPageOffset }]);
    return {
        bytes: chunk.bytes,
        meta: [
            [2, { i64: offset }],
            [3, { struct: meta }],
        ],
    };
}
/** Definition levels as runs: 1 for each row with a value, 0 for each null. */
function writeLevels(out, runs) {
    let level = -1;
    let count = 0;
    for (let k = 0; k < runs.count; k++) {
        const present = runs.values[k] < 0 ? 0 : 1;
        if (present === level)
            count += runs.lengths[k];
        else {
            if (count > 0)
                writeRepeat(out, level, count, 1);
            level = present;
            count = runs.lengths[k];
        }
    }
    if (count > 0)
        writeRepeat(out, level, count, 1);
}
/** One run: `count` times `value`, in `width` bytes. */
function writeRepeat(out, value, count, width) {
    out.varint(count * 2);
    for (let b = 0; b < width; b++)
        out.byte((value >>> (8 * b)) & 0xff);
}
/**
 * One bit-packed run: groups of eight values, least significant bit first, the last padded. A
 * dictionary holds at most a row group's rows, so `bitWidth` is at most 16 and the bits in hand fit
 * 32-bit operators.
 */
function writePacked(out, values, bitWidth) {
    const groups = Math.ceil(values.length / 8);
    out.varint(groups * 2 + 1);
    let buffer = 0;
    let bits = 0;
    for (let i = 0; i < groups * 8; i++) {
        buffer |= (values[i] ?? 0) << bits;
        bits += bitWidth;
        while (bits >= 8) {
            out.byte(buffer & 0xff);
            buffer >>>= 8;
            bits -= 8;
        }
    }
}
/** Runs recorded as the rows come, a row at a time. */
class RunsBuilder {
    values;
    lengths;
    count = 0;
    constructor(capacity) {
        this.values = new Int32Array(capacity);
        this.lengths = new Int32Array(capacity);
    }
    add(value) {
        const last = this.count - 1;
        if (last >= 0 && this.values[last] === value)
            this.lengths[last] = this.lengths[last] + 1;
        else {
            this.values[this.count] = value;
            this.lengths[this.count] = 1;
            this.count++;
        }
    }
}
//# sourceMappingURL=column-chunk.js.map
;// CONCATENATED MODULE: ../../packages/cost-report/dist/render/focus/parquet-sink.js





// focus.parquet: the rows of focus.csv with typed columns (amounts DOUBLE, the values the platform
// sent, exactly; date-times TIMESTAMP in UTC; strings UTF-8), written a row group at a time as the
// usage is read, so memory holds one row group whatever the report's size.
//
// Written by our own encoder (`parquet/`), not a library: the libraries measured (usage-report's
// README) encode any column generically, looking up every value of every column, and took twice
// the CSV's time; here a row records which shared parts it has, and each column's dictionary is
// made from those few parts, not from its rows.
//
// Compressed (Zstandard, in libuv's threads): the resource ids (hex text, the one large dictionary)
// and the two quantity columns (by 40%). Not the four cost columns: they are most of the file and
// shrink by only a third, and compressing them made the file 92 MB instead of about 120 at 50k
// resources × 30 days by day, but 2.3 s slower than focus.csv. Nor the other dictionaries: each is
// small, and a compression's set-up (a zlib stream each) cost more than they would save.
/** Rows per row group: a few megabytes encoded, and what memory holds of the file. */
const ROW_GROUP_ROWS = 50_000;
const MAGIC = new TextEncoder().encode("PAR1");
// The footer's field numbers and values are parquet.thrift's (https://github.com/apache/parquet-format).
const PHYSICAL = { INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6 };
const CONVERTED = { UTF8: 0, TIMESTAMP_MILLIS: 9 };
/** LogicalType STRING. */
const STRING = [[1, { struct: [] }]];
/** LogicalType TIMESTAMP: isAdjustedToUTC true, unit MILLIS. */
const TIMESTAMP_UTC_MILLIS = [
    [
        8,
        {
            struct: [
                [1, { bool: true }],
                [2, { struct: [[1, { struct: [] }]] }],
            ],
        },
    ],
];
/** A column's SchemaElement fields by FOCUS type: 1 type, 6 converted type (for older readers), 10 logical type. */
const SCHEMA_TYPES = {
    decimal: [[1, { i32: PHYSICAL.DOUBLE }]],
    datetime: [
        [1, { i32: PHYSICAL.INT64 }],
        [6, { i32: CONVERTED.TIMESTAMP_MILLIS }],
        [10, { struct: TIMESTAMP_UTC_MILLIS }],
    ],
    string: [
        [1, { i32: PHYSICAL.BYTE_ARRAY }],
        [6, { i32: CONVERTED.UTF8 }],
        [10, { struct: STRING }],
    ],
};
/** The footer's schema: the root (4 name, 5 children), then each column (3 repetition: 0 required, 1 optional; 4 name). */
const schema = () => [
    [
        [4, { binary: "schema" }],
        [5, { i32: focus_columns/* FOCUS_COLUMNS */.j.length }],
    ],
    ...focus_columns/* FOCUS_COLUMNS */.j.map((c) => {
        const [type, ...rest] = SCHEMA_TYPES[c.type];
        return [type, [3, { i32: c.nullable ? 1 : 0 }], [4, { binary: c.name }], ...rest];
    }),
];
/** Where each shared column's value sits in its part's values. */
const PLACE_IN_PART = new Map(focus_columns/* FOCUS_COLUMNS */.j.map((c) => [c, (0,focus_columns/* columnsOf */.P)(c.part).indexOf(c)]));
/**
 * Each shared part's rows in a row group: which part a row has, by its number in the group, in
 * runs. Its columns are written from those runs: a period or a project spans many rows, so each of
 * their columns costs a step per run, not per row.
 */
class PartRows {
    runs = new RunsBuilder(ROW_GROUP_ROWS);
    parts = [];
    #numbers = new Map();
    #last;
    #lastNumber = -1;
    add(part) {
        // Neighbouring rows mostly share their parts: no lookup for those.
        if (part !== this.#last) {
            let number = this.#numbers.get(part);
            if (number === undefined) {
                number = this.parts.length;
                this.parts.push(part);
                this.#numbers.set(part, number);
            }
            this.#last = part;
            this.#lastNumber = number;
        }
        this.runs.add(this.#lastNumber);
    }
    reset() {
        this.runs.count = 0;
        this.parts = [];
        this.#numbers = new Map();
        this.#last = undefined;
    }
}
/**
 * The row group's resource ids, as a dictionary and each row's index in it (-1: none), in runs.
 * The dictionary is the ids in the order their runs come, a resource seen again (a later day)
 * again: looking each up (a hash of each id) took more time than the rest of the file, and the
 * column is compressed, so the repeats cost little room.
 */
class ResourceRows {
    runs = new RunsBuilder(ROW_GROUP_ROWS);
    ids = [];
    #last;
    add(id) {
        if (id !== null && id !== this.#last)
            this.ids.push(id);
        this.#last = id ?? undefined;
        this.runs.add(id === null ? -1 : this.ids.length - 1);
    }
    reset() {
        this.runs.count = 0;
        this.ids = [];
        this.#last = undefined;
    }
}
class FocusParquet {
    file;
    #columns = new ColumnPagesWriter();
    #costs = new Float64Array(ROW_GROUP_ROWS);
    #quantities = new Float64Array(ROW_GROUP_ROWS);
    #parts = {
        period: new PartRows(),
        charge: new PartRows(),
        owner: new PartRows(),
    };
    #resources = new ResourceRows();
    /** The runs of the column being written (a part's runs, each part as its value's index). */
    #columnRuns = new RunsBuilder(ROW_GROUP_ROWS);
    #rows = 0;
    #totalRows = 0;
    /** Where the next bytes go in the file. */
    #offset = MAGIC.length;
    #rowGroups = [];
    /** Row groups on their way to the disk (compressing, then written in order): at most two. */
    #inFlight = [];
    constructor(file) {
        this.file = file;
        file.bytes(MAGIC);
    }
    static async open(path) {
        return new FocusParquet(line_file/* LineFile */.P.open(path));
    }
    row(period, charge, owner, resourceId, cost, quantity) {
        const at = this.#rows++;
        this.#costs[at] = cost;
        this.#quantities[at] = quantity;
        this.#parts.period.add(period);
        this.#parts.charge.add(charge);
        this.#parts.owner.add(owner);
        this.#resources.add(resourceId);
        if (this.#rows === ROW_GROUP_ROWS)
            this.#writeGroup();
    }
    /** The disk's pace, and the row group before the last: memory holds at most two. */
    async drained() {
        while (this.#inFlight.length > 1)
            await this.#inFlight.shift();
        await this.file.drained();
    }
    async close() {
        if (this.#rows > 0)
            this.#writeGroup();
        for (const group of this.#inFlight)
            await group;
        const footer = new ByteBuffer();
        writeStruct(footer, [
            [1, { i32: 1 }],
            [2, { list: "struct", of: schema() }],
            [3, { i64: this.#totalRows }],
            [4, { list: "struct", of: this.#rowGroups }],
            [6, { binary: "cwp usage-report" }],
        ]);
        const size = footer.length;
        footer.int32(size);
        footer.append(MAGIC);
        this.file.bytes(footer.bytes);
        await this.file.close();
    }
    discard() {
        return this.file.discard();
    }
    /**
     * The buffered rows as a row group: its columns made now, compressed in the background, and
     * written after the group before it, in order.
     */
    #writeGroup() {
        const rows = this.#rows;
        const columns = focus_columns/* FOCUS_COLUMNS */.j.map((column) => this.#column(column, rows));
        const ready = Promise.all(columns.map((c) => c.pages));
        const previous = this.#inFlight.at(-1);
        const written = Promise.all([ready, previous]).then(([pages]) => {
            const chunks = [];
            let bytes = 0;
            columns.forEach((column, i) => {
                const chunk = place(column, pages[i] ?? [], this.#offset);
                this.file.bytes(chunk.bytes);
                this.#offset += chunk.bytes.length;
                bytes += chunk.bytes.length;
                chunks.push(chunk.meta);
            });
            this.#rowGroups.push([
                [1, { list: "struct", of: chunks }],
                [2, { i64: bytes }],
                [3, { i64: rows }],
            ]);
        });
        // A failure is reported where the file is next waited for, not as unhandled meanwhile.
        written.catch(() => { });
        this.#inFlight.push(written);
        this.#totalRows += rows;
        this.#rows = 0;
        for (const part of Object.values(this.#parts))
            part.reset();
        this.#resources.reset();
    }
    #column(column, rows) {
        switch (column.part) {
            case "cost":
                return this.#columns.doubles(column.name, this.#costs.subarray(0, rows), false);
            case "quantity":
                return this.#columns.doubles(column.name, this.#quantities.subarray(0, rows), true);
            case "resource": {
                const { ids, runs } = this.#resources;
                return this.#columns.dictionary(column.name, "BYTE_ARRAY", ids, {
                    runs,
                    rows,
                    nullable: true,
                    compress: true,
                });
            }
            default: {
                // The column's distinct values among the group's parts, and each part's index among them.
                const { parts, runs } = this.#parts[column.part];
                const at = PLACE_IN_PART.get(column);
                const dictionary = [];
                const found = new Map();
                const partIndex = parts.map((part) => {
                    const value = part.values[at] ?? null;
                    if (value === null)
                        return -1;
                    let index = found.get(value);
                    if (index === undefined) {
                        index = dictionary.length;
                        dictionary.push(value);
                        found.set(value, index);
                    }
                    return index;
                });
                const columnRuns = this.#columnRuns;
                columnRuns.count = runs.count;
                for (let k = 0; k < runs.count; k++)
                    columnRuns.values[k] = partIndex[runs.values[k]];
                columnRuns.lengths.set(runs.lengths.subarray(0, runs.count));
                const type = column.type === "datetime" ? "INT64" : "BYTE_ARRAY";
                return this.#columns.dictionary(column.name, type, dictionary, {
                    runs: columnRuns,
                    rows,
                    nullable: column.nullable,
                    compress: false,
                });
            }
        }
    }
}
//# sourceMappingURL=parquet-sink.js.map

/***/ })

};
