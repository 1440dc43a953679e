import { requireNode } from "./node-version.js";

// Imported first by index.ts, so that it runs before undici loads.
requireNode("@cwp/client");
