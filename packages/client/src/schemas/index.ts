// The spec's schemas, one module per area; exported for users' own checks. Not for the emulator:
// it keeps rules of its own, so that a misreading is caught, not agreed with.
export * from "./addons.js";
export * from "./billing.js";
export * from "./builds.js";
export * from "./integrations.js";
export * from "./jobs.js";
export * from "./networking.js";
export * from "./observability.js";
export * from "./projects.js";
export * from "./secrets.js";
export * from "./shared.js";
export * from "./templates.js";
