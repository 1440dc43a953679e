import type { RunJobBody } from "../rules/work.js";
import type { Timeline } from "./timeline.js";

// The records of work the platform runs (builds, job runs, template runs, addon operations,
// restarts) and the log lines they print: what the world holds and work/ changes.

/** A line a piece of work printed, visible once the virtual clock reaches it. */
export interface WorkLogLine {
  at: number;
  containerId: string;
  text: string;
}

export interface BuildState {
  status: string;
  concluded: boolean;
  success: boolean;
  message: string | null;
}

export interface BuildRecord {
  projectId: string;
  serviceId: string;
  id: string;
  branch: string | null;
  pullRequestId: number | null;
  sha: string;
  createdAt: number;
  imageUri: string;
  timeline: Timeline<BuildState>;
  logs: WorkLogLine[];
}

export interface JobRunState {
  status: string;
  concluded: boolean;
}

export interface JobRunRecord {
  projectId: string;
  jobId: string;
  id: string;
  runName: string;
  startedAt: number;
  request: RunJobBody;
  timeline: Timeline<JobRunState>;
  logs: WorkLogLine[];
}

export interface TemplateRunState {
  status: string;
  concluded: boolean;
  /** Why a run failed, where it can say (as a build's `message` does): an argument it reads missing. */
  message?: string;
}

export interface TemplateRunRecord {
  templateId: string;
  id: string;
  arguments: Record<string, unknown>;
  createdAt: number;
  timeline: Timeline<TemplateRunState>;
}

export interface AddonState {
  status: string;
  versionTag: string;
}

export interface RestoreState {
  status: string;
  completedAt?: number;
}

export interface Restore {
  id: string;
  /** Where the backup lives. */
  backup: { projectId: string; addonId: string; backupId: string };
  /** The addon restored into. */
  target: { projectId: string; addonId: string };
  requestedAt: number;
  timeline: Timeline<RestoreState>;
}

export interface DeploymentState {
  status: string;
  reason: "SCALING" | "DEPLOYING" | null;
  lastTransitionTime: number;
}
