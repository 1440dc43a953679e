import type { Notification } from "../model/config-records.js";

/** Consecutive failed deliveries after which a webhook is disabled. */
export const DISABLE_AFTER_FAILURES = 10;

export function notificationView(n: Notification) {
  return {
    id: n.id,
    name: n.body.name,
    type: n.body.type,
    webhook: n.body.webhook,
    createdAt: new Date(n.createdAt).toISOString(),
    updatedAt: new Date(n.updatedAt).toISOString(),
    status: n.status,
    restricted: n.body.restricted ?? false,
    projects: n.body.projects ?? [],
    events: n.body.events,
    ...(n.body.restrictions ? { restrictions: n.body.restrictions } : {}),
  };
}
