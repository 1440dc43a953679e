export const id = 412;
export const ids = [412];
export const modules = {

/***/ 6412:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  ByteWriter: () => (/* reexport */ bytewriter_ByteWriter),
  ParquetWriter: () => (/* reexport */ ParquetWriter)
});

// UNUSED EXPORTS: autoSchemaElement, fileWriter, geojsonToWkb, parquetWrite, parquetWriteBuffer, parquetWriteFile, parquetWriteRows, schemaFromColumnData

// EXTERNAL MODULE: external "fs"
var external_fs_ = __webpack_require__(9896);
;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/bytewriter.js
/**
 * @import {Writer} from '../src/types.js'
 */

/**
 * Writes data to an auto-expanding ArrayBuffer.
 *
 * @implements {Writer}
 */
class bytewriter_ByteWriter {
  /**
   * @param {number} [initalSize]
   */
  constructor(initalSize = 1024) {
    this.buffer = new ArrayBuffer(initalSize)
    this.view = new DataView(this.buffer)
    this.offset = 0 // total bytes written
    this.index = 0 // index in buffer (may be reset when flushing to file)
  }

  /**
   * @param {number} size
   */
  ensure(size) {
    // auto-expanding buffer
    if (this.index + size > this.buffer.byteLength) {
      const newSize = Math.max(this.buffer.byteLength * 2, this.index + size)
      const newBuffer = new ArrayBuffer(newSize)
      // TODO: save buffers until later and merge once?
      new Uint8Array(newBuffer).set(new Uint8Array(this.buffer))
      this.buffer = newBuffer
      this.view = new DataView(this.buffer)
    }
  }

  finish() {
  }

  getBuffer() {
    return this.buffer.slice(0, this.index)
  }

  getBytes() {
    return new Uint8Array(this.buffer, 0, this.index)
  }

  /**
   * @param {number} value
   */
  appendUint8(value) {
    this.ensure(1)
    this.view.setUint8(this.index, value)
    this.offset++
    this.index++
  }

  /**
   * @param {number} value
   */
  appendUint32(value) {
    this.ensure(4)
    this.view.setUint32(this.index, value, true)
    this.offset += 4
    this.index += 4
  }

  /**
   * @param {number} value
   */
  appendInt32(value) {
    this.ensure(4)
    this.view.setInt32(this.index, value, true)
    this.offset += 4
    this.index += 4
  }

  /**
   * @param {bigint} value
   */
  appendInt64(value) {
    this.ensure(8)
    this.view.setBigInt64(this.index, BigInt(value), true)
    this.offset += 8
    this.index += 8
  }

  /**
   * @param {number} value
   */
  appendFloat32(value) {
    this.ensure(4)
    this.view.setFloat32(this.index, value, true)
    this.offset += 4
    this.index += 4
  }

  /**
   * @param {number} value
   */
  appendFloat64(value) {
    this.ensure(8)
    this.view.setFloat64(this.index, value, true)
    this.offset += 8
    this.index += 8
  }

  /**
   * @param {ArrayBuffer} value
   */
  appendBuffer(value) {
    this.appendBytes(new Uint8Array(value))
  }

  /**
   * @param {Uint8Array} value
   */
  appendBytes(value) {
    this.ensure(value.length)
    new Uint8Array(this.buffer, this.index, value.length).set(value)
    this.offset += value.length
    this.index += value.length
  }

  /**
   * Convert a 32-bit signed integer to varint (1-5 bytes).
   * Writes out groups of 7 bits at a time, setting high bit if more to come.
   *
   * @param {number} value
   */
  appendVarInt(value) {
    while (true) {
      if ((value & ~0x7f) === 0) {
        // fits in 7 bits
        this.appendUint8(value)
        return
      } else {
        // write 7 bits and set high bit
        this.appendUint8(value & 0x7f | 0x80)
        value >>>= 7
      }
    }
  }

  /**
   * Convert a bigint to varint (1-10 bytes for 64-bit range).
   *
   * @param {bigint} value
   */
  appendVarBigInt(value) {
    while (true) {
      if ((value & ~0x7fn) === 0n) {
        // fits in 7 bits
        this.appendUint8(Number(value))
        return
      } else {
        // write 7 bits and set high bit
        this.appendUint8(Number(value & 0x7fn | 0x80n))
        value >>= 7n
      }
    }
  }

