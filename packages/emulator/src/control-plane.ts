import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { ledgerOf } from "./billing/ledger.js";
import type { VirtualClock } from "./clock.js";
import { type Faults, faultSchema } from "./faults.js";
import { ApiFailure, readJsonBody } from "./http.js";
import { outcomeSchema } from "./model/outcome.js";
import type { World } from "./model/world.js";
import { notificationView } from "./notifications/store.js";
import type { RequestLog } from "./request-log.js";
import { applySettings, type Settings, settingsSchema } from "./settings.js";
import { detailsOf } from "./validate.js";
import type { Outcomes } from "./work/outcomes.js";

// /_emulator/*: what tests and demos use to see and steer the emulator. No token needed; the
// emulator binds to 127.0.0.1 unless told otherwise.

export interface ControlState {
  world(): World;
  reset(): void;
  clock: VirtualClock;
  faults: Faults;
  outcomes: Outcomes;
  settings: Settings;
  log: RequestLog;
  /** Sends the events that became due (after the clock moved). */
  settle(): Promise<void>;
}

// Made once: a virtual clock moves through this request at every sleep, and making a zod schema
// (its parser compiled) per request was a tenth of a waiting benchmark's CPU time.
const clockAdvance = z.strictObject({
  // At most ten years at a time: time stays a date a client can read.
  advanceSeconds: z
    .number()
    .min(0)
    .max(10 * 366 * 86_400),
});

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success)
    throw new ApiFailure(400, "invalid control-plane request", detailsOf(result.error.issues, "body"));
  return result.data;
}

export function fixtures(world: World) {
  const ledger = ledgerOf(world);
  return {
    tokens: Object.fromEntries(Object.entries(world.tokens).map(([k, t]) => [k, t.value])),
    teams: world.teams,
    projects: world.projects.map(({ id, uid, teamId }) => ({ id, uid, teamId })),
    services: world.services.map(({ projectId, id, uid, kind }) => ({ projectId, id, uid, kind })),
    jobs: world.jobs.map(({ projectId, id, uid, paused }) => ({ projectId, id, uid, paused })),
    templates: world.templates.map(({ id, name }) => ({ id, name })),
    addons: world.addons.map((a) => ({
      projectId: a.projectId,
      id: a.id,
      uid: a.uid,
      type: a.type,
      version: a.state.at(world.seededAt).versionTag,
      status: a.state.at(world.seededAt).status,
      versions: a.versions,
      backups: a.backups.map(({ id, status, sourceType, addonVersion, global }) => ({
        id,
        status,
        sourceType,
        addonVersion,
        global,
      })),
    })),
    harnesses: world.harnesses.map(({ projectId, id, uid }) => ({ projectId, id, uid })),
    volumes: world.volumes.map(({ projectId, id, uid }) => ({ projectId, id, uid })),
    domains: world.domains.map((d) => ({ domain: d.domain, subdomains: d.subdomains.map((s) => s.name) })),
    notifications: world.notifications.map((n) => ({ ...notificationView(n), delivered: n.delivered })),
    billing: {
      historyStart: new Date(ledger.historyStartHour * 3_600_000).toISOString(),
      customers: {
        organisation: "USD",
        ...Object.fromEntries(world.teams.filter((t) => t.billing === "own").map((t) => [t.id, "EUR"])),
      },
    },
  };
}

export async function controlPlane(
  req: IncomingMessage,
  path: string,
  state: ControlState,
): Promise<unknown> {
  const route = `${req.method} ${path}`;
  switch (route) {
    case "GET /_emulator/fixtures":
      return fixtures(state.world());
    case "POST /_emulator/reset":
      state.reset();
      return { ok: true };
    case "GET /_emulator/clock":
      // Where its time stands and how fast it runs: a client plans its waits on it.
      return { now: new Date(state.clock.now()).toISOString(), speed: state.clock.speed };
    case "POST /_emulator/clock": {
      const { advanceSeconds } = parse(clockAdvance, await readJsonBody(req));
      state.clock.advance(advanceSeconds);
      await state.settle();
      return { now: new Date(state.clock.now()).toISOString() };
    }
    case "GET /_emulator/faults":
      return { faults: state.faults.list() };
    case "POST /_emulator/faults": {
      const body = await readJsonBody(req);
      for (const fault of Array.isArray(body) ? body : [body]) state.faults.add(parse(faultSchema, fault));
      return { faults: state.faults.list() };
    }
    case "DELETE /_emulator/faults":
      state.faults.clear();
      return { faults: [] };
    case "GET /_emulator/outcomes":
      return { outcomes: state.outcomes.pending() };
    case "POST /_emulator/outcomes": {
      const body = await readJsonBody(req);
      for (const outcome of Array.isArray(body) ? body : [body])
        state.outcomes.push(parse(outcomeSchema, outcome));
      return { outcomes: state.outcomes.pending() };
    }
    case "DELETE /_emulator/outcomes":
      state.outcomes.clear();
      return { outcomes: [] };
    case "GET /_emulator/settings":
      return { settings: state.settings };
    case "POST /_emulator/settings":
      applySettings(state.settings, parse(settingsSchema, await readJsonBody(req)));
      return { settings: state.settings };
    case "GET /_emulator/requests":
      return { requests: state.log.entries() };
    case "DELETE /_emulator/requests":
      state.log.clear();
      return { requests: [] };
    default:
      throw new ApiFailure(404, `no control-plane operation ${route}`);
  }
}
