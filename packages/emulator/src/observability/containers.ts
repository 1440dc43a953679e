import { createHash } from "node:crypto";
import type { Project, World } from "../model/world.js";

// The containers that services and addons run in, as logs and metrics name them.

export interface Container {
  projectId: string;
  /** The service or addon it belongs to. */
  owner: { kind: "service" | "addon"; id: string };
  /** What `containerName` selects: the service or addon id. */
  name: string;
  /** One pod per replica, e.g. `web-3f9a2c-0`. */
  podName: string;
  deploymentId: string;
  clusterId: string;
  /** What it prints, cycled (a world file's); otherwise generated lines with some WARN and ERROR. */
  lines?: readonly string[];
}

export const CLUSTER_ID = "cwp-eu-west-1";

const short = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 6);

export function containersOf(world: World, project: Project): Container[] {
  const list: Container[] = [];
  for (const service of world.services) {
    if (service.projectId !== project.id || service.kind === "build") continue;
    const deploymentId = `${service.id}-${short(`${world.seed}:${project.id}/${service.id}`)}`;
    for (const replica of [0, 1]) {
      list.push({
        projectId: project.id,
        owner: { kind: "service", id: service.id },
        name: service.id,
        podName: `${deploymentId}-${replica}`,
        deploymentId,
        clusterId: CLUSTER_ID,
        ...(service.runtimeLog ? { lines: service.runtimeLog } : {}),
      });
    }
  }
  for (const addon of world.addons) {
    if (addon.projectId !== project.id) continue;
    const deploymentId = `${addon.id}-${short(`${world.seed}:${project.id}/${addon.id}`)}`;
    list.push({
      projectId: project.id,
      owner: { kind: "addon", id: addon.id },
      name: addon.id,
      podName: `${deploymentId}-0`,
      deploymentId,
      clusterId: CLUSTER_ID,
    });
  }
  return list;
}
