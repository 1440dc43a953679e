// The Parquet writers, one file or a partitioned dataset: one module, so that a bundle loads them
// as one chunk, only for a report that asks for focus-parquet.
export { FocusParquet } from "./parquet-sink.js";
export { PartitionedFocusParquet } from "./partitioned-sink.js";
