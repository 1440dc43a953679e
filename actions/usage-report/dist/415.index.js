export const id = 415;
export const ids = [415];
export const modules = {

/***/ 9415:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   FocusParquet: () => (/* binding */ FocusParquet)
/* harmony export */ });
/* harmony import */ var _line_file_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9579);
/* harmony import */ var _columns_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(7076);


// focus.parquet: the rows of focus.csv with typed columns (amounts DOUBLE, the values the platform
// sent, exactly; date-times TIMESTAMP in UTC; strings UTF-8), written a row group at a time as the
// usage is read, so memory holds one row group whatever the report's size.
//
// The writer is hyparquet-writer (pure JavaScript), chosen on measurement (usage-report's README):
// it is imported only when focus-parquet is asked for, so no other report loads it.
// Column statistics are off: they doubled the time to encode a row group.
/** Rows per row group: a few megabytes encoded, and what memory holds of the file. */
const ROW_GROUP_ROWS = 50_000;
const PHYSICAL = {
    decimal: { type: "DOUBLE" },
    datetime: { type: "INT64", logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" } },
    string: { type: "BYTE_ARRAY", converted_type: "UTF8" },
};
const schema = () => [
    { name: "schema", num_children: _columns_js__WEBPACK_IMPORTED_MODULE_1__/* .FOCUS_COLUMNS */ .j.length },
    ..._columns_js__WEBPACK_IMPORTED_MODULE_1__/* .FOCUS_COLUMNS */ .j.map((c) => ({
        name: c.name,
        ...PHYSICAL[c.type],
        repetition_type: c.nullable ? "OPTIONAL" : "REQUIRED",
    })),
];
/** Where a column's values come from in the buffered rows. */
const SOURCES = _columns_js__WEBPACK_IMPORTED_MODULE_1__/* .FOCUS_COLUMNS */ .j.map((column) => ({
    column,
    index: (0,_columns_js__WEBPACK_IMPORTED_MODULE_1__/* .columnsOf */ .P)(column.part).indexOf(column),
}));
class FocusParquet {
    file;
    writer;
    #encoded = new WeakMap();
    #text = new TextEncoder();
    #rows = 0;
    #costs = new Float64Array(ROW_GROUP_ROWS);
    #quantities = new Float64Array(ROW_GROUP_ROWS);
    #resources = [];
    /**
     * The row group's resource ids, each encoded once: a resource has a row per price component, and
     * the writer's dictionary finds a value it has seen by identity before it compares bytes.
     */
    #resourceIds = new Map();
    #periods = [];
    #charges = [];
    #owners = [];
    /** The last row group handed to the disk, until the disk has it. */
    #pending;
    constructor(file, writer) {
        this.file = file;
        this.writer = writer;
    }
    static async open(path) {
        const { ByteWriter, ParquetWriter } = await __webpack_require__.e(/* import() */ 412).then(__webpack_require__.bind(__webpack_require__, 6412));
        const file = _line_file_js__WEBPACK_IMPORTED_MODULE_0__/* .LineFile */ .P.open(path);
        const bytes = new ByteWriter(1 << 20);
        // Each row group's bytes go to the file as soon as they are made; the buffer is then reused.
        const flush = () => {
            file.bytes(new Uint8Array(bytes.buffer.slice(0, bytes.index)));
            bytes.index = 0;
            return file.drained();
        };
        Object.assign(bytes, { flush, finish: flush });
        const writer = new ParquetWriter({
            writer: bytes,
            schema: schema(),
            statistics: false,
            createdBy: "cwp usage-report",
        });
        return new FocusParquet(file, writer);
    }
    row(period, charge, owner, resourceId, cost, quantity) {
        const at = this.#rows++;
        this.#costs[at] = cost;
        this.#quantities[at] = quantity;
        this.#resources.push(resourceId === null ? null : this.#resourceId(resourceId));
        this.#periods.push(period);
        this.#charges.push(charge);
        this.#owners.push(owner);
        if (this.#rows === ROW_GROUP_ROWS)
            this.#writeGroup();
    }
    async drained() {
        await this.#pending;
    }
    async close() {
        if (this.#rows > 0)
            this.#writeGroup();
        await this.#pending;
        await this.writer.finish();
        await this.file.close();
    }
    discard() {
        return this.file.discard();
    }
    /** The buffered rows as a row group: encoded at once, then on their way to the disk. */
    #writeGroup() {
        const rows = this.#rows;
        const shared = {
            period: this.#periods.map((p) => this.#encode(p)),
            charge: this.#charges.map((p) => this.#encode(p)),
            owner: this.#owners.map((p) => this.#encode(p)),
        };
        const columnData = SOURCES.map(({ column, index }) => ({
            name: column.name,
            data: this.#column(column, index, rows, shared),
            // Amounts and quantities are almost all distinct: the writer need not try a dictionary.
            ...(column.type === "decimal" ? { encoding: "PLAIN" } : {}),
        }));
        const previous = this.#pending;
        const written = this.writer.write({ columnData, rowGroupSize: rows });
        this.#pending = Promise.all([previous, written]).then(() => { });
        // A failed write is reported where the file is next waited for, not as unhandled meanwhile.
        this.#pending.catch(() => { });
        this.#rows = 0;
        this.#costs = new Float64Array(ROW_GROUP_ROWS);
        this.#quantities = new Float64Array(ROW_GROUP_ROWS);
        this.#resources = [];
        this.#resourceIds = new Map();
        this.#periods = [];
        this.#charges = [];
        this.#owners = [];
    }
    #column(column, index, rows, shared) {
        switch (column.part) {
            case "cost":
                return this.#costs.subarray(0, rows);
            case "quantity":
                return this.#quantities.subarray(0, rows);
            case "resource":
                return this.#resources;
            default: {
                const parts = shared[column.part];
                const values = new Array(rows);
                for (let row = 0; row < rows; row++)
                    values[row] = parts[row]?.[index] ?? null;
                return values;
            }
        }
    }
    #resourceId(id) {
        let bytes = this.#resourceIds.get(id);
        if (!bytes) {
            bytes = this.#text.encode(id);
            this.#resourceIds.set(id, bytes);
        }
        return bytes;
    }
    /** A shared part's values as the writer takes them, encoded once for all its rows. */
    #encode(parts) {
        let encoded = this.#encoded.get(parts);
        if (!encoded) {
            encoded = parts.values.map((v) => (typeof v === "string" ? this.#text.encode(v) : v));
            this.#encoded.set(parts, encoded);
        }
        return encoded;
    }
}


/***/ })

};
