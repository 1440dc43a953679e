// The job summary's Markdown, apart from the rest: what a host that is no runner (the CLI, for
// `cwp rehearse`) writes where a runner would show it, without bundling the GitHub runner's kit.
export { renderSummary } from "./github/summary.js";
