import type { Notification } from "../model/config-records.js";
import type { World } from "../model/world.js";
import { buildView } from "../work/builds.js";
import { jobRunView } from "../work/job-runs.js";
import { templateRunView } from "../work/template-runs.js";
import { DISABLE_AFTER_FAILURES } from "./store.js";

// Webhook events for builds, job runs and template runs (spec section 6). The spec does not show
// the delivery, so this is ours, documented in the README:
//   POST <webhook>  content-type: application/json
//   x-cwp-event: <event key>   x-cwp-delivery: <id>   x-cwp-webhook-secret: <secret> (when set)
//   body: { event, deliveryId, occurredAt, projectId?, resource: { type, id }, data: <the object> }

export const SECRET_HEADER = "x-cwp-webhook-secret";

export interface PendingEvent {
  event: string;
  occurredAt: number;
  projectId: string | undefined;
  resource: { type: "build" | "job-run" | "template-run"; id: string };
  data: unknown;
}

/** Events whose time has come since the last call, oldest first. */
export function dueEvents(world: World, now: number): PendingEvent[] {
  const events: PendingEvent[] = [];
  const collect = (
    timeline: { takeDue(now: number): Array<{ at: number; event?: string }> },
    make: (at: number, event: string) => PendingEvent,
  ) => {
    for (const step of timeline.takeDue(now)) if (step.event) events.push(make(step.at, step.event));
  };
  for (const b of world.builds)
    collect(b.timeline, (at, event) => ({
      event,
      occurredAt: at,
      projectId: b.projectId,
      resource: { type: "build", id: b.id },
      data: { ...buildView(b, at), serviceId: b.serviceId },
    }));
  for (const r of world.jobRuns)
    collect(r.timeline, (at, event) => ({
      event,
      occurredAt: at,
      projectId: r.projectId,
      resource: { type: "job-run", id: r.id },
      data: { ...jobRunView(r, at), jobId: r.jobId },
    }));
  for (const r of world.templateRuns) {
    const template = world.templates.find((t) => t.id === r.templateId);
    if (!template) continue;
    collect(r.timeline, (at, event) => ({
      event,
      occurredAt: at,
      projectId: undefined,
      resource: { type: "template-run", id: r.id },
      data: templateRunView(r, template, at),
    }));
  }
  return events.sort((a, b) => a.occurredAt - b.occurredAt);
}

function subscribed(n: Notification, e: PendingEvent): boolean {
  if (n.body.type !== "RAW_WEBHOOK" || n.status.disabled || n.body.events[e.event] !== true) return false;
  if (n.body.restricted && e.projectId !== undefined) return (n.body.projects ?? []).includes(e.projectId);
  return true;
}

/** Sends each event to every integration that subscribes to it; failures count on the integration. */
export async function deliver(world: World, events: PendingEvent[], now: () => number): Promise<void> {
  for (const e of events) {
    for (const n of world.notifications.filter((x) => subscribed(x, e))) {
      n.delivered += 1;
      const deliveryId = `${n.id}-${n.delivered}`;
      let ok = false;
      try {
        const res = await fetch(n.body.webhook, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-cwp-event": e.event,
            "x-cwp-delivery": deliveryId,
            ...(n.body.secret ? { [SECRET_HEADER]: n.body.secret } : {}),
          },
          body: JSON.stringify({
            event: e.event,
            deliveryId,
            occurredAt: new Date(e.occurredAt).toISOString(),
            ...(e.projectId ? { projectId: e.projectId } : {}),
            resource: e.resource,
            data: e.data,
          }),
          signal: AbortSignal.timeout(5000),
        });
        await res.arrayBuffer();
        ok = res.ok;
      } catch {
        ok = false;
      }
      if (ok) continue;
      n.status.numberOfFailedRequests += 1;
      n.status.timeOfFirstFailedRequest ??= new Date(now()).toISOString();
      if (n.status.numberOfFailedRequests >= DISABLE_AFTER_FAILURES) {
        n.status.disabled = true;
        n.status.reason = true;
      }
    }
  }
}
