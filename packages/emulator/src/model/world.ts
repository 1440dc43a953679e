import { shortIdFor, uidFor } from "../ids.js";
import type { ResourceType } from "../rules/billing.js";
import type { Notification, Secret } from "./config-records.js";
import type { ScriptedOutcomes } from "./outcome.js";
import { Timeline } from "./timeline.js";
import type {
  AddonState,
  BuildRecord,
  DeploymentState,
  JobRunRecord,
  Restore,
  TemplateRunRecord,
} from "./work-records.js";

// The seeded world: an organisation with three teams and what runs in their projects. Everything
// is derived from the seed and the moment of seeding, and rebuilt by /_emulator/reset.

export interface Team {
  id: string;
  uid: string;
  name: string;
  /** `organisation`: billed through the organisation's customer; `own`: its own billing customer. */
  billing: "organisation" | "own";
}
export interface Project {
  id: string;
  uid: string;
  name: string;
  description: string;
  teamId: string;
}
export interface Service {
  projectId: string;
  id: string;
  uid: string;
  name: string;
  kind: "build" | "combined" | "deployment";
  buildArguments: Record<string, string>;
  deployment: Timeline<DeploymentState>;
  outcomes?: ScriptedOutcomes;
  /** The lines its containers print, cycled, instead of generated ones (a world file's). */
  runtimeLog?: readonly string[];
}
export interface Job {
  projectId: string;
  id: string;
  uid: string;
  name: string;
  paused: boolean;
  settings: { suspended: boolean; disabledCI: boolean; disabledCD: boolean };
  runtimeEnvironment: Record<string, string>;
  outcomes?: ScriptedOutcomes;
}
export interface Template {
  id: string;
  name: string;
  description: string;
  repoUrl: string;
  filePath: string;
  /** The arguments it reads (`${args.name}`): a run without one fails. */
  arguments?: string[];
  outcomes?: ScriptedOutcomes;
}
export interface Backup {
  id: string;
  name: string;
  uid: string;
  status: string;
  createdAt: number;
  completedAt?: number;
  sourceType: "fileUpload" | "liveInstance" | "snapshot" | "externalDump" | "sameAddon";
  sizeBytes: number;
  addonVersion: string;
  /** Global backups can be restored into another addon, given the source. */
  global: boolean;
}
export interface Addon {
  projectId: string;
  id: string;
  uid: string;
  name: string;
  type: "postgresql" | "redis";
  versions: readonly string[];
  createdAt: number;
  state: Timeline<AddonState>;
  backups: Backup[];
  outcomes?: ScriptedOutcomes;
}
export interface Harness {
  projectId: string;
  id: string;
  uid: string;
  activeSessions: number;
}
export interface Volume {
  projectId: string;
  id: string;
  uid: string;
}
export interface PathRule {
  subdomain: string;
  mode: "prefix" | "exact" | "regex";
  uri: string;
  options: { priority: number; ignoreUriCase?: boolean; timeout?: string };
}
export interface Domain {
  domain: string;
  subdomains: Array<{ name: string; paths: PathRule[] }>;
}
export interface Token {
  value: string;
  /** The team the token is limited to; undefined for organisation tokens. */
  teamId: string | undefined;
  canWrite: boolean;
}
export type TokenName = "org" | "teamViaOrg" | "teamOwnBilling" | "readOnly";

/** A larger organisation for benchmarks: teams, projects per team, billed resources per project. */
export interface WorldScale {
  teams: number;
  projectsPerTeam: number;
  resourcesPerProject: number;
}

export interface World {
  seed: number;
  /** Virtual time of seeding; the billing history and resource ages count back from it. */
  seededAt: number;
  teams: Team[];
  projects: Project[];
  services: Service[];
  jobs: Job[];
  templates: Template[];
  addons: Addon[];
  harnesses: Harness[];
  volumes: Volume[];
  /** Billed resources with no other record (the scaled world's extra resources). */
  extraBillables: Billable[];
  domains: Domain[];
  tokens: Record<TokenName, Token>;
  // Created through the API:
  secrets: Secret[];
  builds: BuildRecord[];
  jobRuns: JobRunRecord[];
  templateRuns: TemplateRunRecord[];
  restores: Restore[];
  notifications: Notification[];
  /** Counter for ids of things created through the API. */
  created: number;
}

/** What a project holds that billing meters, by resource type. */
export interface Billable {
  type: ResourceType;
  uid: string;
  projectId: string;
}

const DAY = 86_400_000;
export const ADDON_VERSIONS = {
  postgresql: ["14.12", "15.7", "16.4", "17.0"],
  redis: ["7.0.15", "7.2.5", "7.4.1"],
} as const;

/** A project's place in the seed: what its records' uids derive from. */
export interface ProjectSeed {
  seed: number;
  projectId: string;
}
const uidIn = (at: ProjectSeed, kind: string, id: string) => uidFor(at.seed, `${kind}:${at.projectId}/${id}`);

