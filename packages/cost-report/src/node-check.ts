import { requireNode } from "@cwp/client/node-version";

// Imported first by index.ts, so that it runs before @cwp/client (and undici) load.
requireNode("@cwp/cost-report");