  /**
   * Convert number to zigzag encoding and write as varint.
   *
   * @param {number | bigint} value
   */
  appendZigZag(value) {
    if (typeof value === 'number') {
      this.appendVarInt(value << 1 ^ value >> 31)
    } else {
      this.appendVarBigInt(value << 1n ^ value >> 63n)
    }
  }
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet@1.31.5/node_modules/hyparquet/src/xxhash.js
// XxHash64 (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md)
// Used by parquet bloom filters: hashes the PLAIN encoding of column values with seed 0.

const MASK = 0xffffffffffffffffn
const PRIME1 = 0x9e3779b185ebca87n
const PRIME2 = 0xc2b2ae3d27d4eb4fn
const PRIME3 = 0x165667b19e3779f9n
const PRIME4 = 0x85ebca77c2b2ae63n
const PRIME5 = 0x27d4eb2f165667c5n

/**
 * @param {bigint} x
 * @param {bigint} r rotation amount in bits (1..63)
 * @returns {bigint}
 */
function rotl64(x, r) {
  return (x << r | x >> 64n - r) & MASK
}

/**
 * @param {bigint} acc
 * @param {bigint} val
 * @returns {bigint}
 */
function round(acc, val) {
  acc = acc + val * PRIME2 & MASK
  acc = rotl64(acc, 31n)
  return acc * PRIME1 & MASK
}

/**
 * @param {bigint} acc
 * @param {bigint} val
 * @returns {bigint}
 */
function mergeRound(acc, val) {
  acc ^= round(0n, val)
  return acc * PRIME1 + PRIME4 & MASK
}

/**
 * Compute the 64-bit xxHash of a byte buffer.
 *
 * @param {Uint8Array} input
 * @param {bigint} [seed]
 * @returns {bigint} 64-bit hash
 */
function xxhash64(input, seed = 0n) {
  const view = new DataView(input.buffer, input.byteOffset, input.byteLength)
  const len = input.byteLength
  let offset = 0
  let h64

  if (len >= 32) {
    let v1 = seed + PRIME1 + PRIME2 & MASK
    let v2 = seed + PRIME2 & MASK
    let v3 = seed
    let v4 = seed - PRIME1 & MASK

    while (offset + 32 <= len) {
      v1 = round(v1, view.getBigUint64(offset, true)); offset += 8
      v2 = round(v2, view.getBigUint64(offset, true)); offset += 8
      v3 = round(v3, view.getBigUint64(offset, true)); offset += 8
      v4 = round(v4, view.getBigUint64(offset, true)); offset += 8
    }

    h64 = rotl64(v1, 1n) + rotl64(v2, 7n) + rotl64(v3, 12n) + rotl64(v4, 18n) & MASK
    h64 = mergeRound(h64, v1)
    h64 = mergeRound(h64, v2)
    h64 = mergeRound(h64, v3)
    h64 = mergeRound(h64, v4)
  } else {
    h64 = seed + PRIME5 & MASK
  }

  h64 = h64 + BigInt(len) & MASK

  while (offset + 8 <= len) {
    h64 ^= round(0n, view.getBigUint64(offset, true))
    h64 = rotl64(h64, 27n) * PRIME1 + PRIME4 & MASK
    offset += 8
  }

  if (offset + 4 <= len) {
    h64 ^= BigInt(view.getUint32(offset, true)) * PRIME1 & MASK
    h64 = rotl64(h64, 23n) * PRIME2 + PRIME3 & MASK
    offset += 4
  }

  while (offset < len) {
    h64 ^= BigInt(view.getUint8(offset)) * PRIME5 & MASK
    h64 = rotl64(h64, 11n) * PRIME1 & MASK
    offset += 1
  }

  h64 ^= h64 >> 33n
  h64 = h64 * PRIME2 & MASK
  h64 ^= h64 >> 29n
  h64 = h64 * PRIME3 & MASK
  h64 ^= h64 >> 32n
  return h64
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet@1.31.5/node_modules/hyparquet/src/bloom.js
// Split Block Bloom Filter (https://github.com/apache/parquet-format/blob/master/BloomFilter.md)
// A bloom filter is a sequence of 32-byte blocks. Each block holds 8 little-endian uint32 words.
// Insertion sets one bit per word, chosen by salting the low 32 bits of an xxhash64.
// Membership requires all 8 bits to be set; misses are exact, hits are probabilistic.




/**
 * @import {BloomFilter, DataReader, ParquetQueryFilter, SchemaElement} from '../src/types.js'
 */

const textEncoder = new TextEncoder()

const SALT = new Uint32Array([
  0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
  0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31,
])

/**
 * Map the high 32 bits of a hash to a block index in [0, numBlocks).
 *
 * @param {bigint} hash
 * @param {number} numBlocks
 * @returns {number}
 */
function blockIndex(hash, numBlocks) {
  return Number((hash >> 32n) * BigInt(numBlocks) >> 32n)
}

/**
 * Per-block mask: 8 uint32 words, each with a single bit set at position `(low32 * SALT[i]) >> 27`.
 *
 * @param {bigint} hash
 * @returns {Uint32Array}
 */
function blockMask(hash) {
  const m = new Uint32Array(8)
  const low = Number(hash & 0xffffffffn) | 0
  for (let i = 0; i < 8; i++) {
    m[i] = 1 << (Math.imul(low, SALT[i]) >>> 27)
  }
  return m
}

/**
 * Insert a hash into a Split Block Bloom Filter.
 *
 * @param {Uint32Array} blocks bloom filter words (8 * numBlocks long)
 * @param {bigint} hash 64-bit xxhash of the parquet-plain-encoded value
 */
function sbbfInsert(blocks, hash) {
  const offset = blockIndex(hash, blocks.length >> 3) << 3
  const m = blockMask(hash)
  for (let i = 0; i < 8; i++) {
    blocks[offset + i] |= m[i]
  }
}

/**
 * Test whether a hash might be present in a Split Block Bloom Filter.
 * False positives are possible; false negatives are not.
 *
 * @param {Uint32Array} blocks bloom filter words (8 * numBlocks long)
 * @param {bigint} hash 64-bit xxhash of the parquet-plain-encoded value
 * @returns {boolean}
 */
function sbbfContains(blocks, hash) {
  const offset = blockIndex(hash, blocks.length >> 3) << 3
  const m = blockMask(hash)
  for (let i = 0; i < 8; i++) {
    if ((blocks[offset + i] & m[i]) === 0) return false
  }
  return true
}

/**
 * Parse a Split Block Bloom Filter from a reader positioned at the BloomFilterHeader.
 * Returns undefined when the header advertises an unsupported algorithm, hash, or
 * compression — callers should treat that as "cannot use this bloom filter."
 *
 * @param {DataReader} reader
 * @returns {BloomFilter | undefined}
 */
function readBloomFilter(reader) {
  const header = deserializeTCompactProtocol(reader)
  const numBytes = header.field_1
  if (typeof numBytes !== 'number' || numBytes <= 0 || numBytes % 32 !== 0) return undefined
  // BloomFilterAlgorithm / Hash / Compression are unions with a single supported variant each.
  if (!header.field_2?.field_1) return undefined // algorithm must be BLOCK
  if (!header.field_3?.field_1) return undefined // hash must be XXHASH
  if (!header.field_4?.field_1) return undefined // compression must be UNCOMPRESSED

  const { view, offset } = reader
  if (offset + numBytes > view.byteLength) {
    throw new Error(`parquet bloom filter truncated: need ${numBytes} bytes, have ${view.byteLength - offset}`)
  }
  // Reader offset is not 4-aligned in general, and we want endian-portable reads.
  const blocks = new Uint32Array(numBytes >> 2)
  for (let i = 0; i < blocks.length; i++) {
    blocks[i] = view.getUint32(offset + i * 4, true)
  }
  reader.offset = offset + numBytes
  return { numBytes, blocks }
}

/**
 * Hash a JS filter value as its parquet PLAIN-encoded bytes, suitable for a
 * bloom filter lookup. Returns undefined when the column's parser is lossy or
 * ambiguous (DATE, TIMESTAMP_*, DECIMAL, JSON, BSON, INT96, FLOAT16, UUID,
 * GEOMETRY, GEOGRAPHY, INTERVAL) or when the JS value type doesn't match the
 * column. Callers must treat undefined as "bloom filter cannot help."
 *
 * @param {any} value
 * @param {SchemaElement} element
 * @returns {bigint | undefined}
 */
function hashParquetValue(value, element) {
  if (value === null || value === undefined) return undefined
  const { type, converted_type, logical_type } = element

  if (type === 'BOOLEAN') {
    if (typeof value !== 'boolean') return undefined
    return xxhash64(new Uint8Array([value ? 1 : 0]))
  }

  if (type === 'FLOAT') {
    if (typeof value !== 'number') return undefined
    const buf = new ArrayBuffer(4)
    new DataView(buf).setFloat32(0, value, true)
    return xxhash64(new Uint8Array(buf))
  }

  if (type === 'DOUBLE') {
    if (typeof value !== 'number') return undefined
    const buf = new ArrayBuffer(8)
    new DataView(buf).setFloat64(0, value, true)
    return xxhash64(new Uint8Array(buf))
  }

  if (type === 'INT32') {
    if (converted_type === 'DATE' || converted_type === 'DECIMAL' || converted_type === 'TIME_MILLIS') return undefined
    if (logical_type?.type === 'DATE' || logical_type?.type === 'TIME' || logical_type?.type === 'DECIMAL') return undefined
    if (typeof value !== 'number' || !Number.isInteger(value)) return undefined
    const buf = new ArrayBuffer(4)
    new DataView(buf).setInt32(0, value | 0, true)
    return xxhash64(new Uint8Array(buf))
  }

  if (type === 'INT64') {
    if (converted_type === 'TIMESTAMP_MILLIS' || converted_type === 'TIMESTAMP_MICROS') return undefined
    if (converted_type === 'TIME_MICROS' || converted_type === 'DECIMAL') return undefined
    if (logical_type?.type === 'TIMESTAMP' || logical_type?.type === 'TIME' || logical_type?.type === 'DECIMAL') return undefined
    let bigValue
    if (typeof value === 'bigint') bigValue = value
    else if (typeof value === 'number' && Number.isSafeInteger(value)) bigValue = BigInt(value)
    else return undefined
    const buf = new ArrayBuffer(8)
    new DataView(buf).setBigUint64(0, BigInt.asUintN(64, bigValue), true)
    return xxhash64(new Uint8Array(buf))
  }

  if (type === 'BYTE_ARRAY') {
    if (converted_type === 'JSON' || converted_type === 'BSON' || converted_type === 'DECIMAL') return undefined
    if (logical_type?.type === 'JSON' || logical_type?.type === 'BSON' || logical_type?.type === 'VARIANT') return undefined
    if (logical_type?.type === 'GEOMETRY' || logical_type?.type === 'GEOGRAPHY') return undefined
    if (typeof value === 'string') return xxhash64(textEncoder.encode(value))
    if (value instanceof Uint8Array) return xxhash64(value)
    return undefined
  }

  if (type === 'FIXED_LEN_BYTE_ARRAY') {
    if (converted_type === 'DECIMAL' || converted_type === 'INTERVAL') return undefined
    if (logical_type?.type === 'DECIMAL' || logical_type?.type === 'UUID' || logical_type?.type === 'FLOAT16') return undefined
    if (logical_type?.type === 'GEOMETRY' || logical_type?.type === 'GEOGRAPHY') return undefined
    if (value instanceof Uint8Array) return xxhash64(value)
    return undefined
  }

  // INT96 deprecated, or type missing on group columns
  return undefined
}

/**
 * Top-level column names that appear in $eq or $in predicates within a filter.
 * These are the only columns where a bloom filter can prove a value's absence
 * and let us skip a row group; any other operator can't be helped by a bloom.
 *
 * @param {ParquetQueryFilter | undefined} filter
 * @returns {Set<string>}
 */
function bloomEligibleColumns(filter) {
  /** @type {Set<string>} */
  const out = new Set()
  walkBloomEligible(filter, out)
  return out
}

/**
 * @param {ParquetQueryFilter | undefined} filter
 * @param {Set<string>} out
 */
function walkBloomEligible(filter, out) {
  if (!filter) return
  if ('$and' in filter && Array.isArray(filter.$and)) {
    for (const sub of filter.$and) walkBloomEligible(sub, out)
    return
  }
  if ('$or' in filter && Array.isArray(filter.$or)) {
    for (const sub of filter.$or) walkBloomEligible(sub, out)
    return
  }
  // $nor would need to prove presence, not absence — bloom can't help.
  if ('$nor' in filter) return
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$')) continue
    if (typeof condition === 'object' && condition !== null && !Array.isArray(condition)) {
      if ('$eq' in condition || '$in' in condition) out.add(field)
    } else {
      // primitive / null / array condition is an implicit $eq
      out.add(field)
    }
  }
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/thrift.js
/**
 * @import {ThriftField, ThriftType, Writer} from '../src/types.js'
 */

// TCompactProtocol types
const STOP = 0
const TRUE = 1
const FALSE = 2
const BYTE = 3
const I32 = 5
const I64 = 6
const DOUBLE = 7
const BINARY = 8
const LIST = 9
const STRUCT = 12

/** A Thrift struct whose field ids and Compact Protocol types are already resolved. */
class ThriftStruct {
  /**
   * @param {ThriftField[]} fields
   */
  constructor(fields) {
    this.fields = fields
  }
}

/**
 * Serialize a JS object in TCompactProtocol format.
 *
 * Expects keys named like "field_1", "field_2", etc. in ascending order.
 *
 * @param {Writer} writer
 * @param {{ [key: `field_${number}`]: any }} data
 */
function serializeTCompactProtocol(writer, data) {
  writeElement(writer, STRUCT, data)
}

/**
 * Write a single value of a given compact type.
 *
 * @param {Writer} writer
 * @param {number} type
 * @param {ThriftType} value
 */
function writeElement(writer, type, value) {
  // true/false is stored in the type
  if (type === TRUE) return
  if (type === FALSE) return
  if (type === BYTE && typeof value === 'number') {
    writer.appendUint8(value)
  } else if (type === I32 && typeof value === 'number') {
    writer.appendZigZag(value)
  } else if (type === I64 && typeof value === 'bigint') {
    writer.appendZigZag(value)
  } else if (type === DOUBLE && typeof value === 'number') {
    writer.appendFloat64(value)
  } else if (type === BINARY && typeof value === 'string') {
    // store length as a varint, then raw bytes
    const bytes = new TextEncoder().encode(value)
    writer.appendVarInt(bytes.length)
    writer.appendBytes(bytes)
  } else if (type === BINARY && value instanceof Uint8Array) {
    // store length as a varint, then raw bytes
    writer.appendVarInt(value.byteLength)
    writer.appendBytes(value)
  } else if (type === LIST && Array.isArray(value)) {
    // Guess the element type from the first element
    const elemType = getCompactTypeForList(value)

    // Header: size << 4 | elementType
    if (value.length > 14) {
      writer.appendUint8(15 << 4 | elemType)
      writer.appendVarInt(value.length)
    } else {
      writer.appendUint8(value.length << 4 | elemType)
    }

    if (elemType === FALSE) {
      // Special case for boolean list
      for (const v of value) {
        writer.appendUint8(v ? 1 : 0)
      }
    } else {
      for (const v of value) {
        writeElement(writer, elemType, v)
      }
    }
  } else if (type === STRUCT && value instanceof ThriftStruct) {
    // Field ids and types were explicitly provided by the metadata conversion.
    let lastFid = 0
    for (const [fid, fieldType, fieldValue] of value.fields) {
      if (fieldValue === undefined) continue
      lastFid = writeStructField(writer, lastFid, fid, fieldType, fieldValue)
    }
    writer.appendUint8(STOP)
  } else if (type === STRUCT && typeof value === 'object') {
    // write struct fields
    let lastFid = 0
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue

      const fid = parseInt(k.replace(/^field_/, ''), 10)
      if (Number.isNaN(fid)) {
        throw new Error(`thrift invalid field name: ${k}. Expected "field_###"`)
      }
      const t = getCompactTypeForValue(v)
      lastFid = writeStructField(writer, lastFid, fid, t, v)
    }
    // end struct
    writer.appendUint8(STOP)
  } else {
    throw new Error(`thrift invalid type ${type} for value ${value}`)
  }
}

/**
 * @param {Writer} writer
 * @param {number} lastFid
 * @param {number} fid
 * @param {number} type
 * @param {ThriftType} value
 * @returns {number}
 */
function writeStructField(writer, lastFid, fid, type, value) {
  const delta = fid - lastFid
  if (delta <= 0) {
    throw new Error(`thrift non-monotonic field id: fid=${fid}, lastFid=${lastFid}`)
  }
  if (delta > 15) {
    writer.appendUint8(type)
    writer.appendZigZag(fid)
  } else {
    writer.appendUint8(delta << 4 | type)
  }
  writeElement(writer, type, value)
  return fid
}

/**
 * Infer type from JS value
 *
 * @param {any} value
 * @returns {number} CompactType
 */
function getCompactTypeForValue(value) {
  if (value === true) return TRUE
  if (value === false) return FALSE
  if (Number.isInteger(value)) return I32
  if (typeof value === 'number') return DOUBLE
  if (typeof value === 'bigint') return I64
  if (typeof value === 'string') return BINARY
  if (value instanceof Uint8Array) return BINARY
  if (Array.isArray(value)) return LIST
  if (value && typeof value === 'object') return STRUCT
  throw new Error(`Cannot determine thrift compact type for: ${value}`)
}

/**
 * Infer type for list elements, expand types as needed
 *
 * @param {any[]} value
 * @returns {number} CompactType
 */
function getCompactTypeForList(value) {
  let elemType = 0
  for (const v of value) {
    let t = getCompactTypeForValue(v)
    if (t === TRUE) t = FALSE // booleans map to FALSE
    if (!elemType) elemType = t // first element
    if (elemType === DOUBLE && t === I32) t = DOUBLE // expand int to float
    if (elemType === I32 && t === DOUBLE) elemType = DOUBLE // expand int to float
    if (t !== elemType) {
      throw new Error(`thrift invalid type for list element: ${v} (expected type ${elemType})`)
    }
  }
  return elemType ?? BYTE // BYTE for empty list
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/bloom.js
// Split Block Bloom Filter (https://github.com/apache/parquet-format/blob/master/BloomFilter.md)
// A bloom filter is a sequence of 32-byte blocks. Each block holds 8 little-endian uint32 words.
// Insertion sets one bit per word, chosen by salting the low 32 bits of an xxhash64.
// Membership requires all 8 bits to be set; misses are exact, hits are probabilistic.




/**
 * @import {SchemaElement} from 'hyparquet'
 * @import {PageIndexes, Writer} from '../src/types.js'
 */

const bloom_SALT = new Uint32Array([
  0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
  0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31,
])

const MIN_BYTES = 32 // one block
const MAX_BYTES = 128 * 1024 * 1024 // parquet-mr default cap

/**
 * Map the high 32 bits of a hash to a block index in [0, numBlocks).
 *
 * @param {bigint} hash
 * @param {number} numBlocks
 * @returns {number}
 */
function bloom_blockIndex(hash, numBlocks) {
  return Number((hash >> 32n) * BigInt(numBlocks) >> 32n)
}

/**
 * Per-block mask: 8 uint32 words, each with a single bit set at position `(low32 * SALT[i]) >> 27`.
 *
 * @param {bigint} hash
 * @returns {Uint32Array}
 */
function bloom_blockMask(hash) {
  const m = new Uint32Array(8)
  const low = Number(hash & 0xffffffffn) | 0
  for (let i = 0; i < 8; i++) {
    m[i] = 1 << (Math.imul(low, bloom_SALT[i]) >>> 27)
  }
  return m
}

/**
 * Insert a hash into a Split Block Bloom Filter.
 *
 * @param {Uint32Array} blocks bloom filter words (8 * numBlocks long)
 * @param {bigint} hash 64-bit xxhash of the parquet-plain-encoded value
 */
function bloom_sbbfInsert(blocks, hash) {
  const offset = bloom_blockIndex(hash, blocks.length >> 3) << 3
  const m = bloom_blockMask(hash)
  for (let i = 0; i < 8; i++) {
    blocks[offset + i] |= m[i]
  }
}

/**
 * Test whether a hash might be present in a Split Block Bloom Filter.
 * False positives are possible; false negatives are not.
 *
 * @param {Uint32Array} blocks bloom filter words (8 * numBlocks long)
 * @param {bigint} hash 64-bit xxhash of the parquet-plain-encoded value
 * @returns {boolean}
 */
function bloom_sbbfContains(blocks, hash) {
  const offset = bloom_blockIndex(hash, blocks.length >> 3) << 3
  const m = bloom_blockMask(hash)
  for (let i = 0; i < 8; i++) {
    if ((blocks[offset + i] & m[i]) === 0) return false
  }
  return true
}

/**
 * Round up to the next power of two (32-bit).
 *
 * @param {number} n
 * @returns {number}
 */
function nextPowerOfTwo(n) {
  let p = 1
  while (p < n) p <<= 1
  return p
}

/**
 * Optimal SBBF size in bytes for a given number of distinct values and
 * target false-positive probability. Matches parquet-java's BlockSplitBloomFilter:
 * derives bits from m = -8 * ndv / ln(1 - p^(1/8)) and rounds up to a power of two
 * between one block and MAX_BYTES. Arrow C++ rejects a bitset that is not a power of two.
 *
 * @param {number} ndv expected number of distinct values
 * @param {number} fpp target false positive probability, in (0, 1)
 * @returns {number} bloom filter size in bytes (power of two, at least 32)
 */
function optimalNumBytes(ndv, fpp) {
  if (!(fpp > 0 && fpp < 1)) throw new Error(`bloom filter fpp must be in (0, 1), got ${fpp}`)
  if (!(ndv >= 0)) throw new Error(`bloom filter ndv must be >= 0, got ${ndv}`)
  const m = -8 * ndv / Math.log(1 - fpp ** (1 / 8))
  const numBytes = Math.ceil(m / 8)
  if (!(numBytes <= MAX_BYTES)) return MAX_BYTES
  return nextPowerOfTwo(Math.max(numBytes, MIN_BYTES))
}

/**
 * Allocate a zeroed Split Block Bloom Filter sized for the given NDV and FPP.
 *
 * @param {number} ndv expected number of distinct values
 * @param {number} [fpp] target false positive probability, default 0.01
 * @returns {Uint32Array} blocks (numBytes / 4 uint32 words)
 */
function createBloomFilter(ndv, fpp = 0.01) {
  const numBytes = optimalNumBytes(ndv, fpp)
  return new Uint32Array(numBytes >> 2)
}

/**
 * Collects distinct hashes of column values and finalizes them into an SBBF
 * sized for the actual distinct count. `finalize` returns `undefined` if any
 * non-null value was unhashable (the filter would have false negatives), if
 * no values were seen, or if `maxBytes` is below one block. Above `maxBytes`
 * the filter is capped at the largest power of two that fits, like parquet-java.
 */
class BloomBuilder {
  /**
   * @param {SchemaElement} element
   * @param {{ fpp?: number, maxBytes?: number }} [options]
   */
  constructor(element, { fpp = 0.01, maxBytes = 1024 * 1024 } = {}) {
    /** @type {SchemaElement} */
    this.element = element
    this.fpp = fpp
    this.maxBytes = maxBytes
    /** @type {Set<bigint>} */
    this.hashes = new Set()
    this.skipped = 0
  }

  /** @param {any} value */
  insert(value) {
    if (value === null || value === undefined) return
    const h = hashParquetValue(value, this.element)
    if (h === undefined) {
      this.skipped++
      return
    }
    this.hashes.add(h)
  }

  /** @returns {Uint32Array | undefined} */
  finalize() {
    if (this.skipped > 0 || this.hashes.size === 0) return undefined
    let numBytes = optimalNumBytes(this.hashes.size, this.fpp)
    while (numBytes > this.maxBytes && numBytes > MIN_BYTES) numBytes >>= 1
    if (numBytes > this.maxBytes) return undefined
    const blocks = new Uint32Array(numBytes >> 2)
    for (const h of this.hashes) bloom_sbbfInsert(blocks, h)
    return blocks
  }
}

/**
 * Write a parquet bloom filter: BloomFilterHeader thrift struct followed by
 * the raw little-endian bytes of the SBBF blocks. Always uses BLOCK / XXHASH /
 * UNCOMPRESSED, the only variants parquet currently defines.
 *
 * @param {Writer} writer
 * @param {Uint32Array} blocks bloom filter words (8 * numBlocks long)
 */
function writeBloomFilter(writer, blocks) {
  if (blocks.length % 8 !== 0) {
    throw new Error(`bloom filter block count must be a multiple of 8 uint32 words, got ${blocks.length}`)
  }
  serializeTCompactProtocol(writer, {
    field_1: blocks.byteLength, // numBytes
    field_2: { field_1: {} }, // algorithm: SplitBlockAlgorithm
    field_3: { field_1: {} }, // hash: XxHash
    field_4: { field_1: {} }, // compression: Uncompressed
  })
  for (let i = 0; i < blocks.length; i++) {
    writer.appendUint32(blocks[i])
  }
}

/**
 * Write all pending bloom filters in a contiguous block and patch each chunk's
 * meta_data.bloom_filter_offset / bloom_filter_length so readers can find them.
 * Clustering matches parquet-mr's tail placement: a reader fetching the footer
 * region can pull every bloom in one range request.
 *
 * @param {Writer} writer
 * @param {PageIndexes[]} pageIndexes
 */
function writeBlooms(writer, pageIndexes) {
  for (const { chunk, bloomFilter } of pageIndexes) {
    if (!bloomFilter || !chunk.meta_data) continue
    const offset = writer.offset
    writeBloomFilter(writer, bloomFilter)
    chunk.meta_data.bloom_filter_offset = BigInt(offset)
    chunk.meta_data.bloom_filter_length = writer.offset - offset
  }
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet@1.31.5/node_modules/hyparquet/src/constants.js

/** @type {import('../src/types.d.ts').ParquetType[]} */
const constants_ParquetTypes = [
  'BOOLEAN',
  'INT32',
  'INT64',
  'INT96', // deprecated
  'FLOAT',
  'DOUBLE',
  'BYTE_ARRAY',
  'FIXED_LEN_BYTE_ARRAY',
]

/** @type {import('../src/types.d.ts').Encoding[]} */
const constants_Encodings = [
  'PLAIN',
  'GROUP_VAR_INT', // deprecated
  'PLAIN_DICTIONARY',
  'RLE',
  'BIT_PACKED', // deprecated
  'DELTA_BINARY_PACKED',
  'DELTA_LENGTH_BYTE_ARRAY',
  'DELTA_BYTE_ARRAY',
  'RLE_DICTIONARY',
  'BYTE_STREAM_SPLIT',
]

/** @type {import('../src/types.d.ts').FieldRepetitionType[]} */
const constants_FieldRepetitionTypes = [
  'REQUIRED',
  'OPTIONAL',
  'REPEATED',
]

/** @type {import('../src/types.d.ts').ConvertedType[]} */
const constants_ConvertedTypes = [
  'UTF8',
  'MAP',
  'MAP_KEY_VALUE',
  'LIST',
  'ENUM',
  'DECIMAL',
  'DATE',
  'TIME_MILLIS',
  'TIME_MICROS',
  'TIMESTAMP_MILLIS',
  'TIMESTAMP_MICROS',
  'UINT_8',
  'UINT_16',
  'UINT_32',
  'UINT_64',
  'INT_8',
  'INT_16',
  'INT_32',
  'INT_64',
  'JSON',
  'BSON',
  'INTERVAL',
]

/** @type {import('../src/types.d.ts').CompressionCodec[]} */
const constants_CompressionCodecs = [
  'UNCOMPRESSED',
  'SNAPPY',
  'GZIP',
  'LZO',
  'BROTLI',
  'LZ4',
  'ZSTD',
  'LZ4_RAW',
]

/** @type {import('../src/types.d.ts').PageType[]} */
const constants_PageTypes = [
  'DATA_PAGE',
  'INDEX_PAGE',
  'DICTIONARY_PAGE',
  'DATA_PAGE_V2',
]

/** @type {import('../src/types.d.ts').BoundaryOrder[]} */
const BoundaryOrders = [
  'UNORDERED',
  'ASCENDING',
  'DESCENDING',
]

/** @type {import('../src/types.d.ts').EdgeInterpolationAlgorithm[]} */
const constants_EdgeInterpolationAlgorithms = [
  'SPHERICAL',
  'VINCENTY',
  'THOMAS',
  'ANDOYER',
  'KARNEY',
]

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/delta.js
/**
 * Delta Binary Packed encoding for parquet.
 * Encodes integers as deltas with variable bit-width packing.
 *
 * @import {DecodedArray} from 'hyparquet'
 * @import {Writer} from '../src/types.js'
 */

const BLOCK_SIZE = 128
const MINIBLOCKS_PER_BLOCK = 4
const VALUES_PER_MINIBLOCK = BLOCK_SIZE / MINIBLOCKS_PER_BLOCK // 32

/**
 * Write values using delta binary packed encoding.
 * Deltas wrap around in two's complement at the width of the physical type.
 *
 * @param {Writer} writer
 * @param {DecodedArray} values
 * @param {'INT32' | 'INT64'} type
 */
function deltaBinaryPack(writer, values, type) {
  if (values.length === 0) {
    // Write header with zero count
    writer.appendVarInt(BLOCK_SIZE)
    writer.appendVarInt(MINIBLOCKS_PER_BLOCK)
    writer.appendVarInt(0)
    writer.appendVarInt(0)
    return
  }
  if (typeof values[0] !== 'number' && typeof values[0] !== 'bigint') {
    throw new Error('deltaBinaryPack only supports number or bigint arrays')
  }

  if (usesInt32NumberPath(values)) {
    deltaBinaryPackInt32(writer, values, type === 'INT32')
  } else {
    deltaBinaryPackBigInt(writer, values, type === 'INT32' ? 32 : 64)
  }
}

/**
 * Return whether all values can use exact Number arithmetic. Unwrapped deltas
 * of int32 values can span 33 signed bits, but they and their adjusted deltas
 * remain exactly representable as JavaScript numbers.
 *
 * @param {DecodedArray} values
 * @returns {values is DecodedArray & ArrayLike<number>}
 */
function usesInt32NumberPath(values) {
  if (values instanceof Int32Array) return true
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    if (typeof value !== 'number' || value !== (value | 0)) return false
  }
  return true
}

/**
 * Write signed 32-bit values without allocating or operating on BigInts.
 *
 * @param {Writer} writer
 * @param {ArrayLike<number>} values
 * @param {boolean} wrap - wrap deltas to int32, for the INT32 physical type
 */
function deltaBinaryPackInt32(writer, values, wrap) {
  const count = values.length

  // Write header
  writer.appendVarInt(BLOCK_SIZE)
  writer.appendVarInt(MINIBLOCKS_PER_BLOCK)
  writer.appendVarInt(count)
  appendZigZagNumber(writer, values[0])

  // Process blocks
  /** @type {Array<Uint8Array | undefined>} */
  const packedByBitWidth = []
  const blockDeltas = new Float64Array(BLOCK_SIZE)
  const bitWidths = new Uint8Array(MINIBLOCKS_PER_BLOCK)
  let index = 1
  while (index < count) {
    const blockEnd = Math.min(index + BLOCK_SIZE, count)
    const blockSize = blockEnd - index

    // Constant-delta blocks have no packed payload or miniblock widths to scan.
    const firstDelta = wrap ? values[index] - values[index - 1] | 0 : values[index] - values[index - 1]
    let previous = values[index]
    let constantEnd = index + 1
    while (constantEnd < blockEnd) {
      const value = values[constantEnd]
      if ((wrap ? value - previous | 0 : value - previous) !== firstDelta) break
      previous = value
      constantEnd++
    }
    if (constantEnd === blockEnd) {
      appendZigZagNumber(writer, firstDelta)
      writer.appendUint32(0) // four zero-width miniblocks
      index = blockEnd
      continue
    }

    // Compute deltas for this block
    // Unwrapped, adjacent INT32 extremes differ by 4,294,967,295, so Int32Array
    // is not sufficient even though every input value is a signed 32-bit integer.
    let minDelta = firstDelta
    blockDeltas[0] = minDelta
    for (let i = 1; i < blockSize; i++) {
      const delta = wrap ? values[index + i] - values[index + i - 1] | 0 : values[index + i] - values[index + i - 1]
      blockDeltas[i] = delta
      if (delta < minDelta) minDelta = delta
    }
    appendZigZagNumber(writer, minDelta)

    // Calculate bit widths for each miniblock
    for (let mb = 0; mb < MINIBLOCKS_PER_BLOCK; mb++) {
      const mbStart = mb * VALUES_PER_MINIBLOCK
      const mbEnd = Math.min(mbStart + VALUES_PER_MINIBLOCK, blockSize)

      let maxAdjusted = 0
      for (let i = mbStart; i < mbEnd; i++) {
        const adjusted = blockDeltas[i] - minDelta
        if (adjusted > maxAdjusted) maxAdjusted = adjusted
      }
      bitWidths[mb] = bitWidthNumber(maxAdjusted)
    }

    // Write bit widths
    writer.appendBytes(bitWidths)

    // Write packed miniblocks
    for (let mb = 0; mb < MINIBLOCKS_PER_BLOCK; mb++) {
      const bitWidth = bitWidths[mb]
      if (bitWidth === 0) continue // No data needed for zero bit width

      const mbStart = mb * VALUES_PER_MINIBLOCK
      const mbEnd = Math.min(mbStart + VALUES_PER_MINIBLOCK, blockSize)

      // Bit pack into a reusable miniblock buffer, then append it in one call.
      // There are always 32 values including padding, so the byte length is
      // exactly bitWidth * 4.
      const packed = packedByBitWidth[bitWidth] ??= new Uint8Array(bitWidth * 4)
      let byteIndex = 0
      let buffer = 0
      let bitsUsed = 0
      if (bitWidth <= 25) {
        // Up to 25 data bits plus at most 7 pending bits fit in the 32-bit
        // bitwise operations, which are faster than arithmetic packing.
        for (let i = 0; i < VALUES_PER_MINIBLOCK; i++) {
          const adjusted = mbStart + i < mbEnd ? blockDeltas[mbStart + i] - minDelta : 0
          buffer |= adjusted << bitsUsed
          bitsUsed += bitWidth
          while (bitsUsed >= 8) {
            packed[byteIndex++] = buffer & 0xff
            buffer >>>= 8
            bitsUsed -= 8
          }
        }
      } else {
        for (let i = 0; i < VALUES_PER_MINIBLOCK; i++) {
          const adjusted = mbStart + i < mbEnd ? blockDeltas[mbStart + i] - minDelta : 0
          // bitsUsed is below 8 at the start of each iteration. The largest
          // adjusted INT32 delta is below 2^33, so this stays below 2^40 and is
          // exactly representable by Number.
          buffer += adjusted * 2 ** bitsUsed
          bitsUsed += bitWidth
          while (bitsUsed >= 8) {
            packed[byteIndex++] = buffer % 0x100
            buffer = Math.floor(buffer / 0x100)
            bitsUsed -= 8
          }
        }
      }
      writer.appendBytes(packed)
      // assert(bitsUsed === 0) // because multiple of 8
    }

    index = blockEnd
  }
}

/**
 * BigInt fallback for INT64 values and numeric input outside the INT32 range.
 *
 * @param {Writer} writer
 * @param {DecodedArray} values
 * @param {number} bits - physical type width that deltas wrap at
 */
function deltaBinaryPackBigInt(writer, values, bits) {
  const count = values.length

  // Write header
  writer.appendVarInt(BLOCK_SIZE)
  writer.appendVarInt(MINIBLOCKS_PER_BLOCK)
  writer.appendVarInt(count)
  writer.appendZigZag(BigInt.asIntN(bits, BigInt(values[0])))

  // Process blocks
  const blockDeltas = new BigInt64Array(BLOCK_SIZE)
  const bitWidths = new Uint8Array(MINIBLOCKS_PER_BLOCK)
  let index = 1
  while (index < count) {
    const blockEnd = Math.min(index + BLOCK_SIZE, count)
    const blockSize = blockEnd - index

    // Compute deltas for this block
    // BigInt64Array wraps stored deltas to int64, so read them back
    let minDelta = 0n
    for (let i = 0; i < blockSize; i++) {
      blockDeltas[i] = BigInt(values[index + i]) - BigInt(values[index + i - 1])
      if (bits === 32) blockDeltas[i] = BigInt.asIntN(32, blockDeltas[i])
      const delta = blockDeltas[i]
      if (i === 0 || delta < minDelta) minDelta = delta
    }
    writer.appendZigZag(minDelta)

    // Calculate bit widths for each miniblock
    for (let mb = 0; mb < MINIBLOCKS_PER_BLOCK; mb++) {
      const mbStart = mb * VALUES_PER_MINIBLOCK
      const mbEnd = Math.min(mbStart + VALUES_PER_MINIBLOCK, blockSize)

      let maxAdjusted = 0n
      for (let i = mbStart; i < mbEnd; i++) {
        const adjusted = blockDeltas[i] - minDelta
        if (adjusted > maxAdjusted) maxAdjusted = adjusted
      }
      bitWidths[mb] = bitWidth(maxAdjusted)
    }

    // Write bit widths
    writer.appendBytes(bitWidths)

    // Write packed miniblocks
    for (let mb = 0; mb < MINIBLOCKS_PER_BLOCK; mb++) {
      const bitWidth = bitWidths[mb]
      if (bitWidth === 0) continue // No data needed for zero bit width

      const mbStart = mb * VALUES_PER_MINIBLOCK
      const mbEnd = Math.min(mbStart + VALUES_PER_MINIBLOCK, blockSize)

      // Bit pack the adjusted deltas
      let buffer = 0n
      let bitsUsed = 0

      for (let i = 0; i < VALUES_PER_MINIBLOCK; i++) {
        const adjusted = mbStart + i < mbEnd ? blockDeltas[mbStart + i] - minDelta : 0n
        buffer |= adjusted << BigInt(bitsUsed)
        bitsUsed += bitWidth

        // Flush complete bytes
        while (bitsUsed >= 8) {
          writer.appendUint8(Number(buffer & 0xffn))
          buffer >>= 8n
          bitsUsed -= 8
        }
      }
      // assert(bitsUsed === 0) // because multiple of 8
    }

    index = blockEnd
  }
}

/**
 * Zigzag-encode an exactly represented integer and write it as a varint without
 * truncating through JavaScript's 32-bit bitwise operators.
 *
 * @param {Writer} writer
 * @param {number} value
 */
function appendZigZagNumber(writer, value) {
  let encoded = value < 0 ? -value * 2 - 1 : value * 2
  while (encoded >= 0x80) {
    writer.appendUint8(encoded % 0x80 + 0x80)
    encoded = Math.floor(encoded / 0x80)
  }
  writer.appendUint8(encoded)
}

/**
 * Minimum bits needed to store an adjusted INT32 delta.
 *
 * @param {number} value
 * @returns {number}
 */
function bitWidthNumber(value) {
  if (value === 0) return 0
  return value > 0xffffffff ? 33 : 32 - Math.clz32(value)
}

/**
 * Write byte arrays using delta length encoding.
 * Encodes lengths using delta binary packed, then writes raw bytes.
 *
 * @param {Writer} writer
 * @param {DecodedArray} values
 */
function deltaLengthByteArray(writer, values) {
  // Extract lengths
  const lengths = new Int32Array(values.length)
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    if (!(value instanceof Uint8Array)) {
      throw new Error('deltaLengthByteArray expects Uint8Array values')
    }
    lengths[i] = value.length
  }

  // Write delta-packed lengths
  deltaBinaryPack(writer, lengths, 'INT32')

  // Write raw byte data
  for (const value of values) {
    writer.appendBytes(value)
  }
}

/**
 * Write byte arrays using delta encoding with prefix compression.
 * Stores common prefixes with previous value to improve compression.
 *
 * @param {Writer} writer
 * @param {DecodedArray} values
 */
function deltaByteArray(writer, values) {
  if (values.length === 0) {
    deltaBinaryPack(writer, [], 'INT32')
    deltaBinaryPack(writer, [], 'INT32')
    return
  }

  // Calculate prefix and suffix lengths. Write suffix bytes in a second pass
  // to avoid allocating one subarray view for every value.
  const prefixLengths = new Int32Array(values.length)
  const suffixLengths = new Int32Array(values.length)

  // First value has no prefix
  const value = values[0]
  if (!(value instanceof Uint8Array)) {
    throw new Error('deltaByteArray expects Uint8Array values')
  }
  prefixLengths[0] = 0
  suffixLengths[0] = value.length

  for (let i = 1; i < values.length; i++) {
    const prev = values[i - 1]
    const curr = values[i]

    // Find common prefix length
    let prefixLen
    if (curr === prev) {
      // Reused byte arrays are common in dictionary-like columns. Identity
      // proves the entire value is a prefix without scanning its bytes.
      prefixLen = curr.length
    } else {
      if (!(curr instanceof Uint8Array)) {
        throw new Error('deltaByteArray expects Uint8Array values')
      }
      prefixLen = 0
      const maxPrefix = Math.min(prev.length, curr.length)
      while (prefixLen < maxPrefix && prev[prefixLen] === curr[prefixLen]) {
        prefixLen++
      }
    }

    prefixLengths[i] = prefixLen
    suffixLengths[i] = curr.length - prefixLen
  }

  // Write delta-packed prefix lengths
  deltaBinaryPack(writer, prefixLengths, 'INT32')

  // Write delta-packed suffix lengths
  deltaBinaryPack(writer, suffixLengths, 'INT32')

  // Write suffix bytes
  for (let i = 0; i < values.length; i++) {
    if (suffixLengths[i] > 0) {
      writer.appendBytes(values[i].subarray(prefixLengths[i]))
    }
  }
}

/**
 * Minimum bits needed to store value.
 *
 * @param {bigint} value
 * @returns {number}
 */
function bitWidth(value) {
  if (value === 0n) return 0
  let bits = 0
  while (value > 0n) {
    bits++
    value >>= 1n
  }
  return bits
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/encoding.js
/**
 * @import {DecodedArray} from 'hyparquet'
 * @import {Writer} from '../src/types.js'
 */

/**
 * @param {Writer} writer
 * @param {DecodedArray} values
 * @param {number} bitWidth
 * @returns {number} bytes written
 */
function writeRleBitPackedHybrid(writer, values, bitWidth) {
  const offsetStart = writer.offset
  let pendingBitPackedGroups = 0
  let bitPackedStart = 0
  let i = 0

  while (i < values.length) {
    // Try to write RLE runs of 8+ values
    let rleCount = 1
    const firstVal = values[i]
    while (i + rleCount < values.length && values[i + rleCount] === firstVal) {
      rleCount++
    }
    if (rleCount >= 8) {
      // Flush pending bit-packed groups
      if (pendingBitPackedGroups) {
        writeBitPackedGroups(writer, values, bitPackedStart, pendingBitPackedGroups, bitWidth)
        pendingBitPackedGroups = 0
      }

      // Write RLE run
      writeRleRun(writer, firstVal, rleCount, bitWidth)
      i += rleCount
    } else {
      // Add to pending bit-packed groups
      if (pendingBitPackedGroups === 0) {
        bitPackedStart = i
      }
      pendingBitPackedGroups++
      i += 8
    }
  }

  // Flush remaining
  if (pendingBitPackedGroups) {
    writeBitPackedGroups(writer, values, bitPackedStart, pendingBitPackedGroups, bitWidth)
  }

  return writer.offset - offsetStart
}

/**
 * Write a single RLE run: a repeated value and its count.
 *
 * @param {Writer} writer
 * @param {number} value
 * @param {number} count
 * @param {number} bitWidth
 */
function writeRleRun(writer, value, count, bitWidth) {
  writer.appendVarInt(count << 1) // rle header
  const width = bitWidth + 7 >> 3
  for (let j = 0; j < width; j++) {
    writer.appendUint8(value >> (j << 3) & 0xff)
  }
}

/**
 * Write consecutive bit-packed groups of 8 values each.
 *
 * @param {Writer} writer
 * @param {DecodedArray} values
 * @param {number} start index of first value
 * @param {number} numGroups number of 8-value groups
 * @param {number} bitWidth
 */
function writeBitPackedGroups(writer, values, start, numGroups, bitWidth) {
  writer.appendVarInt(numGroups << 1 | 1) // bp header

  if (bitWidth === 0) return

  const mask = (1 << bitWidth) - 1
  let buffer = 0
  let bitsUsed = 0
  const totalValues = numGroups * 8

  for (let i = 0; i < totalValues; i++) {
    const idx = start + i
    const v = idx < values.length ? values[idx] & mask : 0
    buffer |= v << bitsUsed
    bitsUsed += bitWidth

    // Flush full bytes
    while (bitsUsed >= 8) {
      writer.appendUint8(buffer & 0xff)
      buffer >>>= 8
      bitsUsed -= 8
    }
  }

  // Flush any remaining bits
  if (bitsUsed > 0) {
    writer.appendUint8(buffer & 0xff)
  }
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/plain.js

/**
 * @import {DecodedArray, ParquetType} from 'hyparquet'
 * @import {Writer} from '../src/types.js'
 * @param {Writer} writer
 * @param {DecodedArray} values
 * @param {ParquetType} type
 * @param {number | undefined} fixedLength
 */
function writePlain(writer, values, type, fixedLength) {
  if (type === 'BOOLEAN') {
    writePlainBoolean(writer, values)
  } else if (type === 'INT32') {
    writePlainInt32(writer, values)
  } else if (type === 'INT64') {
    writePlainInt64(writer, values)
  } else if (type === 'FLOAT') {
    writePlainFloat(writer, values)
  } else if (type === 'DOUBLE') {
    writePlainDouble(writer, values)
  } else if (type === 'BYTE_ARRAY') {
    writePlainByteArray(writer, values)
  } else if (type === 'FIXED_LEN_BYTE_ARRAY') {
    if (!fixedLength) throw new Error('parquet FIXED_LEN_BYTE_ARRAY expected type_length')
    writePlainByteArrayFixed(writer, values, fixedLength)
  } else {
    throw new Error(`parquet unsupported type: ${type}`)
  }
}

/**
 * @param {Writer} writer
 * @param {DecodedArray} values
 */
function writePlainBoolean(writer, values) {
  let currentByte = 0

  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    if (typeof value !== 'boolean') throw new Error('parquet expected boolean value, got ' + value)
    const bitOffset = i % 8

    if (value) {
      currentByte |= 1 << bitOffset
    }

    // once we've packed 8 bits or are at a multiple of 8, we write out the byte
    if (bitOffset === 7) {
      writer.appendUint8(currentByte)
      currentByte = 0
    }
  }

  // if the array length is not a multiple of 8, write the leftover bits
  if (values.length % 8) {
    writer.appendUint8(currentByte)
  }
}

/**
 * @param {Writer} writer
 * @param {DecodedArray} values
 */
function writePlainInt32(writer, values) {
  for (const value of values) {
    if (!Number.isSafeInteger(value)) throw new Error('parquet expected integer value, got ' + value)
    if (value < -2147483648 || value > 2147483647) throw new Error('parquet expected int32 value, got ' + value)
    writer.appendInt32(value)
  }
}

/**
 * @param {Writer} writer
 * @param {DecodedArray} values
 */
function writePlainInt64(writer, values) {
  for (const value of values) {
    if (typeof value !== 'bigint') throw new Error('parquet expected bigint value, got ' + value)
    writer.appendInt64(value)
  }
}

/**
 * @param {Writer} writer
 * @param {DecodedArray} values
 */
function writePlainFloat(writer, values) {
  for (const value of values) {
    if (typeof value !== 'number') throw new Error('parquet expected number value, got ' + value)
    writer.appendFloat32(value)
  }
}

/**
 * @param {Writer} writer
 * @param {DecodedArray} values
 */
function writePlainDouble(writer, values) {
  for (const value of values) {
    if (typeof value !== 'number') throw new Error('parquet expected number value, got ' + value)
    writer.appendFloat64(value)
  }
}

/**
 * @param {Writer} writer
 * @param {DecodedArray} values
 */
function writePlainByteArray(writer, values) {
  for (const value of values) {
    let bytes = value
    if (typeof bytes === 'string') {
      // convert string to Uint8Array
      bytes = new TextEncoder().encode(value)
    }
    if (!(bytes instanceof Uint8Array)) {
      throw new Error('parquet expected Uint8Array value, got ' + typeof bytes)
    }
    writer.appendUint32(bytes.length)
    writer.appendBytes(bytes)
  }
}

/**
 * @param {Writer} writer
 * @param {DecodedArray} values
 * @param {number} fixedLength
 */
function writePlainByteArrayFixed(writer, values, fixedLength) {
  for (const value of values) {
    if (!(value instanceof Uint8Array)) throw new Error('parquet expected Uint8Array value, got ' + typeof value)
    if (value.length !== fixedLength) throw new Error(`parquet expected Uint8Array of length ${fixedLength}`)
    writer.appendBytes(value)
  }
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet@1.31.5/node_modules/hyparquet/src/schema.js
/**
 * Build a tree from the schema elements.
 *
 * @param {SchemaElement[]} schema
 * @param {number} rootIndex index of the root element
 * @param {string[]} path path to the element
 * @returns {SchemaTree} tree of schema elements
 */
function schemaTree(schema, rootIndex, path) {
  const element = schema[rootIndex]
  const children = []
  let count = 1

  // Read the specified number of children
  if (element.num_children) {
    while (children.length < element.num_children) {
      const childElement = schema[rootIndex + count]
      const child = schemaTree(schema, rootIndex + count, [...path, childElement.name])
      count += child.count
      children.push(child)
    }
  }

  return { count, element, children, path }
}

/**
 * Get schema elements from the root to the given element name.
 *
 * @param {SchemaElement[]} schema
 * @param {string[]} name path to the element
 * @returns {SchemaTree[]} list of schema elements
 */
function getSchemaPath(schema, name) {
  return getTreePath(schemaTree(schema, 0, []), name)
}

/**
 * Get schema tree nodes from the root of a prebuilt tree to the given element name.
 *
 * @param {SchemaTree} tree root of the schema tree
 * @param {string[]} name path to the element
 * @returns {SchemaTree[]} list of schema elements
 */
function getTreePath(tree, name) {
  const path = [tree]
  for (const part of name) {
    const child = tree.children.find(child => child.element.name === part)
    if (!child) throw new Error(`parquet schema element not found: ${name}`)
    path.push(child)
    tree = child
  }
  return path
}

/**
 * Get all physical (leaf) column names.
 *
 * @param {SchemaTree} schemaTree
 * @returns {string[]} list of physical column names
 */
function getPhysicalColumns(schemaTree) {
  /** @type {string[]} */
  const columns = []
  /** @param {SchemaTree} node */
  function traverse(node) {
    if (node.children.length) {
      for (const child of node.children) {
        traverse(child)
      }
    } else {
      columns.push(node.path.join('.'))
    }
  }
  traverse(schemaTree)
  return columns
}

/**
 * Get the max repetition level for a given schema path.
 *
 * @param {SchemaTree[]} schemaPath
 * @returns {number} max repetition level
 */
function getMaxRepetitionLevel(schemaPath) {
  let maxLevel = 0
  for (const { element } of schemaPath) {
    if (element.repetition_type === 'REPEATED') {
      maxLevel++
    }
  }
  return maxLevel
}

/**
 * Get the max definition level for a given schema path.
 *
 * @param {SchemaTree[]} schemaPath
 * @returns {number} max definition level
 */
function getMaxDefinitionLevel(schemaPath) {
  let maxLevel = 0
  for (const { element } of schemaPath.slice(1)) {
    if (element.repetition_type !== 'REQUIRED') {
      maxLevel++
    }
  }
  return maxLevel
}

/**
 * Check if a column is list-like.
 *
 * @param {SchemaTree} schema
 * @returns {boolean} true if list-like
 */
function isListLike(schema) {
  if (!schema) return false
  if (schema.element.converted_type !== 'LIST') return false
  if (schema.children.length > 1) return false

  const firstChild = schema.children[0]
  if (firstChild.children.length > 1) return false
  if (firstChild.element.repetition_type !== 'REPEATED') return false

  return true
}

/**
 * Check if a column is map-like.
 *
 * @param {SchemaTree} schema
 * @returns {boolean} true if map-like
 */
function isMapLike(schema) {
  if (!schema) return false
  if (schema.element.converted_type !== 'MAP') return false
  if (schema.children.length > 1) return false

  const firstChild = schema.children[0]
  if (firstChild.children.length !== 2) return false
  if (firstChild.element.repetition_type !== 'REPEATED') return false

  const keyChild = firstChild.children.find(child => child.element.name === 'key')
  if (keyChild?.element.repetition_type === 'REPEATED') return false

  const valueChild = firstChild.children.find(child => child.element.name === 'value')
  if (valueChild?.element.repetition_type === 'REPEATED') return false

  return true
}

/**
 * Returns true if a column is non-nested.
 *
 * @param {SchemaTree[]} schemaPath
 * @returns {boolean}
 */
function isFlatColumn(schemaPath) {
  if (schemaPath.length !== 2) return false
  const [, column] = schemaPath
  if (column.element.repetition_type === 'REPEATED') return false
  if (column.children.length) return false
  return true
}

/**
 * @import {SchemaElement, SchemaTree} from '../src/types.js'
 */

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet@1.31.5/node_modules/hyparquet/src/metadata.js






/**
 * @import {AsyncBuffer, FileMetaData, KeyValue, LogicalType, MetadataOptions, MinMaxType, ParquetParsers, SchemaElement, SchemaTree, Statistics, TimeUnit} from '../src/types.js'
 */

const metadata_defaultInitialFetchSize = (/* unused pure expression or super */ null && (1 << 19)) // 512kb

const decoder = new TextDecoder()
function decode(/** @type {Uint8Array} */ value) {
  return value && decoder.decode(value)
}

/**
 * Read parquet metadata from an async buffer.
 *
 * An AsyncBuffer is like an ArrayBuffer, but the slices are loaded
 * asynchronously, possibly over the network.
 *
 * You must provide the byteLength of the buffer, typically from a HEAD request.
 *
 * In theory, you could use suffix-range requests to fetch the end of the file,
 * and save a round trip. But in practice, this doesn't work because chrome
 * deems suffix-range requests as a not-safe-listed header, and will require
 * a pre-flight. So the byteLength is required.
 *
 * To make this efficient, we initially request the last 512kb of the file,
 * which is likely to contain the metadata. If the metadata length exceeds the
 * initial fetch, 512kb, we request the rest of the metadata from the AsyncBuffer.
 *
 * This ensures that we either make one 512kb initial request for the metadata,
 * or a second request for up to the metadata size.
 *
 * @param {AsyncBuffer} asyncBuffer parquet file contents
 * @param {MetadataOptions & { initialFetchSize?: number }} options initial fetch size in bytes (default 512kb)
 * @returns {Promise<FileMetaData>} parquet metadata object
 */
async function parquetMetadataAsync(asyncBuffer, { parsers, initialFetchSize = metadata_defaultInitialFetchSize, geoparquet = true } = {}) {
  if (!asyncBuffer || !(asyncBuffer.byteLength >= 0)) throw new Error('parquet expected AsyncBuffer')

  // fetch last bytes (footer) of the file
  const footerOffset = Math.max(0, asyncBuffer.byteLength - initialFetchSize)
  const footerBuffer = await asyncBuffer.slice(footerOffset, asyncBuffer.byteLength)

  // Check for parquet magic number "PAR1"
  const footerView = new DataView(footerBuffer)
  if (footerView.getUint32(footerBuffer.byteLength - 4, true) !== 0x31524150) {
    throw new Error('parquet file invalid (footer != PAR1)')
  }

  // Parquet files store metadata at the end of the file
  // Metadata length is 4 bytes before the last PAR1
  const metadataLength = footerView.getUint32(footerBuffer.byteLength - 8, true)
  if (metadataLength > asyncBuffer.byteLength - 8) {
    throw new Error(`parquet metadata length ${metadataLength} exceeds available buffer ${asyncBuffer.byteLength - 8}`)
  }

  // check if metadata size fits inside the initial fetch
  if (metadataLength + 8 > initialFetchSize) {
    // fetch the rest of the metadata
    const metadataOffset = asyncBuffer.byteLength - metadataLength - 8
    const metadataBuffer = await asyncBuffer.slice(metadataOffset, footerOffset)
    // combine initial fetch with the new slice
    const combinedBuffer = new ArrayBuffer(metadataLength + 8)
    const combinedView = new Uint8Array(combinedBuffer)
    combinedView.set(new Uint8Array(metadataBuffer))
    combinedView.set(new Uint8Array(footerBuffer), footerOffset - metadataOffset)
    return parquetMetadata(combinedBuffer, { parsers, geoparquet })
  } else {
    // parse metadata from the footer
    return parquetMetadata(footerBuffer, { parsers, geoparquet })
  }
}

/**
 * Read parquet metadata from a buffer synchronously.
 *
 * @param {ArrayBuffer | Uint8Array} arrayBuffer parquet file footer
 * @param {MetadataOptions} options metadata parsing options
 * @returns {FileMetaData} parquet metadata object
 */
function parquetMetadata(arrayBuffer, { parsers, geoparquet = true } = {}) {
  let view
  if (arrayBuffer instanceof ArrayBuffer) {
    view = new DataView(arrayBuffer)
  } else if (arrayBuffer instanceof Uint8Array) {
    view = new DataView(arrayBuffer.buffer, arrayBuffer.byteOffset, arrayBuffer.byteLength)
  } else {
    throw new Error('parquet expected ArrayBuffer or Uint8Array')
  }

  // Use default parsers if not given
  const allParsers = { ...DEFAULT_PARSERS, ...parsers }

  // Validate footer magic number "PAR1"
  if (view.byteLength < 8) {
    throw new Error('parquet file is too short')
  }
  if (view.getUint32(view.byteLength - 4, true) !== 0x31524150) {
    throw new Error('parquet file invalid (footer != PAR1)')
  }

  // Parquet files store metadata at the end of the file
  // Metadata length is 4 bytes before the last PAR1
  const metadataLengthOffset = view.byteLength - 8
  const metadataLength = view.getUint32(metadataLengthOffset, true)
  if (metadataLength > view.byteLength - 8) {
    // {metadata}, metadata_length, PAR1
    throw new Error(`parquet metadata length ${metadataLength} exceeds available buffer ${view.byteLength - 8}`)
  }

  const metadataOffset = metadataLengthOffset - metadataLength
  const reader = { view, offset: metadataOffset }
  const metadata = deserializeTCompactProtocol(reader)

  // Parse metadata from thrift data
  const version = metadata.field_1
  /** @type {SchemaElement[]} */
  const schema = metadata.field_2.map((/** @type {any} */ field) => ({
    type: ParquetTypes[field.field_1],
    type_length: field.field_2,
    repetition_type: FieldRepetitionTypes[field.field_3],
    name: decode(field.field_4),
    num_children: field.field_5,
    converted_type: ConvertedTypes[field.field_6],
    scale: field.field_7,
    precision: field.field_8,
    field_id: field.field_9,
    logical_type: logicalType(field.field_10),
  }))
  // schema element per column index
  const columnSchema = schema.filter(e => e.type)
  const num_rows = metadata.field_3
  const row_groups = metadata.field_4.map((/** @type {any} */ rowGroup) => ({
    columns: rowGroup.field_1.map((/** @type {any} */ column, /** @type {number} */ columnIndex) => ({
      file_path: decode(column.field_1),
      file_offset: column.field_2,
      meta_data: column.field_3 && {
        type: ParquetTypes[column.field_3.field_1],
        encodings: column.field_3.field_2?.map((/** @type {number} */ e) => Encodings[e]),
        path_in_schema: column.field_3.field_3.map(decode),
        codec: CompressionCodecs[column.field_3.field_4],
        num_values: column.field_3.field_5,
        total_uncompressed_size: column.field_3.field_6,
        total_compressed_size: column.field_3.field_7,
        key_value_metadata: column.field_3.field_8?.map((/** @type {any} */ kv) => ({
          key: decode(kv.field_1),
          value: decode(kv.field_2),
        })),
        data_page_offset: column.field_3.field_9,
        index_page_offset: column.field_3.field_10,
        dictionary_page_offset: column.field_3.field_11,
        statistics: convertStats(column.field_3.field_12, columnSchema[columnIndex], allParsers),
        encoding_stats: column.field_3.field_13?.map((/** @type {any} */ encodingStat) => ({
          page_type: PageTypes[encodingStat.field_1],
          encoding: Encodings[encodingStat.field_2],
          count: encodingStat.field_3,
        })),
        bloom_filter_offset: column.field_3.field_14,
        bloom_filter_length: column.field_3.field_15,
        size_statistics: column.field_3.field_16 && {
          unencoded_byte_array_data_bytes: column.field_3.field_16.field_1,
          repetition_level_histogram: column.field_3.field_16.field_2,
          definition_level_histogram: column.field_3.field_16.field_3,
        },
        geospatial_statistics: column.field_3.field_17 && {
          bbox: column.field_3.field_17.field_1 && {
            xmin: column.field_3.field_17.field_1.field_1,
            xmax: column.field_3.field_17.field_1.field_2,
            ymin: column.field_3.field_17.field_1.field_3,
            ymax: column.field_3.field_17.field_1.field_4,
            zmin: column.field_3.field_17.field_1.field_5,
            zmax: column.field_3.field_17.field_1.field_6,
            mmin: column.field_3.field_17.field_1.field_7,
            mmax: column.field_3.field_17.field_1.field_8,
          },
          geospatial_types: column.field_3.field_17.field_2,
        },
      },
      offset_index_offset: column.field_4,
      offset_index_length: column.field_5,
      column_index_offset: column.field_6,
      column_index_length: column.field_7,
      crypto_metadata: column.field_8,
      encrypted_column_metadata: column.field_9,
    })),
    total_byte_size: rowGroup.field_2,
    num_rows: rowGroup.field_3,
    sorting_columns: rowGroup.field_4?.map((/** @type {any} */ sortingColumn) => ({
      column_idx: sortingColumn.field_1,
      descending: sortingColumn.field_2,
      nulls_first: sortingColumn.field_3,
    })),
    file_offset: rowGroup.field_5,
    total_compressed_size: rowGroup.field_6,
    ordinal: rowGroup.field_7,
  }))
  /** @type {KeyValue[] | undefined} */
  const key_value_metadata = metadata.field_5?.map((/** @type {any} */ kv) => ({
    key: decode(kv.field_1),
    value: decode(kv.field_2),
  }))
  const created_by = decode(metadata.field_6)

  if (geoparquet) {
    markGeoColumns(schema, key_value_metadata)
  }

  return {
    version,
    schema,
    num_rows,
    row_groups,
    key_value_metadata,
    created_by,
    metadata_length: metadataLength,
  }
}

/**
 * Return a tree of schema elements from parquet metadata.
 *
 * @param {{schema: SchemaElement[]}} metadata parquet metadata object
 * @returns {SchemaTree} tree of schema elements
 */
function parquetSchema({ schema }) {
  return getSchemaPath(schema, [])[0]
}

/**
 * @param {any} logicalType
 * @returns {LogicalType | undefined}
 */
function logicalType(logicalType) {
  if (logicalType?.field_1) return { type: 'STRING' }
  if (logicalType?.field_2) return { type: 'MAP' }
  if (logicalType?.field_3) return { type: 'LIST' }
  if (logicalType?.field_4) return { type: 'ENUM' }
  if (logicalType?.field_5) return {
    type: 'DECIMAL',
    scale: logicalType.field_5.field_1,
    precision: logicalType.field_5.field_2,
  }
  if (logicalType?.field_6) return { type: 'DATE' }
  if (logicalType?.field_7) return {
    type: 'TIME',
    isAdjustedToUTC: logicalType.field_7.field_1,
    unit: timeUnit(logicalType.field_7.field_2),
  }
  if (logicalType?.field_8) return {
    type: 'TIMESTAMP',
    isAdjustedToUTC: logicalType.field_8.field_1,
    unit: timeUnit(logicalType.field_8.field_2),
  }
  if (logicalType?.field_10) return {
    type: 'INTEGER',
    bitWidth: logicalType.field_10.field_1,
    isSigned: logicalType.field_10.field_2,
  }
  if (logicalType?.field_11) return { type: 'NULL' }
  if (logicalType?.field_12) return { type: 'JSON' }
  if (logicalType?.field_13) return { type: 'BSON' }
  if (logicalType?.field_14) return { type: 'UUID' }
  if (logicalType?.field_15) return { type: 'FLOAT16' }
  if (logicalType?.field_16) return {
    type: 'VARIANT',
    specification_version: logicalType.field_16.field_1,
  }
  if (logicalType?.field_17) return {
    type: 'GEOMETRY',
    crs: decode(logicalType.field_17.field_1),
  }
  if (logicalType?.field_18) return {
    type: 'GEOGRAPHY',
    crs: decode(logicalType.field_18.field_1),
    algorithm: EdgeInterpolationAlgorithms[logicalType.field_18.field_2],
  }
  return logicalType
}

/**
 * @param {any} unit
 * @returns {TimeUnit}
 */
function timeUnit(unit) {
  if (unit.field_1) return 'MILLIS'
  if (unit.field_2) return 'MICROS'
  if (unit.field_3) return 'NANOS'
  throw new Error('parquet time unit required')
}

/**
 * Convert column statistics based on column type.
 *
 * @param {any} stats
 * @param {SchemaElement} schema
 * @param {ParquetParsers} parsers
 * @returns {Statistics}
 */
function convertStats(stats, schema, parsers) {
  return stats && {
    max: convertMetadata(stats.field_1, schema, parsers),
    min: convertMetadata(stats.field_2, schema, parsers),
    null_count: stats.field_3,
    distinct_count: stats.field_4,
    max_value: convertMetadata(stats.field_5, schema, parsers),
    min_value: convertMetadata(stats.field_6, schema, parsers),
    is_max_value_exact: stats.field_7,
    is_min_value_exact: stats.field_8,
  }
}

/**
 * @param {Uint8Array | undefined} value
 * @param {SchemaElement} schema
 * @param {ParquetParsers} parsers
 * @returns {MinMaxType | undefined}
 */
function convertMetadata(value, schema, parsers) {
  const { type, converted_type, logical_type } = schema
  if (value === undefined) return value
  if (type === 'BOOLEAN') return value[0] === 1
  if (type === 'BYTE_ARRAY') return parsers.stringFromBytes(value)
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength)
  if (type === 'FLOAT' && view.byteLength === 4) return view.getFloat32(0, true)
  if (type === 'DOUBLE' && view.byteLength === 8) return view.getFloat64(0, true)
  if (type === 'INT32' && converted_type === 'DECIMAL' && view.byteLength === 4) {
    return view.getInt32(0, true) * 10 ** -(schema.scale || 0)
  }
  if (type === 'INT64' && converted_type === 'DECIMAL' && view.byteLength === 8) {
    return Number(view.getBigInt64(0, true)) * 10 ** -(schema.scale || 0)
  }
  if (type === 'INT32' && converted_type === 'DATE') return parsers.dateFromDays(view.getInt32(0, true))
  if (type === 'INT64' && converted_type === 'TIMESTAMP_MILLIS') return parsers.timestampFromMilliseconds(view.getBigInt64(0, true))
  if (type === 'INT64' && converted_type === 'TIMESTAMP_MICROS') return parsers.timestampFromMicroseconds(view.getBigInt64(0, true))
  if (type === 'INT64' && logical_type?.type === 'TIMESTAMP' && logical_type?.unit === 'NANOS') return parsers.timestampFromNanoseconds(view.getBigInt64(0, true))
  if (type === 'INT64' && logical_type?.type === 'TIMESTAMP' && logical_type?.unit === 'MICROS') return parsers.timestampFromMicroseconds(view.getBigInt64(0, true))
  if (type === 'INT64' && logical_type?.type === 'TIMESTAMP') return parsers.timestampFromMilliseconds(view.getBigInt64(0, true))
  const unsigned = converted_type?.startsWith('UINT_') ||
    logical_type?.type === 'INTEGER' && !logical_type.isSigned
  if (type === 'INT32' && unsigned && view.byteLength === 4) return view.getUint32(0, true)
  if (type === 'INT64' && unsigned && view.byteLength === 8) return view.getBigUint64(0, true)
  if (type === 'INT32' && view.byteLength === 4) return view.getInt32(0, true)
  if (type === 'INT64' && view.byteLength === 8) return view.getBigInt64(0, true)
  if (converted_type === 'DECIMAL') return parseDecimal(value) * 10 ** -(schema.scale || 0)
  if (logical_type?.type === 'FLOAT16') return parseFloat16(value)
  if (logical_type?.type === 'UUID') return parsers.uuidFromBytes(value)
  if (type === 'FIXED_LEN_BYTE_ARRAY') return value
  // assert(false)
  return value
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/schema.js



/**
 * @import {ConvertedType, DecodedArray, FieldRepetitionType, ParquetType, SchemaElement, SchemaTree} from 'hyparquet'
 * @import {BasicType, ColumnSource, ShredType} from '../src/types.js'
 */

/**
 * Infer a schema from column data.
 * Accepts optional schemaOverrides to override the type of columns by name.
 *
 * @param {object} options
 * @param {ColumnSource[]} options.columnData
 * @param {Record<string, SchemaElement>} [options.schemaOverrides]
 * @returns {SchemaElement[]}
 */
function schemaFromColumnData({ columnData, schemaOverrides }) {
  /** @type {SchemaElement[]} */
  const schema = [{
    name: 'root',
    num_children: columnData.length,
  }]

  for (const { name, data, type, nullable, shredding } of columnData) {
    if (schemaOverrides?.[name]) {
      // use schema override
      const override = schemaOverrides[name]
      if (type || nullable !== undefined) {
        throw new Error(`cannot provide both type and schema override for column ${name}`)
      }
      if (override.name !== name) {
        throw new Error(`schema override for column ${name} must have matching name, got ${override.name}`)
      }
      if (override.type === 'FIXED_LEN_BYTE_ARRAY' && !override.type_length) {
        throw new Error('schema override for FIXED_LEN_BYTE_ARRAY must include type_length')
      }
      // TODO: support nested schema overrides
      if (override.num_children) {
        throw new Error('schema override does not support nested types')
      }
      schema.push(override)
    } else if (type === 'VARIANT') {
      // variant group with metadata and value children
      const repetition_type = nullable === false ? 'REQUIRED' : 'OPTIONAL'
      const shreddingConfig = shredding && shredding !== true ? normalizeShreddingConfig(shredding) : undefined
      if (shreddingConfig) {
        schema.push(
          { name, repetition_type, num_children: 3, logical_type: { type: 'VARIANT' } },
          { name: 'metadata', type: 'BYTE_ARRAY', repetition_type: 'REQUIRED' },
          { name: 'value', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
          ...buildVariantTypedValue(shreddingConfig)
        )
      } else {
        schema.push(
          { name, repetition_type, num_children: 2, logical_type: { type: 'VARIANT' } },
          { name: 'metadata', type: 'BYTE_ARRAY', repetition_type: 'REQUIRED' },
          { name: 'value', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' }
        )
      }
    } else if (type) {
      // use provided type
      schema.push(basicTypeToSchemaElement(name, type, nullable))
    } else {
      // auto-detect type from first 1000 values
      schema.push(autoSchemaElement(name, data.slice(0, 1000)))
    }
  }

  return schema
}

/**
 * Build the flat preorder SchemaElement subtree for a shredded variant
 * `typed_value` node, recursively, from a shred type. The first returned element
 * is always named `typed_value`. Supports scalars, object structs, and LIST arrays.
 *
 * @param {ShredType} shredType
 * @returns {SchemaElement[]}
 */
function buildVariantTypedValue(shredType) {
  // Array shred type: single-element array template -> 3-level LIST
  if (Array.isArray(shredType)) {
    return [
      { name: 'typed_value', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', repetition_type: 'REQUIRED', num_children: 2 },
      { name: 'value', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
      ...buildVariantTypedValue(shredType[0]),
    ]
  }

  // Object shred type: struct with one optional group per field
  if (typeof shredType === 'object') {
    const fieldNames = Object.keys(shredType)
    /** @type {SchemaElement[]} */
    const elements = [
      { name: 'typed_value', repetition_type: 'OPTIONAL', num_children: fieldNames.length },
    ]
    for (const fieldName of fieldNames) {
      elements.push(
        { name: fieldName, repetition_type: 'OPTIONAL', num_children: 2 },
        { name: 'value', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
        ...buildVariantTypedValue(shredType[fieldName])
      )
    }
    return elements
  }

  // Scalar shred type: typed leaf
  return [shreddedLeafElement(shredType)]
}

/**
 * Map a BasicType to the typed_value leaf SchemaElement for shredded scalars.
 *
 * @param {BasicType} type
 * @returns {SchemaElement}
 */
function shreddedLeafElement(type) {
  switch (type) {
  case 'STRING':
    return { name: 'typed_value', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }
  case 'INT32':
    return { name: 'typed_value', type: 'INT32', repetition_type: 'OPTIONAL' }
  case 'INT64':
    return { name: 'typed_value', type: 'INT64', repetition_type: 'OPTIONAL' }
  case 'DOUBLE':
    return { name: 'typed_value', type: 'DOUBLE', repetition_type: 'OPTIONAL' }
  case 'FLOAT':
    return { name: 'typed_value', type: 'FLOAT', repetition_type: 'OPTIONAL' }
  case 'BOOLEAN':
    return { name: 'typed_value', type: 'BOOLEAN', repetition_type: 'OPTIONAL' }
  case 'TIMESTAMP':
    return { name: 'typed_value', type: 'INT64', converted_type: 'TIMESTAMP_MICROS', repetition_type: 'OPTIONAL' }
  default:
    throw new Error(`unsupported shredded field type: ${type}`)
  }
}

/**
 * @param {string} name
 * @param {Exclude<BasicType, 'VARIANT'>} type
 * @param {boolean} [nullable]
 * @returns {SchemaElement}
 */
function basicTypeToSchemaElement(name, type, nullable) {
  const repetition_type = nullable === false ? 'REQUIRED' : 'OPTIONAL'
  if (type === 'STRING') {
    return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type }
  }
  if (type === 'JSON') {
    return { name, type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type }
  }
  if (type === 'TIMESTAMP') {
    return { name, type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', repetition_type }
  }
  if (type === 'UUID') {
    return { name, type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, logical_type: { type: 'UUID' }, repetition_type }
  }
  if (type === 'FLOAT16') {
    return { name, type: 'FIXED_LEN_BYTE_ARRAY', type_length: 2, logical_type: { type: 'FLOAT16' }, repetition_type }
  }
  if (type === 'GEOMETRY') {
    return { name, type: 'BYTE_ARRAY', logical_type: { type: 'GEOMETRY' }, repetition_type }
  }
  if (type === 'GEOGRAPHY') {
    return { name, type: 'BYTE_ARRAY', logical_type: { type: 'GEOGRAPHY' }, repetition_type }
  }
  return { name, type, repetition_type }
}

/**
 * Automatically determine a SchemaElement from an array of values.
 *
 * @param {string} name the column name
 * @param {DecodedArray} values the column values
 * @returns {SchemaElement}
 */
function autoSchemaElement(name, values) {
  /** @type {ParquetType | undefined} */
  let type
  /** @type {FieldRepetitionType} */
  let repetition_type = 'REQUIRED'
  /** @type {ConvertedType | undefined} */
  let converted_type

  if (values instanceof Int32Array) return { name, type: 'INT32', repetition_type }
  if (values instanceof BigInt64Array) return { name, type: 'INT64', repetition_type }
  if (values instanceof Float32Array) return { name, type: 'FLOAT', repetition_type }
  if (values instanceof Float64Array) return { name, type: 'DOUBLE', repetition_type }

  for (const value of values) {
    if (value === null || value === undefined) {
      repetition_type = 'OPTIONAL'
    } else {
      // value is defined, infer type
      /** @type {ParquetType} */
      let valueType
      /** @type {ConvertedType | undefined} */
      let valueConvertedType
      if (typeof value === 'boolean') valueType = 'BOOLEAN'
      else if (typeof value === 'bigint') valueType = 'INT64'
      else if (Number.isInteger(value)) valueType = 'INT32'
      else if (typeof value === 'number') valueType = 'DOUBLE'
      else if (value instanceof Uint8Array) valueType = 'BYTE_ARRAY'
      else if (typeof value === 'string') {
        valueType = 'BYTE_ARRAY'
        valueConvertedType = 'UTF8'
      }
      else if (value instanceof Date) {
        valueType = 'INT64'
        valueConvertedType = 'TIMESTAMP_MILLIS'
      }
      else if (typeof value === 'object') {
        // use json (TODO: native list and object types)
        valueType = 'BYTE_ARRAY'
        valueConvertedType = 'JSON'
      }
      else throw new Error(`cannot determine parquet type for: ${value}`)

      // expand type if necessary
      if (type === undefined) {
        type = valueType
        converted_type = valueConvertedType
      } else if (type === 'INT32' && valueType === 'DOUBLE') {
        type = 'DOUBLE'
      } else if (type === 'DOUBLE' && valueType === 'INT32') {
        continue
      } else if (type !== valueType || converted_type !== valueConvertedType) {
        throw new Error(`parquet cannot write mixed types: ${converted_type ?? type} and ${valueConvertedType ?? valueType}`)
      }
    }
  }
  if (!type) {
    // fallback to nullable BYTE_ARRAY
    // TODO: logical_type: 'NULL'
    type = 'BYTE_ARRAY'
    repetition_type = 'OPTIONAL'
  }
  return { name, type, repetition_type, converted_type }
}

/**
 * Get the max repetition level for a given schema path.
 *
 * @param {SchemaElement[]} schemaPath
 * @returns {number} max repetition level
 */
function schema_getMaxRepetitionLevel(schemaPath) {
  let maxLevel = 0
  for (const element of schemaPath) {
    if (element.repetition_type === 'REPEATED') {
      maxLevel++
    }
  }
  return maxLevel
}

/**
 * Create a function that resolves element paths against a schema.
 * The schema tree is built once, so resolving every column of a wide schema
 * costs O(columns) instead of the O(columns²) of calling getSchemaPath per column.
 *
 * @param {SchemaElement[]} schema
 * @returns {(path: string[]) => SchemaTree[]} schema elements from the root to the named element
 */
function schemaPathResolver(schema) {
  const root = parquetSchema({ schema })
  /** @type {Map<SchemaTree, Map<string, SchemaTree>>} */
  const childrenByName = new Map()

  return path => {
    let tree = root
    const schemaPath = [tree]
    for (const part of path) {
      let children = childrenByName.get(tree)
      if (!children) {
        children = new Map()
        for (const child of tree.children) {
          // first match wins, like Array.prototype.find
          if (!children.has(child.element.name)) children.set(child.element.name, child)
        }
        childrenByName.set(tree, children)
      }
      const child = children.get(part)
      if (!child) throw new Error(`parquet schema element not found: ${path}`)
      schemaPath.push(child)
      tree = child
    }
    return schemaPath
  }
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/splitstream.js
/**
 * Write values using BYTE_STREAM_SPLIT encoding.
 * This encoding writes all first bytes of values, then all second bytes, etc.
 * Can improve compression for floating-point and fixed-width numeric data.
 *
 * @import {DecodedArray, ParquetType} from 'hyparquet'
 * @import {Writer} from '../src/types.js'
 * @param {Writer} writer
 * @param {DecodedArray} values
 * @param {ParquetType} type
 * @param {number | undefined} typeLength
 */
function writeByteStreamSplit(writer, values, type, typeLength) {
  const count = values.length

  // Get bytes from values based on type
  /** @type {Uint8Array} */
  let bytes
  /** @type {number} */
  let width
  if (type === 'FLOAT') {
    const typed = values instanceof Float32Array ? values : new Float32Array(numberArray(values))
    bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength)
    width = 4
  } else if (type === 'DOUBLE') {
    const typed = values instanceof Float64Array ? values : new Float64Array(numberArray(values))
    bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength)
    width = 8
  } else if (type === 'INT32') {
    const typed = values instanceof Int32Array ? values : new Int32Array(numberArray(values))
    bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength)
    width = 4
  } else if (type === 'INT64') {
    const typed = bigIntArray(values)
    bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength)
    width = 8
  } else if (type === 'FIXED_LEN_BYTE_ARRAY') {
    if (!typeLength) throw new Error('parquet byte_stream_split missing type_length')
    width = typeLength
    bytes = new Uint8Array(count * width)
    for (let i = 0; i < count; i++) {
      bytes.set(values[i], i * width)
    }
  } else {
    throw new Error(`parquet byte_stream_split unsupported type: ${type}`)
  }

  // Write bytes in column format (all byte 0 from all values, then byte 1, etc.)
  for (let b = 0; b < width; b++) {
    for (let i = 0; i < count; i++) {
      writer.appendUint8(bytes[i * width + b])
    }
  }
}

/**
 * @param {DecodedArray} values
 * @returns {number[]}
 */
function numberArray(values) {
  if (Array.isArray(values) && values.every(v => typeof v === 'number')) {
    return values
  }
  throw new Error('Expected number array for BYTE_STREAM_SPLIT encoding')
}

/**
 * @param {DecodedArray} values
 * @returns {BigInt64Array}
 */
function bigIntArray(values) {
  if (values instanceof BigInt64Array) return values
  if (Array.isArray(values) && values.every(v => typeof v === 'bigint')) {
    return new BigInt64Array(values)
  }
  throw new Error('Expected bigint array for BYTE_STREAM_SPLIT encoding')
}


;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/datapage.js









/**
 * @param {Object} options
 * @param {Writer} options.writer
 * @param {ColumnEncoder} options.column
 * @param {Encoding} options.encoding
 * @param {PageData} options.pageData
 * @returns {number} uncompressed page size including the header
 */
function writeDataPageV2({ writer, column, encoding, pageData }) {
  const { columnName, element, codec, compressors } = column
  const { type, type_length, repetition_type } = element

  if (!type) throw new Error(`column ${columnName} cannot determine type`)
  if (repetition_type === 'REPEATED') throw new Error(`column ${columnName} repeated types not supported`)

  // write levels to temp buffer
  const levelWriter = new bytewriter_ByteWriter()
  const {
    definition_levels_byte_length,
    repetition_levels_byte_length,
    num_nulls,
    num_values,
    num_rows,
  } = writeLevels(levelWriter, column, pageData)

  // TODO: skip nulls while writing instead of filtering
  const nonnull = num_nulls ? pageData.values.filter(v => v !== null && v !== undefined) : pageData.values

  // write page data to temp buffer
  const page = new bytewriter_ByteWriter()
  if (encoding === 'PLAIN') {
    writePlain(page, nonnull, type, type_length)
  } else if (encoding === 'RLE') {
    if (type !== 'BOOLEAN') throw new Error('RLE encoding only supported for BOOLEAN type')
    const rleData = new bytewriter_ByteWriter()
    writeRleBitPackedHybrid(rleData, nonnull, 1)
    page.appendUint32(rleData.offset) // prepend byte length
    page.appendBytes(rleData.getBytes())
  } else if (encoding === 'PLAIN_DICTIONARY' || encoding === 'RLE_DICTIONARY') {
    // find max bitwidth
    let maxValue = 0
    for (const v of nonnull) if (v > maxValue) maxValue = v
    const bitWidth = Math.ceil(Math.log2(maxValue + 1))
    page.appendUint8(bitWidth) // prepend bitWidth
    writeRleBitPackedHybrid(page, nonnull, bitWidth)
  } else if (encoding === 'DELTA_BINARY_PACKED') {
    if (type !== 'INT32' && type !== 'INT64') {
      throw new Error('DELTA_BINARY_PACKED encoding only supported for INT32 and INT64 types')
    }
    deltaBinaryPack(page, nonnull, type)
  } else if (encoding === 'DELTA_LENGTH_BYTE_ARRAY') {
    if (type !== 'BYTE_ARRAY') {
      throw new Error('DELTA_LENGTH_BYTE_ARRAY encoding only supported for BYTE_ARRAY type')
    }
    deltaLengthByteArray(page, nonnull)
  } else if (encoding === 'DELTA_BYTE_ARRAY') {
    if (type !== 'BYTE_ARRAY') {
      throw new Error('DELTA_BYTE_ARRAY encoding only supported for BYTE_ARRAY type')
    }
    deltaByteArray(page, nonnull)
  } else if (encoding === 'BYTE_STREAM_SPLIT') {
    writeByteStreamSplit(page, nonnull, type, type_length)
  } else {
    throw new Error(`parquet unsupported encoding: ${encoding}`)
  }

  // compress page data
  const pageBytes = page.getBytes()
  const compressedBytes = compressors[codec]?.(pageBytes) ?? pageBytes

  // write page header
  const headerStart = writer.offset
  writePageHeader(writer, {
    type: 'DATA_PAGE_V2',
    uncompressed_page_size: levelWriter.offset + page.offset,
    compressed_page_size: levelWriter.offset + compressedBytes.length,
    data_page_header_v2: {
      num_values,
      num_nulls,
      num_rows,
      encoding,
      definition_levels_byte_length,
      repetition_levels_byte_length,
      is_compressed: !!codec,
      // is there benefit to page statistics here?
    },
  })

  const headerSize = writer.offset - headerStart

  // write levels
  writer.appendBytes(levelWriter.getBytes())

  // write page data
  writer.appendBytes(compressedBytes)
  return headerSize + levelWriter.offset + page.offset
}

/**
 * @param {Writer} writer
 * @param {PageHeader} header
 */
function writePageHeader(writer, header) {
  /** @type {ThriftObject} */
  const compact = {
    field_1: constants_PageTypes.indexOf(header.type),
    field_2: header.uncompressed_page_size,
    field_3: header.compressed_page_size,
    field_4: header.crc,
    field_5: header.data_page_header && {
      field_1: header.data_page_header.num_values,
      field_2: constants_Encodings.indexOf(header.data_page_header.encoding),
      field_3: constants_Encodings.indexOf(header.data_page_header.definition_level_encoding),
      field_4: constants_Encodings.indexOf(header.data_page_header.repetition_level_encoding),
      // field_5: header.data_page_header.statistics,
    },
    field_7: header.dictionary_page_header && {
      field_1: header.dictionary_page_header.num_values,
      field_2: constants_Encodings.indexOf(header.dictionary_page_header.encoding),
    },
    field_8: header.data_page_header_v2 && {
      field_1: header.data_page_header_v2.num_values,
      field_2: header.data_page_header_v2.num_nulls,
      field_3: header.data_page_header_v2.num_rows,
      field_4: constants_Encodings.indexOf(header.data_page_header_v2.encoding),
      field_5: header.data_page_header_v2.definition_levels_byte_length,
      field_6: header.data_page_header_v2.repetition_levels_byte_length,
      field_7: header.data_page_header_v2.is_compressed ? undefined : false, // default true
    },
  }
  serializeTCompactProtocol(writer, compact)
}

/**
 * @import {DecodedArray, Encoding, PageHeader} from 'hyparquet'
 * @import {ColumnEncoder, PageData, ThriftObject, Writer} from '../src/types.js'
 * @param {Writer} writer
 * @param {ColumnEncoder} column
 * @param {PageData} dataPage
 * @returns {{
 *   definition_levels_byte_length: number
 *   repetition_levels_byte_length: number
 *   num_values: number
 *   num_nulls: number
 *   num_rows: number
 * }}
 */
function writeLevels(writer, column, dataPage) {
  const { schemaPath } = column
  const { values, definitionLevels, repetitionLevels, maxDefinitionLevel } = dataPage
  const num_values = definitionLevels.length || values.length
  let num_nulls = 0
  let num_rows = 0
  if (repetitionLevels.length) {
    for (let i = 0; i < repetitionLevels.length; i++) {
      if (repetitionLevels[i] === 0) num_rows++
    }
  } else {
    num_rows = values.length
  }
  if (definitionLevels.length) {
    for (let i = 0; i < definitionLevels.length; i++) {
      if (definitionLevels[i] < maxDefinitionLevel) num_nulls++
    }
  }

  const maxRepetitionLevel = schema_getMaxRepetitionLevel(schemaPath)
  let repetition_levels_byte_length = 0
  if (maxRepetitionLevel) {
    const bitWidth = Math.ceil(Math.log2(maxRepetitionLevel + 1))
    repetition_levels_byte_length = writeRleBitPackedHybrid(writer, repetitionLevels, bitWidth)
  }

  let definition_levels_byte_length = 0
  if (maxDefinitionLevel) {
    const bitWidth = Math.ceil(Math.log2(maxDefinitionLevel + 1))
    definition_levels_byte_length = writeRleBitPackedHybrid(writer, definitionLevels, bitWidth)
  }
  return { definition_levels_byte_length, repetition_levels_byte_length, num_values, num_nulls, num_rows }
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/dictionary.js




const dictionary_textEncoder = new TextEncoder()

/**
 * @import {DecodedArray, Encoding, ParquetType} from 'hyparquet'
 * @import {ColumnEncoder, Writer} from './types.js'
 */

/**
 * Estimate the byte size of a value for page size calculation.
 *
 * @param {any} value
 * @param {ParquetType} type
 * @param {number} [type_length]
 * @returns {number}
 */
function estimateValueSize(value, type, type_length) {
  if (value === null || value === undefined) return 0
  if (type === 'BOOLEAN') return 0.125
  if (type === 'INT32' || type === 'FLOAT') return 4
  if (type === 'INT64' || type === 'DOUBLE') return 8
  if (type === 'INT96') return 12
  if (type === 'FIXED_LEN_BYTE_ARRAY') return type_length ?? 0
  if (type === 'BYTE_ARRAY') {
    if (value instanceof Uint8Array) return value.byteLength
    if (typeof value === 'string') return value.length
  }
  return 0
}

/**
 * FNV-1a hash of a byte array, used to bucket byte-array dictionary values
 * without allocating a string key per value.
 *
 * @param {Uint8Array} bytes
 * @returns {number}
 */
function hashBytes(bytes) {
  let h = 0x811c9dc5
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i]
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 * @returns {boolean}
 */
function bytesEqual(a, b) {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return false
  }
  return true
}

// Sampling only rejects columns that are very likely to lose. Columns in the
// uncertain middle are decided by the complete-column win check below.
const sampleRejectionRatio = 0.9

/**
 * Decide whether to dictionary-encode a column, and if so build the dictionary
 * and per-row indexes. Returns {} to fall back to plain encoding.
 *
 * Sampling is spread across the complete column chunk and weighted by value
 * bytes. It only rejects columns whose sampled distinct bytes exceed 90% of
 * sampled value bytes. Other columns are built and kept when distinct-value
 * bytes are at most half the total value bytes, so dictionary encoding offers
 * a material win. There is no fixed size cap by default; a low-cardinality
 * column of large values is exactly where a big dictionary pays for itself,
 * and capping it at page size caused 20-100x file bloat (#35). Callers can
 * still impose a hard cap via `dictionarySize`.
 *
 * When `encoding` explicitly requests RLE_DICTIONARY, the dictionary is built
 * unconditionally (no sampling, no size or win checks), so the written pages
 * always match the requested encoding.
 *
 * @param {DecodedArray} values
 * @param {ParquetType} type
 * @param {number | undefined} type_length
 * @param {Encoding | undefined} encoding
 * @param {number} [dictionarySize] - optional hard cap on distinct-value bytes
 * @param {boolean} [required] - reject null or undefined values
 * @returns {{ dictionary?: any[], indexes?: number[] }}
 */
function useDictionary(values, type, type_length, encoding, dictionarySize, required) {
  if (encoding && encoding !== 'RLE_DICTIONARY') return {}
  if (type === 'BOOLEAN') return {}
  const forced = encoding === 'RLE_DICTIONARY'
  const byteArrayPrefixSize = type === 'BYTE_ARRAY' ? 4 : 0

  // Estimate distinct-value bytes from a sample spread over the complete
  // column. Byte arrays are keyed by hash so distinct Uint8Array objects with
  // identical bytes count as one (a plain Set would key them by object
  // identity). Null/undefined contribute no encoded value bytes.
  if (!forced) {
    const sampleSize = Math.min(values.length, 1000)
    const sampleSizes = new Map()
    const sampleHashes = new Map()
    let sampleDictionarySize = 0
    let sampleTotalSize = 0
    for (let i = 0; i < sampleSize; i++) {
      const sampleIndex = sampleSize === 1 ? 0 : Math.floor(i * (values.length - 1) / (sampleSize - 1))
      const value = values[sampleIndex]
      let key = value
      if (value instanceof Uint8Array) {
        key = sampleHashes.get(value)
        if (key === undefined) {
          key = hashBytes(value)
          sampleHashes.set(value, key)
        }
      }
      let valueSize = sampleSizes.get(key)
      if (valueSize === undefined) {
        valueSize = estimateValueSize(value, type, type_length)
          + (value === null || value === undefined ? 0 : byteArrayPrefixSize)
        sampleSizes.set(key, valueSize)
        sampleDictionarySize += valueSize
      }
      sampleTotalSize += valueSize
    }
    if (!sampleTotalSize || sampleDictionarySize / sampleTotalSize > sampleRejectionRatio) return {}
  }

  // build dictionary and indexes. Primitives (string/number/bigint) dedupe by
  // value; byte arrays dedupe by content via hash buckets with an exact
  // byte-equality check (hashes can collide).
  /** @type {any[]} */
  const dictionary = []
  /** @type {number[]} */
  const indexes = new Array(values.length)
  /** @type {Map<any, number>} */
  const valueIndex = new Map()
  /** @type {number[]} */
  const valueSizes = []
  /** @type {Map<number, number[]>} */
  const hashBuckets = new Map()
  let dictSize = 0
  let physicalDictSize = 0
  let totalSize = 0
  let nonNullCount = 0
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    if (value === null || value === undefined) {
      if (required) throw new Error('parquet required value is undefined')
      continue
    }
    nonNullCount++

    let index
    if (value instanceof Uint8Array) {
      totalSize += value.byteLength
      index = valueIndex.get(value)
      if (index !== undefined) {
        indexes[i] = index
        continue
      }
      const hash = hashBytes(value)
      const bucket = hashBuckets.get(hash)
      if (bucket) {
        for (const j of bucket) {
          if (bytesEqual(dictionary[j], value)) { index = j; break }
        }
      }
      if (index === undefined) {
        dictSize += value.byteLength
        if (!forced && dictionarySize) {
          physicalDictSize += value.byteLength
          if (physicalDictSize > dictionarySize) return {}
        }
        index = dictionary.length
        dictionary.push(value)
        if (bucket) bucket.push(index)
        else hashBuckets.set(hash, [index])
      }
      valueIndex.set(value, index)
    } else {
      index = valueIndex.get(value)
      const valueSize = index === undefined
        ? estimateValueSize(value, type, type_length)
        : valueSizes[index]
      totalSize += valueSize
      if (index === undefined) {
        dictSize += valueSize
        if (!forced && dictionarySize) {
          physicalDictSize += typeof value === 'string' ? dictionary_textEncoder.encode(value).byteLength : valueSize
          if (physicalDictSize > dictionarySize) return {}
        }
        index = dictionary.length
        dictionary.push(value)
        valueSizes[index] = valueSize
        valueIndex.set(value, index)
      }
    }
    indexes[i] = index
  }

  // An automatic dictionary plus its bit-packed indexes must at least halve
  // the PLAIN value bytes. BYTE_ARRAY values have a four-byte length prefix
  // per occurrence in PLAIN and per distinct value in the dictionary.
  const bitWidth = Math.ceil(Math.log2(dictionary.length))
  const indexSize = Math.ceil(nonNullCount * bitWidth / 8)
  const plainSize = totalSize + nonNullCount * byteArrayPrefixSize
  const dictionaryValueSize = dictSize + dictionary.length * byteArrayPrefixSize
  if (!forced && 2 * (dictionaryValueSize + indexSize) > plainSize) return {}

  // TODO: sort by frequency?
  return { dictionary, indexes }
}

/**
 * @param {Writer} writer
 * @param {ColumnEncoder} column
 * @param {DecodedArray} dictionary
 * @returns {number} uncompressed page size including the header
 */
function writeDictionaryPage(writer, column, dictionary) {
  const { element, codec, compressors } = column
  const { type, type_length } = element
  if (!type) throw new Error(`column ${column.columnName} cannot determine type`)

  // write values to temp buffer
  const dictionaryPage = new bytewriter_ByteWriter()
  writePlain(dictionaryPage, dictionary, type, type_length)
  const dictionaryBytes = dictionaryPage.getBytes()

  // compress dictionary page data
  const compressedBytes = compressors[codec]?.(dictionaryBytes) ?? dictionaryBytes

  // write dictionary page header
  const headerStart = writer.offset
  writePageHeader(writer, {
    type: 'DICTIONARY_PAGE',
    uncompressed_page_size: dictionaryBytes.byteLength,
    compressed_page_size: compressedBytes.byteLength,
    dictionary_page_header: {
      num_values: dictionary.length,
      encoding: 'PLAIN',
    },
  })
  const headerSize = writer.offset - headerStart
  writer.appendBytes(compressedBytes)
  return headerSize + dictionaryBytes.byteLength
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/geospatial.js
/**
 * Compute geospatial statistics for GEOMETRY and GEOGRAPHY columns.
 *
 * @import {BoundingBox, DecodedArray, Geometry, GeospatialStatistics} from 'hyparquet/src/types.js'
 * @param {DecodedArray} values
 * @returns {GeospatialStatistics | undefined}
 */
function geospatialStatistics(values) {
  /** @type {Set<number>} */
  const typeCodes = new Set()
  /** @type {Partial<BoundingBox> | undefined} */
  let partial

  for (const value of values) {
    if (value === null || value === undefined) continue
    if (typeof value !== 'object') {
      throw new Error('geospatial column expects GeoJSON geometries')
    }
    partial = extendBoundsFromGeometry(partial, value)
    typeCodes.add(geometryTypeCodeWithDimension(value))
  }

  // If either the X or Y dimension has no finite values, the bounding box itself is not produced
  /** @type {BoundingBox | undefined} */
  let bbox
  const { xmin, ymin, xmax, ymax } = partial ?? {}
  if (xmin !== undefined && ymin !== undefined && xmax !== undefined && ymax !== undefined) {
    bbox = { ...partial, xmin, ymin, xmax, ymax }
  }

  if (typeCodes.size || bbox) {
    return {
      bbox,
      // Geospatial type codes of all instances, or an empty list if not known
      geospatial_types: typeCodes.size ? Array.from(typeCodes).sort((a, b) => a - b) : [],
    }
  }
}

/**
 * @param {Partial<BoundingBox> | undefined} bbox
 * @param {Geometry} geometry
 * @returns {Partial<BoundingBox> | undefined}
 */
function extendBoundsFromGeometry(bbox, geometry) {
  if (geometry.type === 'GeometryCollection') {
    for (const child of geometry.geometries || []) {
      bbox = extendBoundsFromGeometry(bbox, child)
    }
    return bbox
  }
  return extendBoundsFromCoordinates(bbox, geometry.coordinates)
}

/**
 * Recurse through nested coordinate arrays. At a leaf position [x,y,(z),(m)],
 * each dimension is filtered independently. NaN/non-finite values in one
 * dimension does not skip the others.
 * @param {Partial<BoundingBox> | undefined} bbox
 * @param {any[]} coordinates
 * @returns {Partial<BoundingBox> | undefined}
 */
function extendBoundsFromCoordinates(bbox, coordinates) {
  if (typeof coordinates[0] === 'number') {
    // Expand bbox
    bbox = updateAxis(bbox, 'xmin', 'xmax', coordinates[0])
    bbox = updateAxis(bbox, 'ymin', 'ymax', coordinates[1])
    if (coordinates.length > 2) bbox = updateAxis(bbox, 'zmin', 'zmax', coordinates[2])
    if (coordinates.length > 3) bbox = updateAxis(bbox, 'mmin', 'mmax', coordinates[3])
    return bbox
  }
  for (const child of coordinates) {
    bbox = extendBoundsFromCoordinates(bbox, child)
  }
  return bbox
}

/**
 * @param {Partial<BoundingBox> | undefined} bbox
 * @param {'xmin' | 'ymin' | 'zmin' | 'mmin'} minKey
 * @param {'xmax' | 'ymax' | 'zmax' | 'mmax'} maxKey
 * @param {number | undefined} value
 * @returns {Partial<BoundingBox> | undefined}
 */
function updateAxis(bbox, minKey, maxKey, value) {
  if (value === undefined || !Number.isFinite(value)) return bbox
  if (!bbox) bbox = {}
  const min = bbox[minKey]
  const max = bbox[maxKey]
  if (min === undefined || value < min) bbox[minKey] = value
  if (max === undefined || value > max) bbox[maxKey] = value
  return bbox
}

/**
 * @param {Geometry} geometry
 * @returns {number}
 */
function geometryTypeCodeWithDimension(geometry) {
  const base = geometryTypeCodes[geometry.type]
  if (base === undefined) throw new Error(`unknown geometry type: ${geometry.type}`)
  const dim = inferGeometryDimensions(geometry)
  if (dim === 2) return base
  if (dim === 3) return base + 1000
  if (dim === 4) return base + 3000
  throw new Error(`unsupported geometry dimensions: ${dim}`)
}

const geometryTypeCodes = {
  Point: 1,
  LineString: 2,
  Polygon: 3,
  MultiPoint: 4,
  MultiLineString: 5,
  MultiPolygon: 6,
  GeometryCollection: 7,
}

/**
 * Determine the maximum coordinate dimensions for the geometry.
 * @param {Geometry} geometry
 * @returns {number}
 */
function inferGeometryDimensions(geometry) {
  if (geometry.type === 'GeometryCollection') {
    let maxDim = 0
    for (const child of geometry.geometries || []) {
      maxDim = Math.max(maxDim, inferGeometryDimensions(child))
    }
    return maxDim || 2
  }
  return inferCoordinateDimensions(geometry.coordinates)
}

/**
 * @param {any[]} value
 * @returns {number}
 */
function inferCoordinateDimensions(value) {
  if (!value.length) return 2
  if (typeof value[0] === 'number') return value.length
  let maxDim = 0
  for (const item of value) {
    maxDim = Math.max(maxDim, inferCoordinateDimensions(item))
  }
  return maxDim || 2
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet@1.31.5/node_modules/hyparquet/src/utils.js
/**
 * @import {AsyncBuffer, Awaitable, DecodedArray} from '../src/types.js'
 */



/**
 * Replace bigint, date, etc with legal JSON types.
 *
 * @param {any} obj object to convert
 * @returns {unknown} converted object
 */
function toJson(obj) {
  if (obj === undefined) return null
  if (typeof obj === 'bigint') return Number(obj)
  if (Object.is(obj, -0)) return 0
  if (Array.isArray(obj)) return obj.map(toJson)
  if (obj instanceof Uint8Array) return Array.from(obj)
  if (obj instanceof Date) return obj.toISOString()
  if (obj instanceof Object) {
    /** @type {Record<string, unknown>} */
    const newObj = {}
    for (const key of Object.keys(obj)) {
      if (obj[key] === undefined) continue
      newObj[key] = toJson(obj[key])
    }
    return newObj
  }
  return obj
}

/**
 * Concatenate two arrays fast.
 *
 * @param {any[]} aaa
 * @param {DecodedArray} bbb
 */
function concat(aaa, bbb) {
  const chunk = 10000
  for (let i = 0; i < bbb.length; i += chunk) {
    aaa.push(...bbb.slice(i, i + chunk))
  }
}

/**
 * Deep equality.
 *
 * @param {any} a
 * @param {any} b
 * @param {boolean} [strict]
 * @returns {boolean}
 */
function equals(a, b, strict = true) {
  // eslint-disable-next-line eqeqeq
  if (strict ? a === b : a == b) return true
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false

  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    if (a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) {
      if (a[i] !== b[i]) return false
    }
    return true
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime()
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) {
      if (!equals(a[i], b[i], strict)) return false
    }
    return true
  }

  const aKeys = Object.keys(a)
  if (aKeys.length !== Object.keys(b).length) return false
  for (const k of aKeys) {
    if (!equals(a[k], b[k], strict)) return false
  }
  return true
}

/**
 * Get the byte length using fetch with a ranged GET request.
 * Aborts the request if server returns 200 instead of 206.
 *
 * @param {string} url
 * @param {RequestInit} [requestInit] fetch options
 * @param {typeof globalThis.fetch} [fetchFn] fetch function to use
 * @returns {Promise<number>}
 */
async function byteLengthFromUrlUsingGet(url, requestInit = {}, fetchFn = globalThis.fetch) {
  const controller = new AbortController()
  const headers = new Headers(requestInit.headers)
  headers.set('Range', 'bytes=0-0')

  const res = await fetchFn(url, {
    ...requestInit,
    headers,
    signal: controller.signal,
  })

  if (!res.ok) throw new Error(`fetch with range failed ${res.status}`)

  // Server supports Range requests (206 Partial Content)
  if (res.status === 206) {
    const contentRange = res.headers.get('Content-Range')
    if (!contentRange) throw new Error('missing content-range header')

    // Parse "bytes 0-0/9446073" to get total length
    const match = contentRange.match(/bytes \d+-\d+\/(\d+)/)
    if (!match) throw new Error(`invalid content-range header: ${contentRange}`)

    return parseInt(match[1])
  }

  // Server ignored Range and returned 200 - get Content-Length and abort request
  if (res.status === 200) {
    const contentLength = res.headers.get('Content-Length')

    // Abort the request to stop any ongoing download
    controller.abort()

    if (contentLength) return parseInt(contentLength)
  }

  throw new Error('server does not support range requests and missing content-length')
}

/**
 * Get the byte length of a URL using a HEAD request.
 * If HEAD fails with 403 (e.g., with signed S3 URLs), falls back to a ranged GET request.
 * If HEAD succeeds but Content-Length is missing, falls back to GET with range.
 * If requestInit is provided, it will be passed to fetch.
 *
 * @param {string} url
 * @param {RequestInit} [requestInit] fetch options
 * @param {typeof globalThis.fetch} [customFetch] fetch function to use
 * @returns {Promise<number>}
 */
async function byteLengthFromUrl(url, requestInit, customFetch) {
  const fetch = customFetch ?? globalThis.fetch
  const res = await fetch(url, { ...requestInit, method: 'HEAD' })

  // If HEAD request is forbidden (common with signed S3 URLs), try GET with range
  if (res.status === 403) {
    return byteLengthFromUrlUsingGet(url, requestInit, fetch)
  }

  if (!res.ok) throw new Error(`fetch head failed ${res.status}`)
  const length = res.headers.get('Content-Length')
  // If Content-Length is missing from HEAD, fallback to GET with range
  if (!length) {
    return byteLengthFromUrlUsingGet(url, requestInit, fetch)
  }
  return parseInt(length)
}

/**
 * Construct an AsyncBuffer for a URL.
 * If byteLength is not provided, will make a HEAD request to get the file size.
 * If fetch is provided, it will be used instead of the global fetch.
 * If requestInit is provided, it will be passed to fetch.
 *
 * @param {object} options
 * @param {string} options.url
 * @param {number} [options.byteLength]
 * @param {typeof globalThis.fetch} [options.fetch] fetch function to use
 * @param {RequestInit} [options.requestInit]
 * @returns {Promise<AsyncBuffer>}
 */
async function asyncBufferFromUrl({ url, byteLength, requestInit, fetch: customFetch }) {
  if (!url) throw new Error('missing url')
  const fetch = customFetch ?? globalThis.fetch
  // byte length from HEAD request
  byteLength ??= await byteLengthFromUrl(url, requestInit, fetch)

  /**
   * A promise for the whole buffer, if range requests are not supported.
   * @type {Promise<ArrayBuffer>|undefined}
   */
  let buffer = undefined
  const init = requestInit || {}

  return {
    byteLength,
    async slice(start, end) {
      if (buffer) {
        return buffer.then(buffer => buffer.slice(start, end))
      }

      const headers = new Headers(init.headers)
      const endStr = end === undefined ? '' : end - 1
      headers.set('Range', `bytes=${start}-${endStr}`)

      const res = await fetch(url, { ...init, headers })
      if (!res.ok || !res.body) throw new Error(`fetch failed ${res.status}`)

      if (res.status === 200) {
        // Endpoint does not support range requests and returned the whole object
        buffer = res.arrayBuffer()
        return buffer.then(buffer => buffer.slice(start, end))
      } else if (res.status === 206) {
        // The endpoint supports range requests and sent us the requested range
        return res.arrayBuffer()
      } else {
        throw new Error(`fetch received unexpected status code ${res.status}`)
      }
    },
  }
}

/**
 * Returns a cached layer on top of an AsyncBuffer. For caching slices of a file
 * that are read multiple times, possibly over a network.
 *
 * @param {AsyncBuffer} file file-like object to cache
 * @param {{ minSize?: number }} [options]
 * @returns {AsyncBuffer} cached file-like object
 */
function cachedAsyncBuffer({ byteLength, slice }, { minSize = defaultInitialFetchSize } = {}) {
  if (byteLength < minSize) {
    // Cache whole file if it's small
    const buffer = slice(0, byteLength)
    return {
      byteLength,
      async slice(start, end) {
        return (await buffer).slice(start, end)
      },
    }
  }
  const cache = new Map()
  return {
    byteLength,
    /**
     * @param {number} start
     * @param {number} [end]
     * @returns {Awaitable<ArrayBuffer>}
     */
    slice(start, end) {
      const key = cacheKey(start, end, byteLength)
      const cached = cache.get(key)
      if (cached) return cached
      // cache miss, read from file
      const promise = slice(start, end)
      cache.set(key, promise)
      return promise
    },
  }
}


/**
 * Returns canonical cache key for a byte range 'start,end'.
 * Normalize int-range and suffix-range requests to the same key.
 *
 * @param {number} start start byte of range
 * @param {number} [end] end byte of range, or undefined for suffix range
 * @param {number} [size] size of file, or undefined for suffix range
 * @returns {string}
 */
function cacheKey(start, end, size) {
  if (start < 0) {
    if (end !== undefined) throw new Error(`invalid suffix range [${start}, ${end}]`)
    if (size === undefined) return `${start},`
    return `${size + start},${size}`
  } else if (end !== undefined) {
    if (start > end) throw new Error(`invalid empty range [${start}, ${end}]`)
    return `${start},${end}`
  } else if (size === undefined) {
    return `${start},`
  } else {
    return `${start},${size}`
  }
}

/**
 * Flatten a list of lists into a single list.
 *
 * @param {DecodedArray[]} [chunks]
 * @returns {DecodedArray}
 */
function flatten(chunks) {
  if (!chunks) return []
  if (chunks.length === 1) return chunks[0]
  /** @type {any[]} */
  const output = []
  for (const chunk of chunks) {
    concat(output, chunk)
  }
  return output
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/wkb.js


/**
 * @import {Geometry, Position} from 'hyparquet/src/types.js'
 */

/**
 * Serialize a GeoJSON geometry into ISO WKB.
 *
 * @param {Geometry} geometry
 * @returns {Uint8Array}
 */
function geojsonToWkb(geometry) {
  const writer = new bytewriter_ByteWriter()
  writeGeometry(writer, geometry)
  return writer.getBytes()
}

/**
 * @param {ByteWriter} writer
 * @param {Geometry} geometry
 */
function writeGeometry(writer, geometry) {
  if (typeof geometry !== 'object') {
    throw new Error('geometry values must be GeoJSON geometries')
  }
  const typeCode = geometryTypeCode(geometry.type)

  // infer dimensions
  const dim = wkb_inferGeometryDimensions(geometry)
  let flag = 0
  if (dim === 3) flag = 1
  else if (dim === 4) flag = 3
  else if (dim > 4) throw new Error(`unsupported geometry dimensions: ${dim}`)

  writer.appendUint8(1) // little endian
  writer.appendUint32(typeCode + flag * 1000)

  if (geometry.type === 'Point') {
    writePosition(writer, geometry.coordinates, dim)
  } else if (geometry.type === 'LineString') {
    writeLine(writer, geometry.coordinates, dim)
  } else if (geometry.type === 'Polygon') {
    writer.appendUint32(geometry.coordinates.length)
    for (const ring of geometry.coordinates) {
      writeLine(writer, ring, dim)
    }
  } else if (geometry.type === 'MultiPoint') {
    writer.appendUint32(geometry.coordinates.length)
    for (const coordinates of geometry.coordinates) {
      writeGeometry(writer, { type: 'Point', coordinates })
    }
  } else if (geometry.type === 'MultiLineString') {
    writer.appendUint32(geometry.coordinates.length)
    for (const coordinates of geometry.coordinates) {
      writeGeometry(writer, { type: 'LineString', coordinates })
    }
  } else if (geometry.type === 'MultiPolygon') {
    writer.appendUint32(geometry.coordinates.length)
    for (const coordinates of geometry.coordinates) {
      writeGeometry(writer, { type: 'Polygon', coordinates })
    }
  } else if (geometry.type === 'GeometryCollection') {
    writer.appendUint32(geometry.geometries.length)
    for (const child of geometry.geometries) {
      writeGeometry(writer, child)
    }
  } else {
    throw new Error('unsupported geometry type')
  }
}

/**
 * @param {ByteWriter} writer
 * @param {Position} position
 * @param {number} dim
 */
function writePosition(writer, position, dim) {
  if (position.length < dim) {
    throw new Error('geometry position dimensions mismatch')
  }
  for (let i = 0; i < dim; i++) {
    writer.appendFloat64(position[i])
  }
}

/**
 * @param {ByteWriter} writer
 * @param {Position[]} coordinates
 * @param {number} dim
 */
function writeLine(writer, coordinates, dim) {
  writer.appendUint32(coordinates.length)
  for (const position of coordinates) {
    writePosition(writer, position, dim)
  }
}

/**
 * @param {Geometry['type']} type
 * @returns {number}
 */
function geometryTypeCode(type) {
  if (type === 'Point') return 1
  if (type === 'LineString') return 2
  if (type === 'Polygon') return 3
  if (type === 'MultiPoint') return 4
  if (type === 'MultiLineString') return 5
  if (type === 'MultiPolygon') return 6
  if (type === 'GeometryCollection') return 7
  throw new Error(`unknown geometry type: ${type}`)
}

/**
 * Determine the maximum coordinate dimensions for the geometry.
 *
 * @param {Geometry} geometry
 * @returns {number}
 */
function wkb_inferGeometryDimensions(geometry) {
  if (geometry.type === 'GeometryCollection') {
    let maxDim = 0
    for (const child of geometry.geometries) {
      maxDim = Math.max(maxDim, wkb_inferGeometryDimensions(child))
    }
    return maxDim || 2
  }
  return wkb_inferCoordinateDimensions(geometry.coordinates)
}

/**
 * @param {any} value
 * @returns {number}
 */
function wkb_inferCoordinateDimensions(value) {
  if (!Array.isArray(value)) return 2
  if (!value.length) return 2
  if (typeof value[0] === 'number') return value.length
  let maxDim = 0
  for (const item of value) {
    maxDim = Math.max(maxDim, wkb_inferCoordinateDimensions(item))
  }
  return maxDim || 2
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/unconvert.js



/**
 * @import {DecodedArray, SchemaElement} from 'hyparquet'
 * @import {MinMaxType} from 'hyparquet/src/types.js'
 * @import {ChunkStatistics, ThriftObject} from '../src/types.js'
 */

const dayMillis = 86400000 // 1 day in milliseconds

/**
 * Convert values while reusing the result for repeated primitives or object
 * references. This prevents repeated logical values from retaining a separate
 * byte array for every row. The cache is released when conversion returns.
 *
 * @param {DecodedArray} values
 * @param {(value: any) => any} convert
 * @returns {any[]}
 */
function mapConverted(values, convert) {
  const cache = new Map()
  return Array.from(values, value => {
    if (cache.has(value)) return cache.get(value)
    const result = convert(value)
    cache.set(value, result)
    return result
  })
}

/**
 * Convert from rich to primitive types.
 *
 * @param {SchemaElement} element
 * @param {DecodedArray} values
 * @returns {DecodedArray}
 */
function unconvert(element, values) {
  const { type, converted_type: ctype, logical_type: ltype } = element
  if (ctype === 'DECIMAL') {
    const factor = 10 ** (element.scale || 0)
    return Array.from(values, v => {
      if (v === null || v === undefined) return v
      // A bigint is the already-scaled unscaled value, so it is written as-is.
      // Scaling a number goes through float64, which cannot hold every DECIMAL.
      if (typeof v === 'bigint') return unconvertDecimal(element, v)
      if (typeof v !== 'number') throw new Error('DECIMAL must be a number or bigint')
      return unconvertDecimal(element, BigInt(Math.round(v * factor)))
    })
  }
  if (ctype === 'DATE') {
    return Array.from(values).map(v => {
      if (v instanceof Date) return Math.floor(v.getTime() / dayMillis)
      return v
    })
  }
  if (ctype === 'TIMESTAMP_MILLIS') {
    return Array.from(values).map(v => {
      if (v === null || v === undefined) return v
      if (v instanceof Date) return BigInt(v.getTime())
      return BigInt(v)
    })
  }
  if (ctype === 'TIMESTAMP_MICROS') {
    return Array.from(values).map(v => {
      if (v === null || v === undefined) return v
      if (v instanceof Date) return BigInt(v.getTime() * 1000)
      return BigInt(v)
    })
  }
  if (ctype === 'JSON') {
    if (!Array.isArray(values)) throw new Error('JSON must be an array')
    const encoder = new TextEncoder()
    return mapConverted(
      values,
      v => v === null || v === undefined ? v : encoder.encode(JSON.stringify(toJson(v)))
    )
  }
  if (ctype === 'UTF8') {
    if (!Array.isArray(values)) throw new Error('strings must be an array')
    const encoder = new TextEncoder()
    return values.map(v => typeof v === 'string' ? encoder.encode(v) : v)
  }
  if (ctype === 'UINT_32' || ltype?.type === 'INTEGER' && ltype.bitWidth === 32 && !ltype.isSigned) {
    if (values instanceof Uint32Array) return values
    if (values instanceof Int32Array) return new Uint32Array(values.buffer, values.byteOffset, values.length)
    return Array.from(values).map(v => {
      if (v === null || v === undefined) return v
      if (!Number.isSafeInteger(v)) throw new Error('expected integer value, got ' + v)
      if (v < 0 || v > 4294967295) throw new Error('expected uint32 value, got ' + v)
      if (v > 2147483647) return v - 4294967296 // convert to signed range
      return v
    })
  }
  if (ltype?.type === 'FLOAT16') {
    if (type !== 'FIXED_LEN_BYTE_ARRAY') throw new Error('FLOAT16 must be FIXED_LEN_BYTE_ARRAY type')
    if (element.type_length !== 2) throw new Error('FLOAT16 expected type_length to be 2 bytes')
    return Array.from(values).map(unconvertFloat16)
  }
  if (ltype?.type === 'UUID') {
    if (!Array.isArray(values)) throw new Error('UUID must be an array')
    if (type !== 'FIXED_LEN_BYTE_ARRAY') throw new Error('UUID must be FIXED_LEN_BYTE_ARRAY type')
    if (element.type_length !== 16) throw new Error('UUID expected type_length to be 16 bytes')
    return values.map(unconvertUuid)
  }
  if (ltype?.type === 'TIMESTAMP') {
    return Array.from(values).map(v => {
      if (v === null || v === undefined) return v
      if (v instanceof Date) {
        const millis = BigInt(v.getTime())
        if (ltype.unit === 'NANOS') return millis * 1_000_000n
        if (ltype.unit === 'MICROS') return millis * 1_000n
        return millis // MILLIS (default)
      }
      return BigInt(v)
    })
  }
  if (ltype?.type === 'GEOMETRY' || ltype?.type === 'GEOGRAPHY') {
    if (!Array.isArray(values)) throw new Error('geometry must be an array')
    return mapConverted(values, v => {
      if (v === null || v === undefined) return v
      return geojsonToWkb(v)
    })
  }
  return values
}

/**
 * @param {Uint8Array | string | undefined} value
 * @returns {Uint8Array | undefined}
 */
function unconvertUuid(value) {
  if (value === undefined || value === null) return
  if (value instanceof Uint8Array) return value
  if (typeof value === 'string') {
    const uuidRegex = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i
    if (!uuidRegex.test(value)) {
      throw new Error('UUID must be a valid UUID string')
    }
    value = value.replace(/-/g, '').toLowerCase()
    const bytes = new Uint8Array(16)
    for (let i = 0; i < 16; i++) {
      bytes[i] = parseInt(value.slice(i * 2, i * 2 + 2), 16)
    }
    return bytes
  }
  throw new Error('UUID must be a string or Uint8Array')
}

// Default byte length that statistics min/max values are truncated to.
const STATS_TRUNCATE_LENGTH = 16

const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * Truncate a byte-array statistic to at most `length` bytes.
 *
 * A prefix is a valid lower bound (min). A max is rounded up to a short value
 * that is still >= the original. STRING and ENUM bounds are cut on a code point
 * boundary so they stay valid UTF-8. A prefix of a JSON or BSON document is not
 * a valid document, so those bounds are kept whole. When no short upper bound
 * exists, the max is kept whole.
 *
 * @param {Uint8Array} bytes
 * @param {SchemaElement} element
 * @param {boolean} isMax
 * @param {number} length
 * @returns {Uint8Array}
 */
function truncateStatistic(bytes, element, isMax, length) {
  if (bytes.length <= length || !isTruncatable(element)) return bytes
  const truncated = isUtf8(element) ? truncateUtf8(bytes, isMax, length) : truncateBytes(bytes, isMax, length)
  return truncated ?? bytes
}

/**
 * @param {SchemaElement} element
 * @returns {boolean}
 */
function isTruncatable({ type, converted_type, logical_type }) {
  if (type !== 'BYTE_ARRAY') return false // a FIXED_LEN_BYTE_ARRAY bound must keep its length
  if (converted_type === 'DECIMAL' || converted_type === 'JSON' || converted_type === 'BSON') return false
  return logical_type?.type !== 'JSON' && logical_type?.type !== 'BSON'
}

/**
 * @param {SchemaElement} element
 * @returns {boolean}
 */
function isUtf8({ converted_type, logical_type }) {
  return converted_type === 'UTF8' || converted_type === 'ENUM' ||
    logical_type?.type === 'STRING' || logical_type?.type === 'ENUM'
}

/**
 * Byte-wise truncation. A max increments the last byte that is < 0xFF after
 * dropping trailing 0xFF bytes.
 *
 * @param {Uint8Array} bytes
 * @param {boolean} isMax
 * @param {number} length
 * @returns {Uint8Array | undefined}
 */
function truncateBytes(bytes, isMax, length) {
  // copy: Buffer.prototype.slice returns a view, and rounding mutates in place
  const prefix = new Uint8Array(bytes.subarray(0, length))
  if (!isMax) return prefix // a prefix is a valid lower bound
  let i = prefix.length - 1
  while (i >= 0 && prefix[i] === 0xff) i-- // drop trailing 0xFF
  if (i < 0) return undefined // all 0xFF: no valid shorter upper bound
  const rounded = prefix.slice(0, i + 1)
  rounded[i] += 1
  return rounded
}

/**
 * UTF-8 truncation on a code point boundary. A max increments the last code
 * point that has a successor fitting the length, skipping surrogates.
 * Invalid UTF-8 falls back to byte-wise truncation.
 *
 * @param {Uint8Array} bytes
 * @param {boolean} isMax
 * @param {number} length
 * @returns {Uint8Array | undefined}
 */
function truncateUtf8(bytes, isMax, length) {
  let end = length
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--
  if (!isMax) return new Uint8Array(bytes.subarray(0, end))
  let text
  try {
    text = utf8Decoder.decode(bytes.subarray(0, end))
  } catch {
    return truncateBytes(bytes, isMax, length)
  }
  const codePoints = Array.from(text, c => c.codePointAt(0) ?? 0)
  const encoder = new TextEncoder()
  for (let i = codePoints.length - 1; i >= 0; i--) {
    // Remove this code point from the prefix, preserving its original UTF-8 bytes.
    end--
    while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--
    const code = codePoints[i]
    if (code === 0x10ffff) continue
    const next = code === 0xd7ff ? 0xe000 : code + 1
    const suffix = encoder.encode(String.fromCodePoint(next))
    if (end + suffix.length > length) continue
    const rounded = new Uint8Array(end + suffix.length)
    rounded.set(bytes.subarray(0, end))
    rounded.set(suffix, end)
    return rounded
  }
}

/**
 * Returns false when a min/max value had to be truncated, otherwise undefined.
 *
 * We only emit the (optional) exactness flag when it is false; an absent flag
 * means the value is exact, which keeps the footer small for untruncated columns.
 *
 * @param {MinMaxType | undefined} value
 * @param {SchemaElement} element
 * @param {boolean} isMax
 * @param {number} length
 * @returns {boolean | undefined}
 */
function minMaxIsExact(value, element, isMax, length) {
  if (value === undefined || value === null) return undefined
  if (!isTruncatable(element)) return undefined
  const bytes = value instanceof Uint8Array ? value : new TextEncoder().encode(value.toString())
  return truncateStatistic(bytes, element, isMax, length) === bytes ? undefined : false
}

/**
 * Uncovert from rich type to byte array for metadata statistics.
 *
 * @param {MinMaxType | undefined} value
 * @param {SchemaElement} element
 * @param {boolean} isMax whether this is a max value (rounds truncation up)
 * @param {number} [truncateLength] max bytes for a byte-array value
 * @returns {Uint8Array | undefined}
 */
function unconvertMinMax(value, element, isMax, truncateLength = STATS_TRUNCATE_LENGTH) {
  if (value === undefined || value === null) return undefined
  const { type, converted_type } = element
  if (type === 'BOOLEAN') return new Uint8Array([value ? 1 : 0])
  if (element.logical_type?.type === 'UUID' && (typeof value === 'string' || value instanceof Uint8Array)) {
    return unconvertUuid(value)
  }
  if (converted_type === 'DECIMAL') {
    // Statistics must accept the same inputs as the values they describe, or a
    // column whose values are exact would carry min/max that are not.
    if (typeof value !== 'number' && typeof value !== 'bigint') {
      throw new Error('DECIMAL must be a number or bigint')
    }
    const factor = 10 ** (element.scale || 0)
    const scaled = typeof value === 'bigint' ? value : BigInt(Math.round(value * factor))
    const out = unconvertDecimal(element, scaled)
    if (out instanceof Uint8Array) return out
    if (typeof out === 'number') {
      const buffer = new ArrayBuffer(4)
      new DataView(buffer).setInt32(0, out, true)
      return new Uint8Array(buffer)
    }
    if (typeof out === 'bigint') {
      const buffer = new ArrayBuffer(8)
      new DataView(buffer).setBigInt64(0, out, true)
      return new Uint8Array(buffer)
    }
  }
  if (element.logical_type?.type === 'FLOAT16' && typeof value === 'number') {
    return unconvertFloat16(value)
  }
  if (type === 'BYTE_ARRAY' || type === 'FIXED_LEN_BYTE_ARRAY') {
    const bytes = value instanceof Uint8Array ? value : new TextEncoder().encode(value.toString())
    return truncateStatistic(bytes, element, isMax, truncateLength)
  }
  if (type === 'FLOAT' && typeof value === 'number') {
    const buffer = new ArrayBuffer(4)
    new DataView(buffer).setFloat32(0, value, true)
    return new Uint8Array(buffer)
  }
  if (type === 'DOUBLE' && typeof value === 'number') {
    const buffer = new ArrayBuffer(8)
    new DataView(buffer).setFloat64(0, value, true)
    return new Uint8Array(buffer)
  }
  if (type === 'INT32' && typeof value === 'number') {
    const buffer = new ArrayBuffer(4)
    new DataView(buffer).setInt32(0, value, true)
    return new Uint8Array(buffer)
  }
  if (type === 'INT64' && (typeof value === 'bigint' || typeof value === 'number' && Number.isInteger(value))) {
    const buffer = new ArrayBuffer(8)
    new DataView(buffer).setBigInt64(0, BigInt(value), true)
    return new Uint8Array(buffer)
  }
  if (type === 'INT32' && converted_type === 'DATE' && value instanceof Date) {
    const buffer = new ArrayBuffer(4)
    new DataView(buffer).setInt32(0, Math.floor(value.getTime() / dayMillis), true)
    return new Uint8Array(buffer)
  }
  if (type === 'INT64' && converted_type === 'TIMESTAMP_MILLIS' && value instanceof Date) {
    const buffer = new ArrayBuffer(8)
    new DataView(buffer).setBigInt64(0, BigInt(value.getTime()), true)
    return new Uint8Array(buffer)
  }
  if (type === 'INT64' && converted_type === 'TIMESTAMP_MICROS' && value instanceof Date) {
    const buffer = new ArrayBuffer(8)
    new DataView(buffer).setBigInt64(0, BigInt(value.getTime() * 1000), true)
    return new Uint8Array(buffer)
  }
  if (type === 'INT64' && element.logical_type?.type === 'TIMESTAMP' && value instanceof Date) {
    const millis = BigInt(value.getTime())
    const { unit } = element.logical_type
    let bigintValue = millis
    if (unit === 'NANOS') bigintValue = millis * 1_000_000n
    else if (unit === 'MICROS') bigintValue = millis * 1_000n
    const buffer = new ArrayBuffer(8)
    new DataView(buffer).setBigInt64(0, bigintValue, true)
    return new Uint8Array(buffer)
  }
  throw new Error(`unsupported type for statistics: ${type} with value ${value}`)
}

/**
 * @param {ChunkStatistics} stats
 * @param {SchemaElement} element
 * @param {number} [truncateLength] max bytes for a byte-array min/max
 * @returns {ThriftObject}
 */
function unconvertStatistics(stats, element, truncateLength = STATS_TRUNCATE_LENGTH) {
  return {
    field_1: unconvertMinMax(stats.max, element, true, truncateLength),
    field_2: unconvertMinMax(stats.min, element, false, truncateLength),
    field_3: stats.null_count,
    field_4: stats.distinct_count,
    field_5: unconvertMinMax(stats.max_value, element, true, truncateLength),
    field_6: unconvertMinMax(stats.min_value, element, false, truncateLength),
    field_7: stats.is_max_value_exact ?? minMaxIsExact(stats.max_value ?? stats.max, element, true, truncateLength),
    field_8: stats.is_min_value_exact ?? minMaxIsExact(stats.min_value ?? stats.min, element, false, truncateLength),
    field_9: stats.nan_count,
  }
}

/**
 * @param {SchemaElement} element
 * @param {bigint} value
 * @returns {number | bigint | Uint8Array}
 */
function unconvertDecimal({ type, type_length }, value) {
  if (type === 'INT32') return Number(value)
  if (type === 'INT64') return value
  if (type === 'FIXED_LEN_BYTE_ARRAY' && !type_length) {
    throw new Error('fixed length byte array type_length is required')
  }
  if (!type_length && !value) return new Uint8Array()

  const bytes = []
  while (true) {
    // extract the lowest 8 bits
    const byte = Number(value & 0xffn)
    bytes.unshift(byte)
    value >>= 8n

    if (type_length) {
      if (bytes.length >= type_length) break // fixed length
    } else {
      // for nonnegative: stop when top byte has signBit = 0 AND shifted value == 0n
      // for negative: stop when top byte has signBit = 1 AND shifted value == -1n
      const sign = byte & 0x80
      if (!sign && value === 0n || sign && value === -1n) {
        break
      }
    }
  }

  return new Uint8Array(bytes)
}

/**
 * @param {number | undefined} value
 * @returns {Uint8Array | undefined}
 */
function unconvertFloat16(value) {
  if (value === undefined || value === null) return
  if (typeof value !== 'number') throw new Error('parquet float16 expected number value')
  if (Number.isNaN(value)) return new Uint8Array([0x00, 0x7e])

  const sign = value < 0 || Object.is(value, -0) ? 1 : 0
  const abs = Math.abs(value)

  // infinities
  if (!isFinite(abs)) return new Uint8Array([0x00, sign << 7 | 0x7c])

  // ±0
  if (abs === 0) return new Uint8Array([0x00, sign << 7])

  // Round directly from float64: going through float32 can round twice.
  if (abs >= 65520) return new Uint8Array([0x00, sign << 7 | 0x7c])
  let exponent = -14
  if (abs >= 2 ** -14) {
    const view = new DataView(new ArrayBuffer(8))
    view.setFloat64(0, abs)
    exponent = (view.getUint32(0) >>> 20 & 0x7ff) - 1023
  }
  // Subnormals have a fixed spacing of 2^-24.
  const scaled = abs / 2 ** (exponent - 10)
  let significand = Math.floor(scaled)
  const remainder = scaled - significand
  if (remainder > 0.5 || remainder === 0.5 && significand % 2) significand++

  // Adding the rounded significand also handles carry into the next exponent.
  const magnitude = abs < 2 ** -14 ? significand : (exponent + 14) * 1024 + significand
  const bits16 = sign << 15 | magnitude
  return new Uint8Array([bits16 & 0xff, bits16 >> 8])
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/column.js






/**
 * @import {ColumnChunk, DecodedArray, Encoding, OffsetIndex, ParquetType, SchemaElement} from 'hyparquet'
 * @import {PageEncodingStats} from 'hyparquet/src/types.js'
 * @import {ChunkStatistics, ColumnEncoder, PageColumnIndex, PageData, Writer} from '../src/types.js'
 */

/**
 * Write a column chunk to the writer.
 *
 * @param {object} options
 * @param {Writer} options.writer
 * @param {ColumnEncoder} options.column
 * @param {PageData} options.pageData
 * @returns {{ chunk: ColumnChunk, columnIndex?: PageColumnIndex, offsetIndex?: OffsetIndex, bloomFilter?: Uint32Array }}
 */
function writeColumn({ writer, column, pageData }) {
  const { columnName, element, schemaPath, stats, pageSize, dictionarySize, encoding: userEncoding } = column
  const { type, type_length } = element
  if (!type) throw new Error(`column ${columnName} cannot determine type`)
  const { values, definitionLevels, repetitionLevels, maxDefinitionLevel } = pageData
  const offsetStart = writer.offset
  let uncompressedSize = 0

  /** @type {Encoding[]} */
  const encodings = []

  const isGeospatial = element?.logical_type?.type === 'GEOMETRY' || element?.logical_type?.type === 'GEOGRAPHY'

  // Compute statistics
  const geospatial_statistics = stats && isGeospatial ? geospatialStatistics(values) : undefined

  // Build bloom filter from original values (hashParquetValue reads schema info from element)
  let bloomFilter
  if (column.bloomFilter) {
    const opts = typeof column.bloomFilter === 'object' ? column.bloomFilter : undefined
    const builder = new BloomBuilder(element, opts)
    for (const v of values) builder.insert(v)
    bloomFilter = builder.finalize()
  }

  // dictionary encoding
  /** @type {bigint | undefined} */
  let dictionary_page_offset
  const selectPhysical = element.converted_type !== 'UTF8'
  const dictionaryValues = selectPhysical ? unconvert(element, values) : values
  // Validate physical values before statistics or encoders can wrap them.
  if (type === 'INT64') {
    const unsigned = element.converted_type === 'UINT_64' ||
      element.logical_type?.type === 'INTEGER' && !element.logical_type.isSigned
    const min = unsigned ? 0n : -(2n ** 63n)
    const max = unsigned ? 2n ** 64n - 1n : 2n ** 63n - 1n
    for (const value of dictionaryValues) {
      if (value !== null && value !== undefined && (value < min || value > max)) {
        throw new RangeError(`parquet INT64 value out of range: ${value}`)
      }
    }
  }
  // JSON bounds order the encoded bytes, not the JS values
  const statisticsValues = element.converted_type === 'JSON' ? dictionaryValues : values
  const statistics = stats ? getStatistics(statisticsValues, element) : undefined
  const { dictionary, indexes } = useDictionary(
    dictionaryValues, type, type_length, userEncoding, dictionarySize, maxDefinitionLevel === 0
  )

  // Determine encoding and prepare values for writing
  /** @type {Encoding} */
  let encoding
  /** @type {DecodedArray} */
  let writeValues
  let writeType = type
  if (dictionary && indexes) {
    // replace values with dictionary indices
    writeValues = indexes
    writeType = 'INT32'
    encoding = 'RLE_DICTIONARY'

    // write dictionary page first
    dictionary_page_offset = BigInt(writer.offset)
    const unconverted = selectPhysical ? dictionary : unconvert(element, dictionary)
    uncompressedSize += writeDictionaryPage(writer, column, unconverted)
    encodings.push('PLAIN')
  } else {
    // unconvert values from rich types to simple
    writeValues = selectPhysical ? dictionaryValues : unconvert(element, values)
    // a requested RLE_DICTIONARY that produced no dictionary (BOOLEAN) must
    // not label plain pages as dictionary-encoded
    encoding = userEncoding && userEncoding !== 'RLE_DICTIONARY' ? userEncoding
      : type === 'BOOLEAN' && values.length > 16 ? 'RLE' : 'PLAIN'
  }
  encodings.push(encoding)

  // Split values into pages based on pageSize
  const pageBoundaries = getPageBoundaries(writeValues, writeType, type_length, pageSize, repetitionLevels)

  // Initialize index structures if requested
  /** @type {PageColumnIndex | undefined} */
  let columnIndex = column.columnIndex && pageBoundaries.length > 1 ? {
    null_pages: [],
    min_values: [],
    max_values: [],
    boundary_order: 'UNORDERED',
    null_counts: [],
    nan_counts: isFloat(element) ? [] : undefined,
  } : undefined
  /** @type {OffsetIndex | undefined} */
  const offsetIndex = column.offsetIndex && pageBoundaries.length > 1 ? {
    page_locations: [],
  } : undefined

  // Write data pages
  const data_page_offset = BigInt(writer.offset)
  let first_row_index = 0n
  let prevStart = 0
  let prevMinValue
  let prevMaxValue
  let ascending = true
  let descending = true

  for (const { start, end } of pageBoundaries) {
    const pageOffset = writer.offset

    // Slice into subpage and write levels and data
    const pageChunk = {
      values: writeValues.slice(start, end),
      definitionLevels: definitionLevels.slice(start, end),
      repetitionLevels: repetitionLevels.slice(start, end),
      maxDefinitionLevel,
    }
    uncompressedSize += writeDataPageV2({ writer, column, encoding, pageData: pageChunk })

    // ColumnIndex construction
    if (columnIndex) {
      const pageValues = statisticsValues.slice(start, end) // original values not indexes
      const { min_value, max_value, null_count = 0n, nan_count } = getStatistics(pageValues, element)
      const nullPage = null_count === BigInt(end - start)
      const minBytes = unconvertMinMax(min_value, element, false, column.statisticsTruncateLength)
      const maxBytes = unconvertMinMax(max_value, element, true, column.statisticsTruncateLength)
      if (!nullPage && (!minBytes || !maxBytes)) {
        // Spec: bounds are required, so a non-null page without them (all NaN) drops the index
        columnIndex = undefined
      } else {
        columnIndex.null_pages.push(nullPage)
        // Spec: for all-null pages set "byte[0]"
        columnIndex.min_values.push(minBytes ?? new Uint8Array())
        columnIndex.max_values.push(maxBytes ?? new Uint8Array())
        columnIndex.null_counts?.push(null_count)
        if (nan_count !== undefined) columnIndex.nan_counts?.push(nan_count)

        // Track boundary order using original JS values
        if (prevMinValue !== undefined && min_value !== undefined) {
          const order = compareValues(prevMinValue, min_value)
          if (order > 0) ascending = false
          if (order < 0) descending = false
        }
        if (prevMaxValue !== undefined && max_value !== undefined) {
          const order = compareValues(prevMaxValue, max_value)
          if (order > 0) ascending = false
          if (order < 0) descending = false
        }
        prevMinValue = min_value
        prevMaxValue = max_value
      }
    }

    // OffsetIndex construction
    if (offsetIndex) {
      if (repetitionLevels.length) {
        // Count row boundaries from previous page
        for (let i = prevStart + 1; i <= start; i++) {
          if (repetitionLevels[i] === 0) first_row_index++
        }
      } else {
        first_row_index = BigInt(start) // Flat column
      }

      offsetIndex.page_locations.push({
        offset: BigInt(pageOffset),
        compressed_page_size: writer.offset - pageOffset,
        first_row_index,
      })
    }

    prevStart = start
  }

  // Set boundary order after all pages are written
  if (columnIndex) {
    if (ascending) columnIndex.boundary_order = 'ASCENDING'
    else if (descending) columnIndex.boundary_order = 'DESCENDING'
  }

  // Build encoding stats
  /** @type {PageEncodingStats[] | undefined} */
  let encoding_stats
  if (stats) {
    encoding_stats = []
    if (dictionary_page_offset !== undefined) {
      encoding_stats.push({ page_type: 'DICTIONARY_PAGE', encoding: 'PLAIN', count: 1 })
    }
    encoding_stats.push({ page_type: 'DATA_PAGE_V2', encoding, count: pageBoundaries.length })
  }

  return {
    chunk: {
      meta_data: {
        type,
        encodings,
        path_in_schema: schemaPath.slice(1).map(s => s.name),
        codec: column.codec ?? 'UNCOMPRESSED',
        num_values: BigInt(values.length),
        total_compressed_size: BigInt(writer.offset - offsetStart),
        total_uncompressed_size: BigInt(uncompressedSize),
        data_page_offset,
        dictionary_page_offset,
        statistics,
        encoding_stats,
        geospatial_statistics,
      },
      file_offset: BigInt(offsetStart),
    },
    columnIndex,
    offsetIndex,
    bloomFilter,
  }
}

/**
 * Split values into pages by estimated byte size. A page can only begin at a
 * row boundary (repetition level 0), as data page v2 requires: a row never
 * spans pages, so a page may run past pageSize to reach the next row.
 *
 * @param {DecodedArray} values
 * @param {ParquetType} type
 * @param {number | undefined} type_length
 * @param {number} pageSize
 * @param {number[]} [repetitionLevels] empty for unrepeated columns
 * @returns {{start: number, end: number}[]}
 */
function getPageBoundaries(values, type, type_length, pageSize, repetitionLevels = []) {
  // If no pageSize limit, return single page with all values
  if (!pageSize) {
    return [{ start: 0, end: values.length }]
  }

  const boundaries = []
  let start = 0
  let accumulatedBytes = 0

  for (let i = 0; i < values.length; i++) {
    const valueSize = estimateValueSize(values[i], type, type_length)
    accumulatedBytes += valueSize

    // Check if we should start a new page
    const rowStart = !repetitionLevels.length || repetitionLevels[i] === 0
    if (accumulatedBytes >= pageSize && i > start && rowStart) {
      boundaries.push({ start, end: i })
      start = i
      accumulatedBytes = valueSize
    }
  }

  // Final page with remaining values
  if (start < values.length) {
    boundaries.push({ start, end: values.length })
  }

  return boundaries
}

/**
 * @param {DecodedArray} values
 * @param {SchemaElement} element
 * @returns {ChunkStatistics}
 */
function getStatistics(values, element) {
  let min_value = undefined
  let max_value = undefined
  let null_count = 0n
  let nan_count = isFloat(element) ? 0n : undefined
  for (const value of values) {
    if (value === null || value === undefined) {
      null_count++
      continue
    }
    const statisticValue = physicalStatistic(value, element)
    if (typeof statisticValue === 'object' && !(statisticValue instanceof Uint8Array)) continue
    if (typeof statisticValue === 'number' && Number.isNaN(statisticValue)) {
      if (nan_count !== undefined) nan_count++
      continue // skip NaN per parquet spec
    }
    if (min_value === undefined || compareValues(statisticValue, min_value) < 0) min_value = statisticValue
    if (max_value === undefined || compareValues(statisticValue, max_value) > 0) max_value = statisticValue
  }
  // Normalize signed zero per parquet spec: min becomes -0, max becomes +0
  if (min_value === 0) min_value = -0
  if (max_value === 0) max_value = 0
  return { min_value, max_value, null_count, nan_count }
}

/**
 * @param {SchemaElement} element
 * @returns {boolean}
 */
function isFloat({ type, logical_type }) {
  return type === 'FLOAT' || type === 'DOUBLE' || logical_type?.type === 'FLOAT16'
}

/**
 * Normalize values that have more than one input representation, so that
 * statistics compare them as the physical values they are written as. DECIMAL
 * numbers are logical values while bigints are already unscaled, and a Date in
 * a DATE or TIMESTAMP column is stored in the column's unit.
 *
 * @param {any} value
 * @param {SchemaElement} element
 * @returns {any}
 */
function physicalStatistic(value, element) {
  if (element.converted_type === 'DECIMAL' && typeof value === 'number') {
    return BigInt(Math.round(value * 10 ** (element.scale || 0)))
  }
  if (value instanceof Date && (element.type === 'INT32' || element.type === 'INT64')) {
    return unconvert(element, [value])[0]
  }
  return value
}

/**
 * Compare primitive statistic values or Parquet byte arrays. Byte arrays use
 * unsigned lexicographic order, as required for BYTE_ARRAY min/max bounds.
 *
 * @param {any} left
 * @param {any} right
 * @returns {number}
 */
function compareValues(left, right) {
  if (left instanceof Uint8Array && right instanceof Uint8Array) {
    const length = Math.min(left.length, right.length)
    for (let i = 0; i < length; i += 1) {
      if (left[i] !== right[i]) return left[i] - right[i]
    }
    return left.length - right.length
  }
  if (typeof left === 'string' && typeof right === 'string') return compareStrings(left, right)
  if (left < right) return -1
  if (left > right) return 1
  return 0
}

/**
 * Compare strings in UTF-8 byte order, which is code point order. JavaScript
 * `<` compares UTF-16 code units, which misorders supplementary characters
 * (surrogate pairs) against U+E000..U+FFFF. Lone surrogates compare as U+FFFD,
 * matching how TextEncoder writes them.
 *
 * @param {string} left
 * @param {string} right
 * @returns {number}
 */
function compareStrings(left, right) {
  if (left === right) return 0
  const length = Math.min(left.length, right.length)
  let i = 0
  while (i < length && left.charCodeAt(i) === right.charCodeAt(i)) i++
  // back up if the difference is in the low half of a surrogate pair
  if (i > 0) {
    const prev = left.charCodeAt(i - 1)
    if (prev >= 0xd800 && prev <= 0xdbff) i--
  }
  while (i < left.length && i < right.length) {
    const a = codePointAt(left, i)
    const b = codePointAt(right, i)
    if (a !== b) return a - b
    i += a > 0xffff ? 2 : 1
  }
  return left.length - right.length
}

/**
 * @param {string} str
 * @param {number} i
 * @returns {number}
 */
function codePointAt(str, i) {
  const code = str.codePointAt(i) ?? 0xfffd
  return code >= 0xd800 && code <= 0xdfff ? 0xfffd : code
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/dremel.js


/**
 * @import {DecodedArray, SchemaElement, SchemaTree} from 'hyparquet'
 * @import {PageData} from '../src/types.js'
 */

/**
 * Encode column values into repetition and definition levels following the
 * Dremel algorithm. Returns page data for one subcolumn (leaf node in the schema).
 *
 * @param {SchemaTree[]} treePath schema tree nodes from root to leaf
 * @param {DecodedArray} rows top-level column data
 * @returns {PageData}
 */
function encodeNestedValues(treePath, rows) {
  const schemaPath = treePath.map(n => n.element)
  if (treePath.length < 2) throw new Error('parquet schema path must include column')

  /** @type {number[]} */
  const definitionLevels = []
  /** @type {number[]} */
  const repetitionLevels = []
  const maxDefinitionLevel = getMaxDefinitionLevel(treePath)

  // Flat required columns don't need dremel encoding
  if (treePath.length === 2 && maxDefinitionLevel === 0) {
    return { values: rows, definitionLevels, repetitionLevels, maxDefinitionLevel }
  }

  // Flat optional columns: just compute definition levels
  if (treePath.length === 2 && maxDefinitionLevel === 1) {
    const definitionLevels = new Array(rows.length)
    for (let i = 0; i < rows.length; i++) {
      definitionLevels[i] = rows[i] === null || rows[i] === undefined ? 0 : 1
    }
    return { values: rows, definitionLevels, repetitionLevels, maxDefinitionLevel }
  }

  // Track repetition depth prior to each level
  const repLevelPrior = new Array(treePath.length)
  let repeatedCount = 0
  for (let i = 0; i < treePath.length; i++) {
    repLevelPrior[i] = repeatedCount
    if (schemaPath[i].repetition_type === 'REPEATED') repeatedCount++
  }

  /** @type {any[]} */
  const values = []

  for (const row of rows) {
    visit(1, row, 0, 0, false)
  }

  return { values, definitionLevels, repetitionLevels, maxDefinitionLevel }

  /**
   * Recursively walk the schema path, emitting definition/repetition pairs.
   *
   * @param {number} depth index into schemaPath
   * @param {any} value value at the current depth
   * @param {number} defLevel definition level accumulated so far
   * @param {number} repLevel repetition level for the next emitted slot
   * @param {boolean} allowNull whether the current value is allowed to be null
   */
  function visit(depth, value, defLevel, repLevel, allowNull) {
    const element = schemaPath[depth]
    const repetition = element.repetition_type || 'REQUIRED'

    // Leaf node
    if (depth === treePath.length - 1) {
      if (value === null || value === undefined) {
        if (repetition === 'REQUIRED' && !allowNull) {
          throw new Error('parquet required value is undefined')
        }
        definitionLevels.push(defLevel)
      } else {
        definitionLevels.push(repetition === 'REQUIRED' ? defLevel : defLevel + 1)
      }
      repetitionLevels.push(repLevel)
      values.push(value)
      return
    }

    if (repetition === 'REPEATED') {
      if (value === null || value === undefined) {
        if (!allowNull) throw new Error('parquet required value is undefined')
        visit(depth + 1, undefined, defLevel, repLevel, true)
        return
      }
      if (!Array.isArray(value)) {
        throw new Error(`parquet repeated field ${element.name} must be an array`)
      }
      if (!value.length) {
        visit(depth + 1, undefined, defLevel, repLevel, true)
        return
      }
      // For MAP key_value entries, extract the child field (key or value) from each entry
      const isMapEntry = isMapLike(treePath[depth - 1])
      const childElement = schemaPath[depth + 1]
      for (let i = 0; i < value.length; i++) {
        let childValue = value[i]
        if (isMapEntry && childValue && typeof childValue === 'object' && childElement) {
          childValue = childValue[childElement.name]
        }
        const childRep = i === 0 ? repLevel : repLevelPrior[depth] + 1
        visit(depth + 1, childValue, defLevel + 1, childRep, false)
      }
      return
    }

    if (repetition === 'OPTIONAL') {
      if (value === null || value === undefined) {
        visit(depth + 1, undefined, defLevel, repLevel, true)
      } else {
        const childValue = getChildValue(depth, value)
        const childIsNull = childValue === null || childValue === undefined
        // Increment def level if: (1) this is a struct (contributes to def even if child is null),
        // or (2) the child value exists. LIST/MAP wrappers don't increment def level themselves.
        const isLogicalContainer = isListLike(treePath[depth]) || isMapLike(treePath[depth])
        const isStruct = element.num_children && !element.type && !isLogicalContainer
        const nextDef = isStruct || !childIsNull ? defLevel + 1 : defLevel
        visit(depth + 1, childValue, nextDef, repLevel, childIsNull)
      }
      return
    }

    // REQUIRED
    if (value === null || value === undefined) {
      if (!allowNull) throw new Error('parquet required value is undefined')
      visit(depth + 1, undefined, defLevel, repLevel, true)
    } else {
      visit(depth + 1, getChildValue(depth, value), defLevel, repLevel, false)
    }
  }

  /**
   * Select the child value for the next schema element in the path.
   * Normalizes maps to {key, value} entries.
   *
   * @param {number} depth current schema depth
   * @param {any} currentValue current value at this depth
   * @returns {any}
   */
  function getChildValue(depth, currentValue) {
    if (currentValue === null || currentValue === undefined) return undefined
    const child = schemaPath[depth + 1]
    if (!child) return undefined

    // LIST and MAP wrappers
    if (isListLike(treePath[depth])) return currentValue
    if (isMapLike(treePath[depth])) {
      return normalizeMap(currentValue, schemaPath[depth])
    }

    if (typeof currentValue === 'object' && !Array.isArray(currentValue)) {
      return currentValue[child.name]
    }

    throw new Error(`parquet expected struct, got ${currentValue}`)
  }

}

/**
 * Normalize a map value to an array of {key, value} entries.
 * Accepts Map, plain object, array of [k, v] pairs, or array of {key, value}.
 *
 * @param {any} value
 * @param {SchemaElement} element
 * @returns {{key: any, value: any}[]}
 */
function normalizeMap(value, element) {
  if (value instanceof Map) {
    return Array.from(value.entries(), ([k, v]) => ({ key: k, value: v }))
  }
  if (Array.isArray(value)) {
    return value.map(entry => {
      if (entry && typeof entry === 'object' && 'key' in entry && 'value' in entry) {
        return entry
      }
      if (Array.isArray(entry) && entry.length === 2) {
        return { key: entry[0], value: entry[1] }
      }
      throw new Error('parquet map entry must provide key and value')
    })
  }
  if (typeof value === 'object') {
    return Object.entries(value).map(([k, v]) => ({ key: k, value: v }))
  }
  throw new Error(`parquet map field ${element.name} must be Map, array, or object`)
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/indexes.js



/**
 * @import {ColumnChunk, OffsetIndex} from 'hyparquet'
 * @import {PageColumnIndex, PageIndexes, Writer} from '../src/types.js'
 */

/**
 * Write ColumnIndex and OffsetIndex for the given columns.
 *
 * @param {Writer} writer
 * @param {PageIndexes[]} pageIndexes
 */
function writeIndexes(writer, pageIndexes) {
  for (const { chunk, columnIndex } of pageIndexes) {
    writeColumnIndex(writer, chunk, columnIndex)
  }
  for (const { chunk, offsetIndex } of pageIndexes) {
    writeOffsetIndex(writer, chunk, offsetIndex)
  }
}

/**
 * @param {Writer} writer
 * @param {ColumnChunk} columnChunk
 * @param {PageColumnIndex} [columnIndex]
 */
function writeColumnIndex(writer, columnChunk, columnIndex) {
  // Page indexes only help when multiple pages
  if (!columnIndex || columnIndex.min_values.length <= 1) return
  const columnIndexOffset = writer.offset
  serializeTCompactProtocol(writer, {
    field_1: columnIndex.null_pages,
    field_2: columnIndex.min_values,
    field_3: columnIndex.max_values,
    field_4: BoundaryOrders.indexOf(columnIndex.boundary_order),
    field_5: columnIndex.null_counts,
    field_8: columnIndex.nan_counts,
  })
  columnChunk.column_index_offset = BigInt(columnIndexOffset)
  columnChunk.column_index_length = writer.offset - columnIndexOffset
}

/**
 * @param {Writer} writer
 * @param {ColumnChunk} columnChunk
 * @param {OffsetIndex} [offsetIndex]
 */
function writeOffsetIndex(writer, columnChunk, offsetIndex) {
  // Page indexes only help when multiple pages
  if (!offsetIndex || offsetIndex.page_locations.length <= 1) return
  const offsetIndexOffset = writer.offset
  serializeTCompactProtocol(writer, {
    field_1: offsetIndex.page_locations.map(p => ({
      field_1: p.offset,
      field_2: p.compressed_page_size,
      field_3: p.first_row_index,
    })),
  })
  columnChunk.offset_index_offset = BigInt(offsetIndexOffset)
  columnChunk.offset_index_length = writer.offset - offsetIndexOffset
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/metadata.js





/**
 * @import {BoundingBox, FileMetaData, LogicalType, SchemaElement, TimeUnit} from 'hyparquet'
 * @import {PreconvertedThriftStruct, ThriftObject, Writer} from '../src/types.js'
 */

/**
 * Write Parquet file metadata as thrift.
 *
 * @param {Writer} writer
 * @param {FileMetaData} metadata
 * @param {number} [statisticsTruncateLength] max bytes for a byte-array min/max
 */
function writeMetadata(writer, metadata, statisticsTruncateLength) {
  const resolveSchemaPath = schemaPathResolver(metadata.schema)
  /** @type {ThriftObject} */
  const compact = {
    field_1: metadata.version,
    field_2: metadata.schema.map(element => ({
      field_1: element.type && constants_ParquetTypes.indexOf(element.type),
      field_2: element.type_length,
      field_3: element.repetition_type && constants_FieldRepetitionTypes.indexOf(element.repetition_type),
      field_4: element.name,
      field_5: element.num_children,
      field_6: element.converted_type && constants_ConvertedTypes.indexOf(element.converted_type),
      field_7: element.scale,
      field_8: element.precision,
      field_9: element.field_id,
      field_10: metadata_logicalType(element.logical_type),
    })),
    field_3: metadata.num_rows,
    field_4: metadata.row_groups.map(rg => ({
      field_1: rg.columns.map(c => ({
        field_1: c.file_path,
        field_2: c.file_offset,
        field_3: c.meta_data && {
          field_1: constants_ParquetTypes.indexOf(c.meta_data.type),
          field_2: c.meta_data.encodings.map(e => constants_Encodings.indexOf(e)),
          field_3: c.meta_data.path_in_schema,
          field_4: constants_CompressionCodecs.indexOf(c.meta_data.codec),
          field_5: c.meta_data.num_values,
          field_6: c.meta_data.total_uncompressed_size,
          field_7: c.meta_data.total_compressed_size,
          field_8: c.meta_data.key_value_metadata && c.meta_data.key_value_metadata.map(kv => ({
            field_1: kv.key,
            field_2: kv.value,
          })),
          field_9: c.meta_data.data_page_offset,
          field_10: c.meta_data.index_page_offset,
          field_11: c.meta_data.dictionary_page_offset,
          field_12: c.meta_data.statistics && unconvertStatistics(
            c.meta_data.statistics,
            schemaElement(c.meta_data.path_in_schema),
            statisticsTruncateLength
          ),
          field_13: c.meta_data.encoding_stats && c.meta_data.encoding_stats.map(es => ({
            field_1: constants_PageTypes.indexOf(es.page_type),
            field_2: constants_Encodings.indexOf(es.encoding),
            field_3: es.count,
          })),
          field_14: c.meta_data.bloom_filter_offset,
          field_15: c.meta_data.bloom_filter_length,
          field_16: c.meta_data.size_statistics && {
            field_1: c.meta_data.size_statistics.unencoded_byte_array_data_bytes,
            field_2: c.meta_data.size_statistics.repetition_level_histogram,
            field_3: c.meta_data.size_statistics.definition_level_histogram,
          },
          field_17: c.meta_data.geospatial_statistics && {
            field_1: c.meta_data.geospatial_statistics.bbox && thriftBoundingBox(c.meta_data.geospatial_statistics.bbox),
            field_2: c.meta_data.geospatial_statistics.geospatial_types,
          },
        },
        field_4: c.offset_index_offset,
        field_5: c.offset_index_length,
        field_6: c.column_index_offset,
        field_7: c.column_index_length,
        // field_8: c.crypto_metadata,
        field_9: c.encrypted_column_metadata,
      })),
      field_2: rg.total_byte_size,
      field_3: rg.num_rows,
      field_4: rg.sorting_columns && rg.sorting_columns.map(sc => ({
        field_1: sc.column_idx,
        field_2: sc.descending,
        field_3: sc.nulls_first,
      })),
      field_5: rg.file_offset,
      field_6: rg.total_compressed_size,
      // field_7: rg.ordinal, // should be int16
    })),
    field_5: metadata.key_value_metadata && metadata.key_value_metadata.map(kv => ({
      field_1: kv.key,
      field_2: kv.value,
    })),
    field_6: metadata.created_by,
    field_7: metadata.schema.filter(element => element.type).map(() => ({ field_1: {} })),
  }

  // write metadata as thrift
  const metadataStart = writer.offset
  serializeTCompactProtocol(writer, compact)
  // write metadata length
  const metadataLength = writer.offset - metadataStart
  writer.appendUint32(metadataLength)

  /**
   * Resolve schema element for statistics using the stored path.
   *
   * @param {string[]} path
   * @returns {SchemaElement}
   */
  function schemaElement(path) {
    const tree = resolveSchemaPath(path)
    return tree[tree.length - 1].element
  }
}

/**
 * Convert bounds to a struct with explicitly typed DOUBLE fields.
 *
 * @param {BoundingBox} bbox
 * @returns {PreconvertedThriftStruct}
 */
function thriftBoundingBox(bbox) {
  return new ThriftStruct([
    [1, DOUBLE, bbox.xmin],
    [2, DOUBLE, bbox.xmax],
    [3, DOUBLE, bbox.ymin],
    [4, DOUBLE, bbox.ymax],
    [5, DOUBLE, bbox.zmin],
    [6, DOUBLE, bbox.zmax],
    [7, DOUBLE, bbox.mmin],
    [8, DOUBLE, bbox.mmax],
  ])
}

/**
 * @param {LogicalType | undefined} type
 * @returns {ThriftObject | undefined}
 */
function metadata_logicalType(type) {
  if (!type) return
  if (type.type === 'STRING') return { field_1: {} }
  if (type.type === 'MAP') return { field_2: {} }
  if (type.type === 'LIST') return { field_3: {} }
  if (type.type === 'ENUM') return { field_4: {} }
  if (type.type === 'DECIMAL') return { field_5: {
    field_1: type.scale,
    field_2: type.precision,
  } }
  if (type.type === 'DATE') return { field_6: {} }
  if (type.type === 'TIME') return { field_7: {
    field_1: type.isAdjustedToUTC,
    field_2: metadata_timeUnit(type.unit),
  } }
  if (type.type === 'TIMESTAMP') return { field_8: {
    field_1: type.isAdjustedToUTC,
    field_2: metadata_timeUnit(type.unit),
  } }
  if (type.type === 'INTEGER') return { field_10: {
    field_1: type.bitWidth,
    field_2: type.isSigned,
  } }
  if (type.type === 'NULL') return { field_11: {} }
  if (type.type === 'JSON') return { field_12: {} }
  if (type.type === 'BSON') return { field_13: {} }
  if (type.type === 'UUID') return { field_14: {} }
  if (type.type === 'FLOAT16') return { field_15: {} }
  if (type.type === 'VARIANT') return { field_16: {} }
  if (type.type === 'GEOMETRY') return { field_17: {
    field_1: type.crs,
  } }
  if (type.type === 'GEOGRAPHY') return { field_18: {
    field_1: type.crs,
    field_2: type.algorithm && constants_EdgeInterpolationAlgorithms.indexOf(type.algorithm),
  } }
}

/**
 * @param {TimeUnit} unit
 * @returns {ThriftObject}
 */
function metadata_timeUnit(unit) {
  if (unit === 'NANOS') return { field_3: {} }
  if (unit === 'MICROS') return { field_2: {} }
  return { field_1: {} }
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/snappy.js
/**
 * The MIT License (MIT)
 * Copyright (c) 2016 Zhipeng Jia
 * https://github.com/zhipeng-jia/snappyjs
 */



/**
 * @import {Writer} from '../src/types.js'
 */

const MAX_HASH_TABLE_BITS = 14
const MAX_OFFSET = 0xffff
const globalHashTables = new Array(MAX_HASH_TABLE_BITS + 1)

/**
 * Compress snappy data.
 * Returns Snappy-compressed bytes as Uint8Array.
 *
 * @param {Uint8Array} input - uncompressed data
 * @returns {Uint8Array}
 */
function snappyCompress(input) {
  const writer = new bytewriter_ByteWriter()
  writer.appendVarInt(input.length) // uncompressed length

  compressInput(writer, input)

  return writer.getBytes()
}

/**
 * Hash function used in the reference implementation.
 *
 * @param {number} key
 * @param {number} hashFuncShift
 * @returns {number}
 */
function hashFunc(key, hashFuncShift) {
  return Math.imul(key, 0x1e35a7bd) >>> hashFuncShift
}

/**
 * Load a 32-bit little-endian integer from a byte array.
 *
 * @param {Uint8Array} array
 * @param {number} pos
 * @returns {number}
 */
function load32(array, pos) {
  return (
    array[pos] +
    (array[pos + 1] << 8) +
    (array[pos + 2] << 16) +
    (array[pos + 3] << 24)
  )
}

/**
 * Compare two 32-bit sequences for equality.
 *
 * @param {Uint8Array} array
 * @param {number} pos1
 * @param {number} pos2
 * @returns {boolean}
 */
function equals32(array, pos1, pos2) {
  return (
    array[pos1] === array[pos2] &&
    array[pos1 + 1] === array[pos2 + 1] &&
    array[pos1 + 2] === array[pos2 + 2] &&
    array[pos1 + 3] === array[pos2 + 3]
  )
}

/**
 * Emit a literal chunk of data.
 * @param {Writer} writer
 * @param {Uint8Array} input
 * @param {number} ip
 * @param {number} len
 */
function emitLiteral(writer, input, ip, len) {
  // The first byte(s) encode the literal length
  if (len <= 60) {
    writer.appendUint8(len - 1 << 2)
  } else {
    const value = len - 1
    const bytes = value < 0x100 ? 1 : value < 0x10000 ? 2 : value < 0x1000000 ? 3 : 4
    writer.appendUint8(59 + bytes << 2)
    for (let i = 0; i < bytes; i++) {
      writer.appendUint8(value >>> i * 8)
    }
  }

  // Then copy the literal bytes
  writer.appendBytes(input.subarray(ip, ip + len))
}

/**
 * Emit a copy of previous data.
 * @param {Writer} writer
 * @param {number} offset
 * @param {number} len
 */
function emitCopyLessThan64(writer, offset, len) {
  if (len < 12 && offset < 2048) {
    // Copy 4..11 bytes, offset < 2048
    //    --> [  1   | (len-4)<<2 | (offset>>8)<<5 ]
    writer.appendUint8(1 + (len - 4 << 2) + (offset >>> 8 << 5))
    writer.appendUint8(offset & 0xff)
  } else {
    // Copy len bytes, offset 1..65535
    //    --> [  2   | (len-1)<<2 ]
    writer.appendUint8(2 + (len - 1 << 2))
    writer.appendUint8(offset & 0xff)
    writer.appendUint8(offset >>> 8)
  }
}

/**
 * Emit a copy of previous data.
 * @param {Writer} writer
 * @param {number} offset
 * @param {number} len
 */
function emitCopy(writer, offset, len) {
  // Emit 64-byte copies as long as we can
  while (len >= 68) {
    emitCopyLessThan64(writer, offset, 64)
    len -= 64
  }
  // Emit one 60-byte copy if needed
  if (len > 64) {
    emitCopyLessThan64(writer, offset, 60)
    len -= 60
  }
  // Final copy
  emitCopyLessThan64(writer, offset, len)
}

/**
 * Compress input data.
 * @param {Writer} writer
 * @param {Uint8Array} input
 */
function compressInput(writer, input) {
  const inputSize = input.length
  let hashTableBits = 1
  while (1 << hashTableBits <= inputSize && hashTableBits <= MAX_HASH_TABLE_BITS) {
    hashTableBits++
  }
  hashTableBits--
  const hashFuncShift = 32 - hashTableBits

  // Initialize the hash table
  globalHashTables[hashTableBits] ??= new Uint32Array(1 << hashTableBits)
  const hashTable = globalHashTables[hashTableBits]
  hashTable.fill(0)

  const ipEnd = inputSize
  let ipLimit
  let ip = 0
  let nextEmit = 0

  let hash, nextHash
  let nextIp, candidate, skip
  let bytesBetweenHashLookups
  let base, matched, offset
  let prevHash, curHash
  let flag = true

  const INPUT_MARGIN = 15
  if (inputSize >= INPUT_MARGIN) {
    ipLimit = ipEnd - INPUT_MARGIN
    ip++
    nextHash = hashFunc(load32(input, ip), hashFuncShift)

    while (flag) {
      skip = 32
      nextIp = ip
      do {
        ip = nextIp
        hash = nextHash
        bytesBetweenHashLookups = skip >>> 5
        skip++
        nextIp = ip + bytesBetweenHashLookups
        if (ip > ipLimit) {
          flag = false
          break
        }
        nextHash = hashFunc(load32(input, nextIp), hashFuncShift)
        candidate = hashTable[hash]
        hashTable[hash] = ip
      } while (ip - candidate > MAX_OFFSET || !equals32(input, ip, candidate))

      if (!flag) {
        break
      }

      // Emit the literal from `nextEmit` to `ip`
      emitLiteral(writer, input, nextEmit, ip - nextEmit)

      // We found a match. Repeatedly match and emit copies
      do {
        base = ip
        matched = 4
        while (
          ip + matched < ipEnd &&
          input[ip + matched] === input[candidate + matched]
        ) {
          matched++
        }
        ip += matched
        offset = base - candidate
        emitCopy(writer, offset, matched)

        nextEmit = ip
        if (ip >= ipLimit) {
          flag = false
          break
        }
        prevHash = hashFunc(load32(input, ip - 1), hashFuncShift)
        hashTable[prevHash] = ip - 1
        curHash = hashFunc(load32(input, ip), hashFuncShift)
        candidate = hashTable[curHash]
        hashTable[curHash] = ip
      } while (ip - candidate <= MAX_OFFSET && equals32(input, ip, candidate))

      if (!flag) {
        break
      }

      ip++
      nextHash = hashFunc(load32(input, ip), hashFuncShift)
    }
  }

  // Emit the last literal (if any)
  if (nextEmit < ipEnd) {
    emitLiteral(writer, input, nextEmit, ipEnd - nextEmit)
  }
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/variant.js


const encoder = new TextEncoder()
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const VARIANT_NULL = new Uint8Array([0x00])
const RESERVED_SHREDDING_FIELDS = new Set(['value', 'typed_value'])
/** @type {Map<string, number>} */
const EMPTY_KEY_INDEX = new Map()
const EMPTY_METADATA = writeVariantMetadata([])

/**
 * Encode an array of arbitrary JS values into variant binary format.
 * Each row becomes { metadata, value } (or null for missing values).
 * When shredding is provided, produces { metadata, value, typed_value } per row.
 *
 * @import {BasicType, ShredType} from '../src/types.js'
 * @param {any[]} values
 * @param {ShredType | undefined} shredding
 * @param {{ name: string, required: boolean }} [column]
 * @returns {Array<Record<string, any> | null>}
 */
function encodeVariantColumn(values, shredding, column) {
  if (column?.required) {
    for (let i = 0; i < values.length; i++) {
      if (values[i] === undefined) {
        throw new Error(`required variant column ${column.name} has undefined value at index ${i}`)
      }
    }
  }
  // Scratch writers are safe to reuse after their bytes have been copied into
  // a parent. Keep the pool local so no buffers are retained between columns.
  /** @type {ByteWriter[]} */
  const scratchWriters = []
  const shreddingConfig = shredding && variant_normalizeShreddingConfig(shredding)
  if (shreddingConfig) {
    // Cache (metadata, keyIndex) by sorted-dictionary signature so rows with
    // the same set of keys share a single Uint8Array + Map.
    /** @type {Map<string, { metadata: Uint8Array, keyIndex: Map<string, number> }>} */
    const metadataCache = new Map()
    return values.map(value => {
      // undefined is a missing row; null is a present Variant null.
      if (value === undefined) return null
      // Build the metadata dictionary from every nested key in the row. The
      // reader uses dictionary membership to decide which object fields are
      // present, so all present keys (shredded or not) must be in the dictionary.
      /** @type {Set<string>} */
      const keys = new Set()
      collectKeys(value, keys)
      const { metadata, keyIndex } = getVariantRowMetadata(keys, metadataCache)
      return { metadata, ...encodeShredded(value, shreddingConfig, keyIndex, true, scratchWriters) }
    })
  }

  const dictionary = buildVariantDictionary(values)
  const metadata = writeVariantMetadata(dictionary)
  /** @type {Map<string, number>} */
  const keyIndex = new Map()
  for (let i = 0; i < dictionary.length; i++) {
    keyIndex.set(dictionary[i], i)
  }
  return values.map(value => {
    // Keep top-level null as a present Variant null (0x00). Only undefined is missing.
    if (value === undefined) return null
    return { metadata, value: writeVariantValue(value, keyIndex, scratchWriters) }
  })
}

/**
 * Recursively encode a value against a shred type into a { value, typed_value }
 * shredded group (the metadata wrapper is added by the caller at the top level).
 *
 * Shape rules (per the Variant shredding spec):
 * - scalar: matches the type -> typed_value holds the value, value is null;
 *   otherwise fall back to a binary variant in value.
 * - object: shredded fields go into the typed_value struct (absent fields are
 *   omitted), remaining fields are packed into a binary value.
 * - array: each element is recursively shredded into the typed_value LIST, value
 *   is null. A non-array value falls back to a binary value.
 *
 * @param {any} value
 * @param {ShredType} shredType
 * @param {Map<string, number>} keyIndex
 * @param {boolean} allowPartialObjects
 * @param {ByteWriter[]} scratchWriters
 * @returns {{ value: Uint8Array | null, typed_value: any }}
 */
function encodeShredded(value, shredType, keyIndex, allowPartialObjects, scratchWriters) {
  // Present Variant null: value holds variant null, typed_value is null.
  if (value === null || value === undefined) {
    return { value: VARIANT_NULL, typed_value: null }
  }

  // Array shred type
  if (Array.isArray(shredType)) {
    if (!Array.isArray(value)) {
      // Not an array: typed_value must be null, store the value as binary.
      return { value: writeVariantValue(value, keyIndex, scratchWriters), typed_value: null }
    }
    const elemShred = shredType[0]
    return {
      value: null,
      typed_value: value.map(el => encodeShredded(el, elemShred, keyIndex, false, scratchWriters)),
    }
  }

  // Object shred type
  if (typeof shredType === 'object') {
    // Not a plain object: fall back to a binary value.
    if (typeof value !== 'object' || Array.isArray(value) || value instanceof Date || value instanceof Uint8Array) {
      return { value: writeVariantValue(value, keyIndex, scratchWriters), typed_value: null }
    }

    // Remaining (non-shredded) fields are packed into a binary value.
    /** @type {Record<string, any>} */
    const remaining = {}
    let hasRemaining = false
    for (const k of Object.keys(value)) {
      if (k in shredType || value[k] === undefined) continue
      remaining[k] = value[k]
      hasRemaining = true
    }
    if (hasRemaining && !allowPartialObjects) {
      return { value: writeVariantValue(value, keyIndex, scratchWriters), typed_value: null }
    }

    const fieldNames = Object.keys(shredType)
    const hasMissingFieldConflict = fieldNames.some(fieldName =>
      (!Object.prototype.hasOwnProperty.call(value, fieldName) || value[fieldName] === undefined) &&
      keyIndex.has(fieldName)
    )
    if (hasMissingFieldConflict) {
      return { value: writeVariantValue(value, keyIndex, scratchWriters), typed_value: null }
    }

    /** @type {Record<string, any>} */
    const typedValue = {}
    for (const fieldName of fieldNames) {
      if (!Object.prototype.hasOwnProperty.call(value, fieldName) || value[fieldName] === undefined) {
        // missing field: omit the optional field wrapper entirely
        continue
      }
      typedValue[fieldName] = encodeShredded(
        value[fieldName], shredType[fieldName], keyIndex, false, scratchWriters
      )
    }
    const binaryValue = hasRemaining ? writeVariantValue(remaining, keyIndex, scratchWriters) : null

    return { value: binaryValue, typed_value: typedValue }
  }

  // Scalar shred type
  if (matchesType(value, shredType)) {
    return { value: null, typed_value: value }
  }
  return { value: writeVariantValue(value, keyIndex, scratchWriters), typed_value: null }
}

/**
 * Build metadata and keyIndex, sharing across rows with the same dictionary.
 *
 * @param {Set<string>} keys
 * @param {Map<string, { metadata: Uint8Array, keyIndex: Map<string, number> }>} metadataCache
 * @returns {{ metadata: Uint8Array, keyIndex: Map<string, number> }}
 */
function getVariantRowMetadata(keys, metadataCache) {
  if (keys.size === 0) {
    return { metadata: EMPTY_METADATA, keyIndex: EMPTY_KEY_INDEX }
  }

  const dictionary = [...keys].sort()
  const cacheKey = dictionary.join('\0')
  const cached = metadataCache.get(cacheKey)
  if (cached) {
    return cached
  }

  const metadata = writeVariantMetadata(dictionary)
  const keyIndex = new Map()
  for (let i = 0; i < dictionary.length; i++) keyIndex.set(dictionary[i], i)
  const rowMetadata = { metadata, keyIndex }
  metadataCache.set(cacheKey, rowMetadata)
  return rowMetadata
}

/**
 * Check if a JS value matches a BasicType for shredding.
 *
 * @param {any} value
 * @param {BasicType} type
 * @returns {boolean}
 */
function matchesType(value, type) {
  if (value === null || value === undefined) return false
  switch (type) {
  case 'BOOLEAN': return typeof value === 'boolean'
  case 'INT32': return typeof value === 'number' && Number.isInteger(value) && value >= -2147483648 && value <= 2147483647
  case 'INT64': return typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX
  case 'FLOAT': return typeof value === 'number'
  case 'DOUBLE': return typeof value === 'number'
  case 'STRING': return typeof value === 'string'
  case 'TIMESTAMP': return value instanceof Date
  default: return false
  }
}

// Conservative defaults for auto-detected shredding. Shredding is a query
// optimization, not a compression one: each shredded leaf is a full column
// (page headers, dictionary page, offset index), so deep/wide structures
// auto-shred into hundreds of columns and bloat the file. Auto-detect only
// descends a couple of container levels and bails on very wide schemas,
// leaving the rest in the binary value fallback. Explicit configs are unbounded.
const MAX_SHRED_DEPTH = 3
const MAX_SHRED_LEAVES = 256

/**
 * Auto-detect a shredding config by recursively analyzing values for consistent
 * structure. Detects scalar fields, nested objects, and arrays. Only structured
 * top-level values (objects/arrays) are shredded; a column of bare scalars is
 * left unshredded. Descent is bounded (see MAX_SHRED_DEPTH/MAX_SHRED_LEAVES) to
 * avoid exploding deeply nested variants into a column per leaf.
 *
 * @param {any[]} values
 * @returns {ShredType | undefined}
 */
function autoDetectShredding(values) {
  const detected = detectShred(values, 0)
  // Top level: only shred structured values (objects/arrays), not bare scalars.
  if (detected === undefined || typeof detected !== 'object') return undefined
  const normalized = variant_normalizeShreddingConfig(detected)
  // Leave pathologically wide schemas as a single binary value.
  if (normalized === undefined || countShredLeaves(normalized) > MAX_SHRED_LEAVES) return undefined
  return normalized
}

/**
 * Count the typed leaf columns a shred type expands into (per array element).
 *
 * @param {ShredType} shredType
 * @returns {number}
 */
function countShredLeaves(shredType) {
  if (Array.isArray(shredType)) return shredType.length ? countShredLeaves(shredType[0]) : 0
  if (shredType && typeof shredType === 'object') {
    let leaves = 0
    for (const key of Object.keys(shredType)) leaves += countShredLeaves(shredType[key])
    return leaves
  }
  return 1 // scalar leaf
}

/**
 * Recursively detect a shred type from a pool of sample values at one position.
 * Returns undefined when the values are not consistently shreddable, or when a
 * container is nested deeper than MAX_SHRED_DEPTH (left as binary fallback).
 *
 * @param {any[]} values
 * @param {number} depth container nesting levels already descended
 * @returns {ShredType | undefined}
 */
function detectShred(values, depth) {
  /** @type {any[]} */
  const nonNull = []
  for (const v of values) {
    if (v !== null && v !== undefined) nonNull.push(v)
  }
  if (!nonNull.length) return undefined

  // Object shred: any plain object present. Non-objects are ignored here and
  // fall back to binary at encode time.
  if (nonNull.some(isPlainObject)) {
    if (depth >= MAX_SHRED_DEPTH) return undefined
    /** @type {Map<string, any[]>} field name -> its present values */
    const fieldValues = new Map()
    for (const v of nonNull) {
      if (!isPlainObject(v)) continue
      for (const [key, fieldValue] of Object.entries(v)) {
        if (fieldValue === undefined) continue
        const arr = fieldValues.get(key)
        if (arr) arr.push(fieldValue)
        else fieldValues.set(key, [fieldValue])
      }
    }
    /** @type {Record<string, ShredType>} */
    const shredding = {}
    for (const [key, vals] of fieldValues) {
      const fieldShred = detectShred(vals, depth + 1)
      if (fieldShred !== undefined) shredding[key] = fieldShred
    }
    return Object.keys(shredding).length > 0 ? shredding : undefined
  }

  // Array shred: every value is an array. Pool all elements and recurse.
  if (nonNull.every(Array.isArray)) {
    if (depth >= MAX_SHRED_DEPTH) return undefined
    /** @type {any[]} */
    const elements = []
    for (const arr of nonNull) for (const el of arr) elements.push(el)
    const elemShred = detectShred(elements, depth + 1)
    return elemShred === undefined ? undefined : [elemShred]
  }

  // Scalar shred: every value is the same basic JS type.
  /** @type {string | undefined} */
  let jsType
  for (const v of nonNull) {
    if (Array.isArray(v)) return undefined // mixed array + scalar
    const t = v instanceof Date ? 'date' : typeof v
    if (jsType === undefined) jsType = t
    else if (jsType !== t) return undefined
  }
  return jsType ? jsTypeToBasicType(jsType) : undefined
}

/**
 * True for plain objects (not null, array, Date, or Uint8Array).
 *
 * @param {any} v
 * @returns {boolean}
 */
function isPlainObject(v) {
  return typeof v === 'object' && v !== null &&
    !Array.isArray(v) && !(v instanceof Date) && !(v instanceof Uint8Array)
}

/**
 * Recursively strip field names reserved by the shredded variant wrapper layout
 * (`value`, `typed_value`). Returns undefined when an object level empties out.
 *
 * @param {ShredType} shredding
 * @returns {ShredType | undefined}
 */
function variant_normalizeShreddingConfig(shredding) {
  if (Array.isArray(shredding)) {
    const elem = shredding.length ? variant_normalizeShreddingConfig(shredding[0]) : undefined
    return elem === undefined ? undefined : [elem]
  }
  if (typeof shredding === 'object') {
    /** @type {Record<string, ShredType>} */
    const normalized = {}
    for (const [key, type] of Object.entries(shredding)) {
      if (RESERVED_SHREDDING_FIELDS.has(key)) continue
      const norm = variant_normalizeShreddingConfig(type)
      if (norm !== undefined) normalized[key] = norm
    }
    return Object.keys(normalized).length > 0 ? normalized : undefined
  }
  // scalar
  return shredding
}

/**
 * Map a JS typeof string to a BasicType for shredding.
 *
 * @param {string} jsType
 * @returns {BasicType | undefined}
 */
function jsTypeToBasicType(jsType) {
  switch (jsType) {
  case 'boolean': return 'BOOLEAN'
  case 'string': return 'STRING'
  case 'number': return 'DOUBLE'
  case 'bigint': return 'INT64'
  case 'date': return 'TIMESTAMP'
  default: return undefined
  }
}

/**
 * Recursively collect all unique object keys from the column values.
 * Returns a sorted string array.
 *
 * @param {any[]} values
 * @returns {string[]}
 */
function buildVariantDictionary(values) {
  /** @type {Set<string>} */
  const keys = new Set()
  collectKeys(values, keys)
  return [...keys].sort()
}

/**
 * @param {any} value
 * @param {Set<string>} keys
 */
function collectKeys(value, keys) {
  if (value === null || value === undefined) return
  if (Array.isArray(value)) {
    for (const item of value) {
      collectKeys(item, keys)
    }
    return
  }
  if (value instanceof Date || value instanceof Uint8Array) return
  if (typeof value === 'object') {
    for (const key of Object.keys(value)) {
      keys.add(key)
      collectKeys(value[key], keys)
    }
  }
}

/**
 * Encode variant metadata binary.
 * Format: header byte, dictionary size, offsets, UTF-8 string data.
 *
 * @param {string[]} dictionary sorted array of unique keys
 * @returns {Uint8Array}
 */
function writeVariantMetadata(dictionary) {
  // Encode strings and compute total byte length in one pass
  const n = dictionary.length
  /** @type {Uint8Array[]} */
  const encoded = new Array(n)
  let totalStringBytes = 0
  for (let i = 0; i < n; i++) {
    const e = encoder.encode(dictionary[i])
    encoded[i] = e
    totalStringBytes += e.length
  }

  // Determine offset size: max offset is totalStringBytes
  const offsetSize = byteWidth(totalStringBytes)

  // Header: version=1, sorted=1, offsetSize
  const header = 1 | 1 << 4 | offsetSize - 1 << 6

  // Total size: 1 (header) + offsetSize (dict size) + (n + 1) * offsetSize (offsets) + totalStringBytes
  const totalSize = 1 + offsetSize + (n + 1) * offsetSize + totalStringBytes
  const bytes = new Uint8Array(totalSize)
  let offset = 0

  bytes[offset++] = header

  // Dictionary size
  for (let j = 0; j < offsetSize; j++) bytes[offset++] = n >> j * 8 & 0xff

  // String offsets
  let strOffset = 0
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < offsetSize; j++) bytes[offset++] = strOffset >> j * 8 & 0xff
    strOffset += encoded[i].length
  }
  // Final offset
  for (let j = 0; j < offsetSize; j++) bytes[offset++] = strOffset >> j * 8 & 0xff

  // String data
  for (let i = 0; i < n; i++) {
    bytes.set(encoded[i], offset)
    offset += encoded[i].length
  }

  return bytes
}

/**
 * Encode a single JS value to variant binary format.
 *
 * @param {any} value
 * @param {Map<string, number>} keyIndex map from key string to dictionary index
 * @param {ByteWriter[]} scratchWriters
 * @returns {Uint8Array}
 */
function writeVariantValue(value, keyIndex, scratchWriters) {
  const writer = new bytewriter_ByteWriter(8)
  writeValue(value, writer, keyIndex, scratchWriters)
  return writer.getBytes()
}

/**
 * @param {any} val
 * @param {ByteWriter} writer
 * @param {Map<string, number>} keyIndex
 * @param {ByteWriter[]} scratchWriters
 */
function writeValue(val, writer, keyIndex, scratchWriters) {
  if (val === null || val === undefined) {
    writer.appendUint8(0x00) // basicType=0, typeId=0
    return
  }
  if (val === true) {
    writer.appendUint8(0x04) // typeId=1
    return
  }
  if (val === false) {
    writer.appendUint8(0x08) // typeId=2
    return
  }
  if (typeof val === 'bigint') {
    if (val < INT64_MIN || val > INT64_MAX) {
      throw new RangeError(`variant bigint out of int64 range: ${val}`)
    }
    writer.appendUint8(6 << 2) // int64
    writer.appendInt64(val)
    return
  }
  if (typeof val === 'number') {
    if (Number.isInteger(val)) {
      if (val >= -128 && val <= 127) {
        writer.appendUint8(3 << 2) // int8
        writer.appendUint8(val & 0xff)
        return
      }
      if (val >= -32768 && val <= 32767) {
        writer.appendUint8(4 << 2) // int16
        appendUnsignedLE(writer, val, 2)
        return
      }
      if (val >= -2147483648 && val <= 2147483647) {
        writer.appendUint8(5 << 2) // int32
        writer.appendInt32(val)
        return
      }
    }
    writer.appendUint8(7 << 2) // double
    writer.appendFloat64(val)
    return
  }
  if (typeof val === 'string') {
    const strBytes = encoder.encode(val)
    if (strBytes.length <= 63) {
      // short string: basicType=1, length in header
      writer.appendUint8(strBytes.length << 2 | 1)
      writer.appendBytes(strBytes)
    } else {
      // long string: primitive typeId=16
      writer.appendUint8(16 << 2)
      writer.appendUint32(strBytes.length)
      writer.appendBytes(strBytes)
    }
    return
  }
  if (val instanceof Date) {
    writer.appendUint8(13 << 2) // timestamp_micros_ntz
    writer.appendInt64(BigInt(val.getTime()) * 1000n)
    return
  }
  if (val instanceof Uint8Array) {
    writer.appendUint8(15 << 2) // binary
    writer.appendUint32(val.length)
    writer.appendBytes(val)
    return
  }
  if (Array.isArray(val)) {
    writeVariantArray(val, writer, keyIndex, scratchWriters)
    return
  }
  if (typeof val === 'object') {
    writeVariantObject(val, writer, keyIndex, scratchWriters)
    return
  }

  throw new Error(`variant cannot encode value: ${val}`)
}

/**
 * @param {Record<string, any>} obj
 * @param {ByteWriter} writer
 * @param {Map<string, number>} keyIndex
 * @param {ByteWriter[]} scratchWriters
 */
function writeVariantObject(obj, writer, keyIndex, scratchWriters) {
  const entries = Object.keys(obj).filter(key => obj[key] !== undefined).map(key => {
    const id = keyIndex.get(key)
    if (id === undefined) throw new Error(`variant key not in dictionary: ${key}`)
    return { id, key }
  })
  // Sort by field ID for spec compliance
  entries.sort((a, b) => a.id - b.id)

  const numElements = entries.length
  const maxFieldId = numElements > 0 ? entries[numElements - 1].id : 0
  const idWidth = byteWidth(maxFieldId)

  // Encode child values into a scratch writer so we can compute offsets
  const scratch = scratchWriters.pop() ?? new bytewriter_ByteWriter(8)
  const offsets = new Array(numElements + 1)
  offsets[0] = 0
  for (let i = 0; i < numElements; i++) {
    writeValue(obj[entries[i].key], scratch, keyIndex, scratchWriters)
    offsets[i + 1] = scratch.index
  }
  const offsetWidth = byteWidth(offsets[numElements])
  const isLarge = numElements > 255 ? 1 : 0

  // Header: basicType=2, header encodes offsetWidth, idWidth, isLarge
  writer.appendUint8((offsetWidth - 1 | idWidth - 1 << 2 | isLarge << 4) << 2 | 2)
  if (isLarge) writer.appendUint32(numElements)
  else writer.appendUint8(numElements)
  for (const { id } of entries) appendUnsignedLE(writer, id, idWidth)
  for (const off of offsets) appendUnsignedLE(writer, off, offsetWidth)
  writer.appendBytes(scratch.getBytes())
  scratch.index = 0
  scratch.offset = 0
  scratchWriters.push(scratch)
}

/**
 * @param {any[]} arr
 * @param {ByteWriter} writer
 * @param {Map<string, number>} keyIndex
 * @param {ByteWriter[]} scratchWriters
 */
function writeVariantArray(arr, writer, keyIndex, scratchWriters) {
  const numElements = arr.length

  const scratch = scratchWriters.pop() ?? new bytewriter_ByteWriter(8)
  const offsets = new Array(numElements + 1)
  offsets[0] = 0
  for (let i = 0; i < numElements; i++) {
    writeValue(arr[i], scratch, keyIndex, scratchWriters)
    offsets[i + 1] = scratch.index
  }
  const offsetWidth = byteWidth(offsets[numElements])
  const isLarge = numElements > 255 ? 1 : 0

  // Header: basicType=3, header encodes fieldOffsetSize, isLarge
  writer.appendUint8((offsetWidth - 1 | isLarge << 2) << 2 | 3)
  if (isLarge) writer.appendUint32(numElements)
  else writer.appendUint8(numElements)
  for (const off of offsets) appendUnsignedLE(writer, off, offsetWidth)
  writer.appendBytes(scratch.getBytes())
  scratch.index = 0
  scratch.offset = 0
  scratchWriters.push(scratch)
}

/**
 * Determine the minimum byte width needed to represent a value.
 *
 * @param {number} maxValue
 * @returns {number} 1, 2, 3, or 4
 */
function byteWidth(maxValue) {
  if (maxValue <= 0xff) return 1
  if (maxValue <= 0xffff) return 2
  if (maxValue <= 0xffffff) return 3
  return 4
}

/**
 * Write an unsigned integer in little-endian format into a ByteWriter.
 *
 * @param {ByteWriter} writer
 * @param {number} value
 * @param {number} width byte width (1-4)
 */
function appendUnsignedLE(writer, value, width) {
  for (let i = 0; i < width; i++) {
    writer.appendUint8(value >> i * 8 & 0xff)
  }
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/parquet-writer.js









/**
 * @import {ColumnChunk, CompressionCodec, FileMetaData, KeyValue, RowGroup, SchemaElement, SchemaTree} from 'hyparquet'
 * @import {ColumnEncoder, ColumnSource, Compressors, PageIndexes, Writer} from '../src/types.js'
 */

/**
 * ParquetWriter class allows incremental writing of parquet files.
 */
class ParquetWriter {
  /**
   * @param {object} options
   * @param {Writer} options.writer
   * @param {SchemaElement[]} options.schema
   * @param {CompressionCodec} [options.codec]
   * @param {Compressors} [options.compressors]
   * @param {boolean} [options.statistics]
   * @param {number} [options.statisticsTruncateLength]
   * @param {KeyValue[]} [options.kvMetadata]
   * @param {string} [options.createdBy]
   */
  constructor({ writer, schema, codec = 'SNAPPY', compressors, statistics = true, statisticsTruncateLength, kvMetadata, createdBy = 'hyparquet' }) {
    if (statisticsTruncateLength !== undefined && statisticsTruncateLength !== Infinity &&
      !(Number.isInteger(statisticsTruncateLength) && statisticsTruncateLength > 0)) {
      throw new Error('statisticsTruncateLength must be a positive integer or Infinity')
    }
    this.writer = writer
    /** @type {SchemaElement[]} */
    this.schema = schema
    /** @type {CompressionCodec} */
    this.codec = codec
    // Include built-in snappy as fallback
    this.compressors = { SNAPPY: snappyCompress, ...compressors }
    this.statistics = statistics
    this.statisticsTruncateLength = statisticsTruncateLength
    /** @type {KeyValue[] | undefined} */
    this.kvMetadata = kvMetadata
    this.createdBy = createdBy

    /** @type {RowGroup[]} */
    this.row_groups = []
    this.num_rows = 0n

    /** @type {PageIndexes[]} */
    this.pendingIndexes = []

    // write header PAR1
    this.writer.appendUint32(0x31524150)
  }

  /**
   * Write data to the file.
   * Will split data into row groups of the specified size.
   * Calls writer.flush() (if defined) after each row group; if it returns a
   * Promise, subsequent row groups await it before encoding more data.
   *
   * @param {object} options
   * @param {ColumnSource[]} options.columnData
   * @param {number | number[]} [options.rowGroupSize]
   * @param {number} [options.pageSize]
   * @param {number} [options.dictionarySize]
   * @returns {void | Promise<void>}
   */
  write({ columnData, rowGroupSize = [1000, 100000], pageSize = 1048576, dictionarySize }) {
    for (const { codec = this.codec } of columnData) {
      if (codec !== 'UNCOMPRESSED' && !this.compressors[codec]) {
        throw new Error(`parquet no compressor for codec ${codec}`)
      }
    }
    const columnDataRows = columnData[0]?.data?.length || 0
    const resolveSchemaPath = schemaPathResolver(this.schema)
    /** @type {Promise<void> | undefined} */
    let pending
    for (const { groupStartIndex, groupSize } of groupIterator({ columnDataRows, rowGroupSize })) {
      const writeGroup = () => {
        const groupStartOffset = this.writer.offset
        /** @type {ColumnChunk[]} */
        const columns = []

        // write columns
        for (let j = 0; j < columnData.length; j++) {
          const { name, data, encoding, codec = this.codec, columnIndex = false, offsetIndex = true, shredding, bloomFilter, statistics = this.statistics } = columnData[j]

          // Spec: if ColumnIndex is present, OffsetIndex must also be present
          if (columnIndex && !offsetIndex) {
            throw new Error('parquet ColumnIndex cannot be present without OffsetIndex')
          }
          if (data.length !== columnDataRows) {
            throw new Error('parquet columns must have the same length')
          }

          const groupData = data.slice(groupStartIndex, groupStartIndex + groupSize)
          const columnPath = resolveSchemaPath([name])
          const leafPaths = getLeafSchemaPaths(columnPath)

          // For VARIANT logical type, encode JS values into {metadata, value} structs
          const columnElement = columnPath.at(-1)?.element
          const shreddingConfig = shredding && shredding !== true ? shredding : undefined
          const isVariant = columnElement?.logical_type?.type === 'VARIANT'
          const isRequired = columnElement?.repetition_type === 'REQUIRED'
          const rows = isVariant
            ? encodeVariantColumn(Array.from(groupData), shreddingConfig, { name, required: isRequired })
            : groupData

          for (const leafPath of leafPaths) {
            const schemaPath = leafPath.map(node => node.element)

            /** @type {ColumnEncoder} */
            const column = {
              columnName: schemaPath.slice(1).map(s => s.name).join('.'),
              element: schemaPath[schemaPath.length - 1],
              schemaPath,
              codec,
              compressors: this.compressors,
              stats: statistics,
              statisticsTruncateLength: this.statisticsTruncateLength,
              pageSize,
              dictionarySize,
              columnIndex,
              offsetIndex,
              encoding,
              bloomFilter,
            }

            const pageData = encodeNestedValues(leafPath, rows)
            const result = writeColumn({
              writer: this.writer,
              column,
              pageData,
            })

            columns.push(result.chunk)
            this.pendingIndexes.push(result)
          }
        }

        let total_byte_size = 0n
        for (const { meta_data } of columns) total_byte_size += meta_data?.total_uncompressed_size ?? 0n
        this.num_rows += BigInt(groupSize)
        this.row_groups.push({
          columns,
          total_byte_size,
          num_rows: BigInt(groupSize),
          total_compressed_size: BigInt(this.writer.offset - groupStartOffset),
        })
        return this.writer.flush?.()
      }
      if (pending) {
        pending = pending.then(writeGroup)
      } else {
        const r = writeGroup()
        if (r) pending = Promise.resolve(r)
      }
    }
    return pending
  }

  /**
   * Finish writing the file.
   *
   * @returns {void | Promise<void>}
   */
  finish() {
    // Write all indexes at end of file
    writeIndexes(this.writer, this.pendingIndexes)
    // Bloom filters cluster after indexes so pushdown readers fetch them in one range
    writeBlooms(this.writer, this.pendingIndexes)

    // write metadata
    /** @type {FileMetaData} */
    const metadata = {
      version: 2,
      created_by: this.createdBy,
      schema: this.schema,
      num_rows: this.num_rows,
      row_groups: this.row_groups,
      metadata_length: 0,
      key_value_metadata: this.kvMetadata,
    }
    // @ts-ignore don't want to actually serialize metadata_length
    delete metadata.metadata_length
    writeMetadata(this.writer, metadata, this.statisticsTruncateLength)

    // write footer PAR1
    this.writer.appendUint32(0x31524150)
    return this.writer.finish()
  }
}

/**
 * Target row count for the i-th row group. When rowGroupSize is an array, the
 * last entry repeats once the array is exhausted.
 *
 * @param {number | number[]} rowGroupSize - Size of each row group or an array of sizes
 * @param {number} i - zero-based group index
 * @returns {number}
 */
function groupSize(rowGroupSize, i) {
  return Array.isArray(rowGroupSize)
    ? rowGroupSize[Math.min(i, rowGroupSize.length - 1)]
    : rowGroupSize
}

/**
 * Create an iterator for row groups based on the specified row group size.
 * If rowGroupSize is an array, it will return groups based on the sizes in the array.
 * When the array runs out, it will continue with the last size.
 *
 * @param {object} options
 * @param {number} options.columnDataRows - Total number of rows in the column data
 * @param {number | number[]} options.rowGroupSize - Size of each row group or an array of sizes
 * @returns {Array<{groupStartIndex: number, groupSize: number}>}
 */
function groupIterator({ columnDataRows, rowGroupSize }) {
  if (Array.isArray(rowGroupSize) && !rowGroupSize.length) {
    throw new Error('rowGroupSize array cannot be empty')
  }
  const groups = []
  let groupIndex = 0
  let groupStartIndex = 0
  while (groupStartIndex < columnDataRows) {
    const size = groupSize(rowGroupSize, groupIndex)
    groups.push({ groupStartIndex, groupSize: Math.min(size, columnDataRows - groupStartIndex) })
    groupStartIndex += size
    groupIndex++
  }
  return groups
}

/**
 * Expand a schema path to all primitive leaf nodes under the column.
 *
 * @param {SchemaTree[]} schemaPath
 * @returns {SchemaTree[][]}
 */
function getLeafSchemaPaths(schemaPath) {
  /** @type {SchemaTree[][]} */
  const leaves = []
  dfs(schemaPath)
  return leaves

  /**
   * @param {SchemaTree[]} path
   */
  function dfs(path) {
    const node = path[path.length - 1]
    if (!node.children.length) {
      leaves.push(path)
      return
    }
    for (const child of node.children) {
      dfs([...path, child])
    }
  }
}

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/index.js







/**
 * @typedef {import('hyparquet').KeyValue} KeyValue
 * @typedef {import('hyparquet').SchemaElement} SchemaElement
 * @typedef {import('../src/types.d.ts').BasicType} BasicType
 * @typedef {import('../src/types.d.ts').ColumnSource} ColumnSource
 * @typedef {import('../src/types.d.ts').ParquetWriteOptions} ParquetWriteOptions
 * @typedef {import('../src/types.d.ts').Writer} Writer
 */

;// CONCATENATED MODULE: ../../node_modules/.pnpm/hyparquet-writer@0.17.0/node_modules/hyparquet-writer/src/node.js






/**
 * @import {ParquetWriteOptions, Writer} from '../src/types.js'
 */

/**
 * Write data as parquet to a local file.
 *
 * @param {Omit<ParquetWriteOptions, 'writer'> & { filename: string }} options
 */
function parquetWriteFile(options) {
  const { filename, ...rest } = options
  const writer = fileWriter(filename)
  parquetWrite({ ...rest, writer })
}

/**
 * Buffered file writer.
 * Writes data to a local file in chunks using node fs.
 *
 * @param {string} filename
 * @returns {Writer}
 */
function fileWriter(filename) {
  const writer = new ByteWriter()
  const chunkSize = 1_000_000 // 1mb

  // create a new file or overwrite existing one
  fs.writeFileSync(filename, '', { flag: 'w' })

  // flush current buffer to file
  function flush() {
    const chunk = new Uint8Array(writer.buffer, 0, writer.index)
    // TODO: async
    fs.writeFileSync(filename, chunk, { flag: 'a' })
    writer.index = 0
  }

  /**
   * Override the ensure method
   * @param {number} size
   */
  writer.ensure = function(size) {
    if (writer.index > chunkSize) {
      flush()
    }
    if (writer.index + size > writer.buffer.byteLength) {
      const newSize = Math.max(writer.buffer.byteLength * 2, writer.index + size)
      const newBuffer = new ArrayBuffer(newSize)
      new Uint8Array(newBuffer).set(new Uint8Array(writer.buffer))
      writer.buffer = newBuffer
      writer.view = new DataView(writer.buffer)
    }
  }
  writer.getBuffer = function() {
    throw new Error('getBuffer not supported for FileWriter')
  }
  writer.getBytes = function() {
    throw new Error('getBytes not supported for FileWriter')
  }
  writer.finish = function() {
    flush()
  }
  return writer
}


/***/ })

};