/** A service, rolled out and serving since `deployedAt`. */
export function newService(
  at: ProjectSeed,
  id: string,
  kind: Service["kind"],
  buildArguments: Record<string, string>,
  deployedAt: number,
): Service {
  return {
    projectId: at.projectId,
    id,
    uid: uidIn(at, "service", id),
    name: id,
    kind,
    buildArguments,
    deployment: new Timeline<DeploymentState>([
      { at: 0, state: { status: "COMPLETED", reason: "DEPLOYING", lastTransitionTime: deployedAt } },
    ]),
  };
}

export function newJob(
  at: ProjectSeed,
  id: string,
  paused: boolean,
  runtimeEnvironment: Record<string, string>,
): Job {
  return {
    projectId: at.projectId,
    id,
    uid: uidIn(at, "job", id),
    name: id,
    paused,
    settings: { suspended: paused, disabledCI: false, disabledCD: false },
    runtimeEnvironment,
  };
}

/** A backup of an addon, the `index`-th of its list (its size grows with it), taken at `createdAt`. */
export function newBackup(
  at: ProjectSeed,
  b: Pick<Backup, "id" | "name" | "status" | "sourceType" | "addonVersion" | "global" | "createdAt"> & {
    uidKey: string;
  },
  index: number,
): Backup {
  return {
    id: b.id,
    name: b.name,
    uid: uidIn(at, "backup", b.uidKey),
    status: b.status,
    createdAt: b.createdAt,
    // A backup takes ten minutes.
    ...(b.status === "completed" ? { completedAt: b.createdAt + 600_000 } : {}),
    sourceType: b.sourceType,
    sizeBytes: 1_048_576 * (200 + 37 * index),
    addonVersion: b.addonVersion,
    global: b.global,
  };
}

export function newAddon(
  at: ProjectSeed,
  a: Pick<Addon, "id" | "type" | "createdAt" | "backups"> & { status: "running" | "paused"; version: string },
): Addon {
  return {
    projectId: at.projectId,
    id: a.id,
    uid: uidIn(at, "addon", a.id),
    name: a.id,
    type: a.type,
    versions: ADDON_VERSIONS[a.type],
    createdAt: a.createdAt,
    state: new Timeline<AddonState>([{ at: 0, state: { status: a.status, versionTag: a.version } }]),
    backups: a.backups,
  };
}

function inventory(seed: number, seededAt: number, projects: Project[]) {
  const services: Service[] = [];
  const jobs: Job[] = [];
  const addons: Addon[] = [];
  const harnesses: Harness[] = [];
  const volumes: Volume[] = [];
  const completed = seededAt - 30 * DAY;
  for (const project of projects) {
    const at = { seed, projectId: project.id };
    for (const [id, kind] of [
      ["web", "combined"],
      ["image-builder", "build"],
      ["gateway", "deployment"],
    ] as const)
      services.push(
        // A templated value, which `replaceTemplatedValues=true` resolves.
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the platform's own placeholder syntax.
        newService(at, id, kind, { NODE_ENV: "production", API_ORIGIN: "${refs.gateway.host}" }, completed),
      );
    for (const [id, paused] of [
      ["migrate", false],
      ["nightly-report", true],
    ] as const)
      jobs.push(newJob(at, id, paused, { "LOG.LEVEL": "info" }));
    const backups = (addonId: string, version: string): Backup[] =>
      (
        [
          ["snapshot-1", "snapshot", "completed", "15.7"],
          ["live-1", "liveInstance", "completed", version],
          ["failed-1", "liveInstance", "failed", version],
          ["running-1", "liveInstance", "in-progress", version],
        ] as const
      ).map(([id, sourceType, status, addonVersion], i) =>
        newBackup(
          at,
          {
            id: `${addonId}-${id}`,
            name: `${addonId} ${id}`,
            uidKey: `${addonId}-${id}`,
            status,
            createdAt: seededAt - (10 - i) * DAY,
            sourceType,
            addonVersion,
            global: id === "snapshot-1",
          },
          i,
        ),
      );
    addons.push(
      newAddon(at, {
        id: "db",
        type: "postgresql",
        version: "16.4",
        status: "running",
        createdAt: seededAt - 200 * DAY,
        backups: backups("db", "16.4"),
      }),
    );
    if (project.id.endsWith("-batch"))
      addons.push(
        newAddon(at, {
          id: "cache",
          type: "redis",
          version: "7.2.5",
          status: "paused",
          createdAt: seededAt - 90 * DAY,
          backups: [],
        }),
      );
    harnesses.push({
      projectId: project.id,
      id: "devbox",
      uid: uidIn(at, "harness", "devbox"),
      activeSessions: 1,
    });
    volumes.push({ projectId: project.id, id: "data", uid: uidIn(at, "volume", "data") });
  }
  return { services, jobs, addons, harnesses, volumes };
}

