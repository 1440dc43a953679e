import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { uidFor } from "../ids.js";
import { ID, variablesField } from "../rules/shared.js";
import type { Outcome } from "./outcome.js";
import { ADDON_VERSIONS, newAddon, newBackup, newJob, newService, type World } from "./world.js";

// A user's own world, from a file (`cwp-emulator --world world.yaml`): their projects, services,
// jobs, templates, addons and backups under their own names, and how each piece of work on them
// ends. It is laid over the seeded world: a described project replaces the seeded one of that id
// (and everything in it), a described template the template of that id; the rest stays as seeded.

const DAY = 86_400_000;

/** An id as the platform has them (the seeded `db` too): ID-PATTERN, without creation's 3-character minimum. */
const idField = () =>
  z.string().min(1).max(100).regex(ID, "letters and digits in groups joined by single hyphens (ID-PATTERN)");

/** How every piece of work of a kind on this resource ends, unless /_emulator/outcomes says otherwise. */
const scripted = z.strictObject({
  /** Virtual seconds from start to conclusion. */
  durationSeconds: z.number().min(0).max(86_400).optional(),
  succeed: z.boolean().optional(),
  /** An explicit final status in the resource's own vocabulary (e.g. CRASHED for a build). */
  status: z.string().min(1).optional(),
  /** Log lines the work prints (builds and job runs). */
  logLines: z.array(z.string()).max(10_000).optional(),
});
type Scripted = z.infer<typeof scripted>;

const service = z.strictObject({
  id: idField(),
  kind: z.enum(["combined", "build", "deployment"]).default("combined"),
  buildArguments: variablesField().default({}),
  build: scripted.optional(),
  restart: scripted.optional(),
  /** The lines its containers print while it runs, cycled (default: generated, with some ERROR). */
  runtimeLog: z.array(z.string()).min(1).max(1000).optional(),
});

const job = z.strictObject({
  id: idField(),
  paused: z.boolean().default(false),
  runtimeEnvironment: variablesField().default({}),
  run: scripted.optional(),
});

const backup = z.strictObject({
  id: idField(),
  status: z.enum(["completed", "failed", "in-progress"]).default("completed"),
  sourceType: z
    .enum(["fileUpload", "liveInstance", "snapshot", "externalDump", "sameAddon"])
    .default("liveInstance"),
  /** Restorable into another addon (given the source project and addon). */
  global: z.boolean().default(false),
  /** How long ago it was taken. */
  ageDays: z.number().min(0).max(3650).default(1),
});

const addon = z
  .strictObject({
    id: idField(),
    type: z.enum(["postgresql", "redis"]).default("postgresql"),
    // A number too, only to say what to write: YAML reads an unquoted 16.4 as a number (and 16.10 as 16.1).
    version: z.union([z.string(), z.number()]).optional(),
    status: z.enum(["running", "paused"]).default("running"),
    backups: z.array(backup).default([]),
    upgrade: scripted.optional(),
    restore: scripted.optional(),
  })
  .superRefine((a, ctx) => {
    const versions: readonly string[] = ADDON_VERSIONS[a.type];
    if (typeof a.version === "number")
      ctx.addIssue({
        code: "custom",
        path: ["version"],
        message: `write the version in quotes, version: "${a.version}" (unquoted, YAML reads it as the number ${a.version})`,
      });
    else if (a.version !== undefined && !versions.includes(a.version))
      ctx.addIssue({
        code: "custom",
        path: ["version"],
        message: `${a.type} versions are ${versions.join(", ")}`,
      });
  })
  .transform((a) => ({ ...a, version: a.version === undefined ? undefined : String(a.version) }));

const project = z.strictObject({
  id: idField(),
  name: z.string().min(1).max(100).optional(),
  /** The team the project belongs to: one of the seeded teams (platform, data, labs). */
  team: z.string().default("platform"),
  services: z.array(service).default([]),
  jobs: z.array(job).default([]),
  addons: z.array(addon).default([]),
});

const template = z.strictObject({
  id: idField(),
  name: z.string().min(1).max(100).optional(),
  description: z.string().max(200).optional(),
  /** The arguments the template reads (`${args.name}`): a run without one of them fails. */
  arguments: z.array(z.string().min(1)).default([]),
  run: scripted.optional(),
});

/** Ids are unique among their siblings: a second `web` would hide the first. */
function duplicates(
  items: Array<{ id: string }>,
  what: string,
  ctx: z.RefinementCtx,
  at: PropertyKey[] = [],
) {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.id))
      ctx.addIssue({ code: "custom", path: [...at, i, "id"], message: `a second ${what} ${item.id}` });
    seen.add(item.id);
  });
}

