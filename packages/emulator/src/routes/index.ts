import type { Route } from "../router.js";
import { addonRoutes } from "./addons.js";
import { billingRoutes } from "./billing.js";
import { integrationRoutes } from "./integrations.js";
import { jobRoutes } from "./jobs.js";
import { networkingRoutes } from "./networking.js";
import { observabilityRoutes } from "./observability.js";
import { projectRoutes } from "./projects.js";
import { secretRoutes } from "./secrets.js";
import { serviceRoutes } from "./services.js";
import { templateRoutes } from "./templates.js";

/** Every operation of the spec and of beyond-the-seed §1. */
export const routes: Route[] = [
  ...billingRoutes,
  ...projectRoutes,
  ...secretRoutes,
  ...jobRoutes,
  ...serviceRoutes,
  ...addonRoutes,
  ...observabilityRoutes,
  ...templateRoutes,
  ...networkingRoutes,
  ...integrationRoutes,
];
