import { createHash } from "node:crypto";
import { slugFor } from "../ids.js";
import type { Outcome } from "../model/outcome.js";
import { Timeline } from "../model/timeline.js";
import type { BuildRecord, BuildState } from "../model/work-records.js";
import type { Service, World } from "../model/world.js";
import type { StartBuildBody } from "../rules/work.js";
import { cutAt, spread } from "./log-lines.js";
import { durationMs } from "./outcomes.js";

// Builds move PENDING → CLONING → BUILDING → UPLOADING → SUCCESS | FAILURE (beyond-the-seed §1);
// an abort ends them ABORTED.

const DEFAULT_SECONDS = 60;
const running = (status: string): BuildState => ({ status, concluded: false, success: false, message: null });

/** The latest commit of a branch or pull request: stable for the same ref. */
const latestCommit = (ref: string) => createHash("sha1").update(ref).digest("hex");

export function startBuild(
  world: World,
  service: Service,
  body: StartBuildBody,
  now: number,
  outcome: Outcome,
): BuildRecord {
  const id =
    outcome.id ?? slugFor(world.seed, `build:${world.builds.length}:${service.projectId}/${service.id}`);
  const pullRequestId = body.pullRequestId === undefined ? null : Number(body.pullRequestId);
  const branch = body.branch ?? null;
  const sha = body.sha ?? latestCommit(branch ?? `pull/${pullRequestId ?? "main"}`);
  const end = now + durationMs(outcome, DEFAULT_SECONDS);
  const succeed = outcome.succeed ?? (outcome.status === undefined || outcome.status === "SUCCESS");
  const finalStatus = outcome.status ?? (succeed ? "SUCCESS" : "FAILURE");
  const phase = (fraction: number) => now + (end - now) * fraction;
  const imageUri = `registry.cwp.example/${service.projectId}/${service.id}:${sha.slice(0, 12)}`;
  const container = `${service.id}-build-${id}`;
  const lines = outcome.logLines ?? [
    `Cloning ${"bundleUrl" in body ? "bundle" : "repository"} at ${sha}`,
    "Step 1/6 : FROM node:24-slim",
    "Step 2/6 : WORKDIR /app",
    "Step 3/6 : COPY package.json pnpm-lock.yaml ./",
    "Step 4/6 : RUN pnpm install --frozen-lockfile",
    "Step 5/6 : COPY . .",
    "Step 6/6 : RUN pnpm build",
    succeed ? `Pushing image ${imageUri}` : "error: build step exited with code 1",
  ];
  const record: BuildRecord = {
    projectId: service.projectId,
    serviceId: service.id,
    id,
    branch,
    pullRequestId,
    sha,
    createdAt: now,
    imageUri,
    timeline: new Timeline<BuildState>([
      { at: now, state: running("PENDING"), event: "trigger:build:start" },
      { at: phase(0.1), state: running("CLONING") },
      { at: phase(0.2), state: running("BUILDING") },
      { at: phase(0.8), state: running("UPLOADING") },
      {
        at: end,
        state: {
          status: finalStatus,
          concluded: true,
          success: succeed,
          message:
            outcome.message ??
            (succeed ? "Image successfully built" : "Build failed: step exited with code 1"),
        },
        event: succeed ? "trigger:build:success" : "trigger:build:failure",
      },
    ]),
    logs: spread(lines, phase(0.1), phase(0.99), container, outcome.linesPerInstant),
  };
  world.builds.push(record);
  return record;
}

/** Ends a running build ABORTED; false when it had already concluded. */
export function abortBuild(record: BuildRecord, now: number): boolean {
  if (record.timeline.at(now).concluded) return false;
  record.timeline.rewrite(now, [
    {
      at: now,
      state: { status: "ABORTED", concluded: true, success: false, message: "Build aborted" },
      event: "trigger:build:abort",
    },
  ]);
  record.logs = cutAt(record.logs, now, "Build aborted", `${record.serviceId}-build-${record.id}`);
  return true;
}

export function buildView(record: BuildRecord, now: number) {
  const step = record.timeline.stepAt(now);
  return {
    id: record.id,
    branch: record.branch,
    pullRequestId: record.pullRequestId,
    sha: record.sha,
    registry: { uri: record.imageUri },
    createdAt: new Date(record.createdAt).toISOString(),
    ...step.state,
    buildConcludedAt: step.state.concluded ? Math.floor(step.at / 1000) : null,
  };
}