export const worldFileSchema = z.strictObject({
  projects: z
    .array(
      project.superRefine((p, ctx) => {
        duplicates(p.services, "service", ctx, ["services"]);
        duplicates(p.jobs, "job", ctx, ["jobs"]);
        duplicates(p.addons, "addon", ctx, ["addons"]);
        for (const [i, a] of p.addons.entries())
          duplicates(a.backups, "backup", ctx, ["addons", i, "backups"]);
      }),
    )
    .default([])
    .superRefine((projects, ctx) => duplicates(projects, "project", ctx)),
  templates: z
    .array(template)
    .default([])
    .superRefine((templates, ctx) => duplicates(templates, "template", ctx)),
});
export type WorldFile = z.infer<typeof worldFileSchema>;

export class WorldFileError extends Error {
  override name = "WorldFileError";
}

/** `projects[0].services[1].kind`: where in the file a problem is. */
const pathOf = (path: readonly PropertyKey[]) =>
  path.reduce<string>(
    (at, key) =>
      typeof key === "number" ? `${at}[${key}]` : at === "" ? String(key) : `${at}.${String(key)}`,
    "",
  ) || "(the whole file)";

/** Reads a world file's text (YAML, of which JSON is a part); every mistake named by its path. */
export function parseWorldFile(text: string): WorldFile {
  let data: unknown;
  try {
    data = parseYaml(text) ?? {};
  } catch (error) {
    // The parser's first line, without the colon that introduces the excerpt left out.
    const said = (error as Error).message.split("\n")[0]?.replace(/:\s*$/, "");
    throw new WorldFileError(`not YAML or JSON: ${said}`);
  }
  const parsed = worldFileSchema.safeParse(data);
  if (!parsed.success)
    throw new WorldFileError(parsed.error.issues.map((i) => `${pathOf(i.path)}: ${i.message}`).join("; "));
  return parsed.data;
}

const outcomeOf = (s: Scripted | undefined): Omit<Outcome, "kind"> | undefined => s && { ...s };

/** Lays the file's projects and templates over a freshly seeded world. */
export function applyWorldFile(world: World, file: WorldFile): void {
  const teams = new Set(world.teams.map((t) => t.id));
  file.projects.forEach((p, i) => {
    if (!teams.has(p.team))
      throw new WorldFileError(
        `projects[${i}].team: ${p.team} is none of the teams ${[...teams].join(", ")}`,
      );
  });
  const { seed, seededAt } = world;
  for (const p of file.projects) {
    const elsewhere = (r: { projectId: string }) => r.projectId !== p.id;
    world.projects = world.projects.filter((q) => q.id !== p.id);
    world.services = world.services.filter(elsewhere);
    world.jobs = world.jobs.filter(elsewhere);
    world.addons = world.addons.filter(elsewhere);
    world.harnesses = world.harnesses.filter(elsewhere);
    world.volumes = world.volumes.filter(elsewhere);
    world.extraBillables = world.extraBillables.filter(elsewhere);
    const at = { seed, projectId: p.id };
    world.projects.push({
      id: p.id,
      uid: uidFor(seed, `project:${p.id}`),
      name: p.name ?? p.id,
      description: `${p.name ?? p.id}, from the world file`,
      teamId: p.team,
    });
    for (const s of p.services)
      world.services.push({
        ...newService(at, s.id, s.kind, s.buildArguments, seededAt - DAY),
        outcomes: { build: outcomeOf(s.build), restart: outcomeOf(s.restart) },
        ...(s.runtimeLog ? { runtimeLog: s.runtimeLog } : {}),
      });
    for (const j of p.jobs)
      world.jobs.push({
        ...newJob(at, j.id, j.paused, j.runtimeEnvironment),
        outcomes: { jobRun: outcomeOf(j.run) },
      });
    for (const a of p.addons) {
      const version = a.version ?? ADDON_VERSIONS[a.type].at(-2) ?? "";
      const backups = a.backups.map((b, k) =>
        newBackup(
          at,
          {
            id: b.id,
            name: `${a.id} ${b.id}`,
            uidKey: `${a.id}/${b.id}`,
            status: b.status,
            createdAt: seededAt - b.ageDays * DAY,
            sourceType: b.sourceType,
            addonVersion: version,
            global: b.global,
          },
          k,
        ),
      );
      world.addons.push({
        ...newAddon(at, {
          id: a.id,
          type: a.type,
          version,
          status: a.status,
          createdAt: seededAt - 200 * DAY,
          backups,
        }),
        outcomes: { addonUpgrade: outcomeOf(a.upgrade), restore: outcomeOf(a.restore) },
      });
    }
  }
  for (const t of file.templates) {
    world.templates = world.templates.filter((u) => u.id !== t.id);
    world.templates.push({
      id: t.id,
      name: t.name ?? t.id,
      description: t.description ?? `${t.name ?? t.id}, from the world file`,
      repoUrl: "https://github.com/acme/infra",
      filePath: `/templates/${t.id}.yaml`,
      arguments: t.arguments,
      outcomes: { templateRun: outcomeOf(t.run) },
    });
  }
}