function domains(): Domain[] {
  const rule = (subdomain: string, i: number): PathRule => ({
    subdomain,
    mode: (["prefix", "exact", "regex"] as const)[i % 3] as PathRule["mode"],
    uri: i % 3 === 2 ? `^/v${i}/.*$` : `/route-${i}`,
    options: { priority: i, ...(i % 3 !== 2 ? { ignoreUriCase: i % 2 === 0 } : {}), timeout: `${30 + i}s` },
  });
  return [
    {
      domain: "example.com",
      subdomains: [
        { name: "www", paths: Array.from({ length: 3 }, (_, i) => rule("www", i)) },
        { name: "api", paths: Array.from({ length: 120 }, (_, i) => rule("api", i)) },
        { name: "@", paths: [rule("@", 0)] },
      ],
    },
    { domain: "shop.example.org", subdomains: [{ name: "*", paths: [rule("*", 1)] }] },
  ];
}

/**
 * The seeded world. Its tokens derive from `seed`, or, given a `tokenSalt`, from that (random per
 * process unless a seed was asked for: see `startEmulator`).
 */
export function seedWorld(seed: number, seededAt: number, scale?: WorldScale, tokenSalt?: string): World {
  const base: Array<[string, string, Team["billing"]]> = [
    ["platform", "Platform", "organisation"],
    ["data", "Data", "organisation"],
    ["labs", "Labs", "own"],
  ];
  const more = Math.max(0, (scale?.teams ?? base.length) - base.length);
  const teams: Team[] = [
    ...base,
    ...Array.from({ length: more }, (_, i): [string, string, Team["billing"]] => [
      `team-${i + 4}`,
      `Team ${i + 4}`,
      "organisation",
    ]),
  ].map(([id, name, billing]) => ({ id, name, billing, uid: uidFor(seed, `team:${id}`) }));
  const suffixes = ["web", "api", "batch"];
  for (let k = suffixes.length; k < (scale?.projectsPerTeam ?? suffixes.length); k += 1)
    suffixes.push(`p${k + 1}`);
  const projects: Project[] = teams.flatMap((team) =>
    suffixes.map((suffix) => {
      const id = `${team.id}-${suffix}`;
      return {
        id,
        uid: uidFor(seed, `project:${id}`),
        name: `${team.name} ${suffix}`,
        description: `The ${suffix} of ${team.name}`,
        teamId: team.id,
      };
    }),
  );
  const owned = inventory(seed, seededAt, projects);
  const extraBillables: Billable[] = [];
  if (scale) {
    const types = ["service", "job", "addon", "volume", "harness"] as const;
    for (const project of projects) {
      const have = [owned.services, owned.jobs, owned.addons, owned.harnesses, owned.volumes].reduce(
        (n, list) => n + list.filter((r) => r.projectId === project.id).length,
        0,
      );
      for (let i = have; i < scale.resourcesPerProject; i += 1)
        extraBillables.push({
          type: types[i % types.length] as Billable["type"],
          uid: uidFor(seed, `extra:${project.id}/${i}`),
          projectId: project.id,
        });
    }
  }
  const token = (name: string, teamId: string | undefined, canWrite = true): Token => ({
    value: `cwp_${name}_${uidFor(seed, tokenSalt ? `token:${tokenSalt}:${name}` : `token:${name}`)}`,
    teamId,
    canWrite,
  });
  return {
    seed,
    seededAt,
    teams,
    projects,
    ...owned,
    extraBillables,
    templates: [
      {
        id: "release",
        name: "Release",
        description: "Build, migrate and promote",
        repoUrl: "https://github.com/acme/infra",
        filePath: "/templates/release.yaml",
      },
      {
        id: "preview-env",
        name: "Preview environment",
        description: "A preview environment per pull request",
        repoUrl: "https://github.com/acme/infra",
        filePath: "/templates/preview.yaml",
      },
    ],
    domains: domains(),
    tokens: {
      org: token("org", undefined),
      teamViaOrg: token("team", "platform"),
      teamOwnBilling: token("own", "labs"),
      readOnly: token("readonly", undefined, false),
    },
    secrets: [],
    builds: [],
    jobRuns: [],
    templateRuns: [],
    restores: [],
    notifications: [],
    created: 0,
  };
}

/** What billing meters in a project: its services, jobs, harnesses, addons and volumes. */
export function billables(world: World, projectId: string): Billable[] {
  const of = (type: Billable["type"], list: Array<{ projectId: string; uid: string }>) =>
    list.filter((r) => r.projectId === projectId).map((r) => ({ type, uid: r.uid, projectId }));
  return [
    ...of("service", world.services),
    ...of("job", world.jobs),
    ...of("harness", world.harnesses),
    ...of("addon", world.addons),
    ...of("volume", world.volumes),
    ...world.extraBillables.filter((b) => b.projectId === projectId),
  ];
}

/** The next id for something created through the API: stable for a seed and creation order. */
export function nextId(world: World, prefix: string): string {
  world.created += 1;
  return shortIdFor(prefix, world.seed, `created:${world.created}`);
}
