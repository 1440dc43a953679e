// What actions import: input parsers, the engine's helpers, and `runAction` for the GitHub runner.
// The host-free engine alone (for the cwp CLI) is `@cwp/action-kit/engine`.
export * from "./engine.js";
export { runAction } from "./github/run-action.js";
export { renderSummary } from "./github/summary.js";
export { inert, printUntrusted } from "./github/untrusted.js";
