import type { CreateNotificationBody } from "@cwp/client";

/** A notification integration as created through the API, with its delivery record. */
export interface Notification {
  id: string;
  body: CreateNotificationBody;
  createdAt: number;
  updatedAt: number;
  status: {
    disabled: boolean;
    reason: boolean;
    timeOfFirstFailedRequest: string | null;
    numberOfFailedRequests: number;
  };
  delivered: number;
}

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
