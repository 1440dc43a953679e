import type { CreateNotificationBody } from "../rules/integrations.js";
import type { CreateSecretBody } from "../rules/secrets.js";

// The records of what a project is configured with through the API: secret groups (values kept,
// never answered) and notification integrations with their delivery record.

export interface Secret extends CreateSecretBody {
  projectId: string;
  id: string;
  createdAt: string;
  updatedAt: string;
  links: Record<string, Array<{ keyName: string; aliases: string[]; defaultKey: string }>>;
}

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
