import * as client from "@cwp/client";
import { chars, idOf, type Operation, type Row, Rules, sha40 } from "./table.js";

// Every request rule of platform-api.md (and the readings beyond-the-seed.md settles), as rows of
// the cross-check table. The fixtures name resources that exist, so a request that passes the
// rules is answered 2xx, 404 or 409, never 400.

export interface Fixtures {
  project: string;
  projectUid: string;
  teamUid: string;
  /** A billing hour in the emulator's history (Unix seconds). */
  billingHour: number;
}

const KEYS_INSIDE = ["DATABASE_URL", "NODE_ENV", "API_KEY", "a.b/c-d", "KEY_1"];
const KEYS_OUTSIDE = ["DATABASE URL", "A$B", "A=B", ""];
const file = { data: "aGk=", encoding: "base64" };

/** Variable keys (spec 2.3, 2.4, 4.5; beyond-the-seed §5): each key in a one-entry map. */
function variableKeys(rules: Rules, field: string) {
  rules.pattern(
    field,
    "keys",
    KEYS_INSIDE.map((k) => ({ [k]: "v" })),
    KEYS_OUTSIDE.map((k) => ({ [k]: "v" })),
  );
}

function absoluteFiles(rules: Rules, field: string) {
  rules.pattern(field, "absolute paths", [{ "/etc/app.conf": file }], [{ "etc/app.conf": file }]);
}

function cursorList(rules: Rules) {
  rules
    .range("per_page", 1, 100)
    .range("page", 1, undefined)
    .pattern("cursor", "non-empty", [], [""])
    .strict();
}

function logParameters(rules: Rules) {
  rules
    .enumOf("queryType", ["range"], "tail")
    .pattern("startTime", "ISO 8601 or Unix seconds", ["2026-01-02T03:04:05Z", "1767323045"], ["yesterday"])
    .pattern("endTime", "ISO 8601 or Unix seconds", ["2026-01-02T03:04:05.123Z"], ["soon"])
    .range("duration", 1, undefined)
    .range("lineLimit", 1, undefined)
    .enumOf("direction", ["backward", "forward"], "sideways")
    .case("duration with one end", { duration: 60, startTime: "2026-01-02T03:04:05Z" }, "accept")
    .case(
      "duration with both ends",
      { duration: 60, startTime: "2026-01-02T03:04:05Z", endTime: "2026-01-02T04:04:05Z" },
      "refuse",
    )
    .strict();
}

function metricParameters(rules: Rules) {
  for (const type of client.METRIC_TYPES)
    rules.case(`metricTypes ${type}`, { metricTypes: [type] }, "accept");
  rules
    .case("metricTypes repeated", { metricTypes: ["cpu", "memory"] }, "accept")
    .case("metricTypes unknown", { metricTypes: ["gpu"] }, "refuse")
    .enumOf("queryType", ["range", "single"], "tail")
    .case("startTime with single", { queryType: "single", startTime: "2026-01-02T03:04:05Z" }, "refuse")
    .case("time with single", { queryType: "single", time: "2026-01-02T03:04:05Z" }, "accept")
    .case("time with range", { queryType: "range", time: "2026-01-02T03:04:05Z" }, "refuse")
    .range("duration", 1, undefined)
    .case(
      "duration with both ends",
      { duration: 60, startTime: "2026-01-02T03:04:05Z", endTime: "2026-01-02T04:04:05Z" },
      "refuse",
    )
    .strict();
}

export function specRules(f: Fixtures): Row[] {
  const P = `/v1/projects/${f.project}`;
  const op = (o: Operation) => new Rules(o);
  /** A read whose query the rules constrain (`valid` passes every rule). */
  const read = (
    name: string,
    path: string,
    schema: Operation["schema"],
    valid: Record<string, unknown> = {},
  ) => op({ name, method: "GET", path, part: "query", schema, valid });
  const all: Rules[] = [];
  const add = (rules: Rules) => all.push(rules);

  // 4.5: starting a build, on a combined service (web) and on a build service (image-builder).
  const build = op({
    name: "start build",
    method: "POST",
    path: `${P}/services/web/build`,
    part: "body",
    schema: client.startBuildBody,
    valid: { branch: "main" },
  });
  build
    .pattern("sha", "40 characters", [sha40], [sha40.slice(1), `${sha40}0`, chars(40, "g")])
    .case("a combined service builds a sha alone", { sha: sha40 }, "accept")
    .case("a combined service builds its latest commit", {}, "accept")
    .case("branch and pullRequestId together", { branch: "main", pullRequestId: 7 }, "refuse")
    .pattern("pullRequestId", "digits or an integer", ["42", 42], ["4a", -1, 1.5], {})
    .case("bundleUrl alone", { bundleUrl: "https://example.com/app.tgz" }, "accept")
    .case(
      "bundleUrl with a pull request",
      { bundleUrl: "https://example.com/app.tgz", pullRequestId: 7 },
      "refuse",
    )
    .pattern("overrides.docker.dockerFilePath", "absolute path", ["/Dockerfile"], ["Dockerfile"])
    .pattern("overrides.docker.dockerWorkDir", "absolute path", ["/app"], ["app"])
    .pattern(
      "overrides.docker.dockerfileTarget",
      "letters, digits, - and _",
      ["build_stage-1"],
      ["build stage"],
    )
    .length("overrides.docker.dockerfileContents", 1, undefined, (n) => chars(n, "F"))
    .strict();
  variableKeys(build, "overrides.buildArguments");
  absoluteFiles(build, "overrides.buildFiles");
  add(build);
  add(
    op({
      name: "start build on a build service",
      method: "POST",
      path: `${P}/services/image-builder/build`,
      part: "body",
      schema: client.startBuildBody,
      valid: { branch: "main" },
    })
      .case("a branch", { branch: "main" }, "accept")
      .case("a pull request", { pullRequestId: 12 }, "accept")
      .case(
        "a sha alone (the platform knows the kind)",
        { sha: sha40 },
        { client: "accept", platform: "refuse" },
      )
      .case("nothing (the platform knows the kind)", {}, { client: "accept", platform: "refuse" }),
  );

  // 2.4, 4.4: job runs.
  const external = { external: { imagePath: "nginx:1.27" } };
  const withExternal = { deployment: external };
  const job = op({
    name: "run job",
    method: "POST",
    path: `${P}/jobs/migrate/runs`,
    part: "body",
    schema: client.runJobBody,
    valid: {},
  });
  variableKeys(job, "runtimeEnvironment");
  absoluteFiles(job, "runtimeFiles");
  job
    .length("billing.deploymentPlan", 3, 100, idOf)
    .pattern("billing.deploymentPlan", "ID-PATTERN", ["plan-2"], ["plan--2", "plan_2", "-plan"])
    .case(
      "deployment with both variants",
      { deployment: { ...external, internal: { id: "image-builder" } } },
      "refuse",
    )
    .case("deployment with neither variant", { deployment: {} }, "refuse")
    .case("deployment internal", { deployment: { internal: { id: "image-builder" } } }, "accept")
    .case("deployment external", withExternal, "accept")
    .length("deployment.internal.id", 3, 54, (n) => `${f.project}/${idOf(n)}`, {
      deployment: { internal: { id: "x" } },
    })
    .pattern(
      "deployment.internal.id",
      "build service id",
      ["image-builder", `${f.project}/image-builder`],
      ["1builder", "image--builder", "a/b/image-builder", "bad project/image-builder"],
      { deployment: { internal: { id: "x" } } },
    )
    .pattern(
      "deployment.internal.buildSHA",
      "40 characters or latest",
      [sha40, "latest"],
      ["newest", sha40.slice(2)],
      {
        deployment: { internal: { id: "image-builder" } },
      },
    )
    .pattern(
      "deployment.external.imagePath",
      "image reference",
      [
        "nginx:1.27",
        "registry.example.com:5000/team/app:v1.2",
        `app@sha256:${"ab".repeat(32)}`,
        "ghcr.io/acme/app_x:latest",
      ],
      ["nginx", "Nginx:1", "nginx:", "ghcr.io/acme/app:bad tag"],
      withExternal,
    )
    .pattern("deployment.external.credentials", "REF-PATTERN", ["ghcr-main"], ["ghcr_main"], withExternal);
  const docker = (d: Record<string, unknown>) => ({ deployment: { ...external, docker: d } });
  const buildpack = (b: Record<string, unknown>) => ({ deployment: { ...external, buildpack: b } });
  job
    .case("docker default", docker({ configType: "default" }), "accept")
    .case(
      "docker customEntrypoint with it",
      docker({ configType: "customEntrypoint", customEntrypoint: "/run" }),
      "accept",
    )
    .case("docker customEntrypoint without it", docker({ configType: "customEntrypoint" }), "refuse")
    .case("docker customCommand without it", docker({ configType: "customCommand" }), "refuse")
    .case(
      "docker customEntrypointCustomCommand without the entrypoint",
      docker({ configType: "customEntrypointCustomCommand", customCommand: "go" }),
      "refuse",
    )
    .case("docker configType unknown", docker({ configType: "custom" }), "refuse")
    .case("docker configType required", docker({}), "refuse")
    .case("buildpack default", buildpack({ configType: "default" }), "accept")
    .case("buildpack customProcess without it", buildpack({ configType: "customProcess" }), "refuse")
    .case(
      "buildpack customProcess with it",
      buildpack({ configType: "customProcess", customProcess: "web" }),
      "accept",
    )
    .case(
      "buildpack originalEntrypointCustomCommand without the command",
      buildpack({ configType: "originalEntrypointCustomCommand" }),
      "refuse",
    )
    .case(
      "buildpack customEntrypointCustomCommand without the entrypoint",
      buildpack({ configType: "customEntrypointCustomCommand", customCommand: "go" }),
      "refuse",
    )
    .range("deployment.storage.ephemeralStorage.storageSize", 1024, undefined, withExternal)
    .range("deployment.storage.shmSize", 64, undefined, withExternal)
    .pattern("deployment.gpu.enabled", "boolean", [false], ["no"], withExternal)
    .case(
      "gpu configuration without gpuType",
      { deployment: { ...external, gpu: { configuration: {} } } },
      "refuse",
    )
    .case(
      "gpu configuration with gpuType",
      { deployment: { ...external, gpu: { enabled: true, configuration: { gpuType: "l4", gpuCount: 1 } } } },
      "accept",
    )
    .strict();
  add(job);
  const runtime = op({
    name: "set runtime environment",
    method: "POST",
    path: `${P}/jobs/migrate/runtime-environment`,
    part: "body",
    schema: client.setRuntimeEnvironmentBody,
    valid: { runtimeEnvironment: { A: "1" } },
  }).required("runtimeEnvironment");
  variableKeys(runtime, "runtimeEnvironment");
  add(runtime);
  add(
    op({
      name: "resume job",
      method: "POST",
      path: `${P}/jobs/nightly-report/resume`,
      part: "body",
      schema: client.resumeJobBody,
      valid: {},
    })
      .pattern("suspended", "boolean", [true], ["yes"])
      .pattern("disabledCI", "boolean", [false], [0])
      .strict(),
  );

  // 2.5, 4.8: template runs.
  add(
    op({
      name: "run template",
      method: "POST",
      path: "/v1/templates/release/runs",
      part: "body",
      schema: client.runTemplateBody,
      valid: { arguments: {} },
    })
      .required("arguments")
      .pattern("arguments", "object", [{ version: "1.10" }], ["1.10", ["a"]])
      .strict(),
  );
  const templateRuns = read("list template runs", "/v1/templates/release/runs", client.templateRunListQuery);
  cursorList(templateRuns);
  add(
    templateRuns
      .enumOf("status", client.TEMPLATE_RUN_STATUSES, "done")
      .pattern("concluded", "boolean", [true, false], ["yes"]),
  );

  // 2.3, 4.3: secrets.
  const secret = op({
    name: "create secret",
    method: "POST",
    path: `${P}/secrets`,
    part: "body",
    schema: client.createSecretBody,
    valid: { name: "app secrets", secretType: "environment", priority: 10 },
  })
    .length("name", 3, 100, (n) => chars(n))
    .pattern(
      "name",
      "NAME-PATTERN",
      ["app secrets", "app-secrets-2"],
      ["app  secrets", "app_secrets", "-app", "app-"],
    )
    .length("description", 1, 200, (n) => chars(n, "d"))
    .pattern("description", "DESC-PATTERN", ["Keys: (db) 100%, ok? [x]; `y` & z!"], ["a <b>", "a{b}"])
    .length("stageId", 3, 100, idOf)
    .pattern("tags", "TAG", [["abc"]], [["ab"], ["a_b_c"]])
    .enumOf("type", ["secret", "config"], "other")
    .enumOf("secretType", ["environment-arguments", "environment", "arguments"], "runtime")
    .required("secretType")
    .range("priority", 0, 100)
    .required("priority")
    .pattern(
      "restrictions.nfObjects",
      "{id REF-PATTERN, type service|job}",
      [[{ id: "web", type: "service" }]],
      [[{ id: "web", type: "addon" }], [{ type: "job" }], [{ id: "web_1", type: "job" }]],
    )
    .pattern("restrictions.tags", "TAG", [["prod"]], [["pr"]])
    .enumOf("restrictions.tagMatchCondition", ["and", "or"], "xor")
    .pattern("restrictions.stageIds", "ID-PATTERN 3-100", [["prod"]], [["pr"], ["pro_d"]])
    .pattern(
      "addonDependencies",
      "{addonId REF, keys[{keyName letters, aliases}]}",
      [[{ addonId: "db", keys: [{ keyName: "host", aliases: ["DB_HOST", "db.host/x-1"] }] }]],
      [
        [{ addonId: "db", keys: [{ keyName: "host1" }] }],
        [{ addonId: "db", keys: [{ keyName: "host", aliases: ["DB HOST"] }] }],
        [{ addonId: "db" }],
        [{ addonId: "db_1", keys: [] }],
      ],
    )
    .pattern(
      "externalAddonDependencies",
      "as addonDependencies",
      [[{ addonId: "ext", keys: [{ keyName: "url" }] }]],
      [[{ addonId: "ext", keys: [{ keyName: "u-r-l" }] }]],
    )
    .pattern(
      "secrets.dockerSecretMounts",
      "mount identifiers",
      [{ npm_token: file }],
      [{ "npm token": file }],
    )
    .strict();
  variableKeys(secret, "secrets.variables");
  absoluteFiles(secret, "secrets.files");
  add(secret);
  add(
    op({
      name: "link addon",
      method: "POST",
      path: `${P}/secrets/app-secrets/addons/db`,
      part: "body",
      schema: client.linkAddonBody,
      valid: { keys: [{ keyName: "host" }] },
    })
      .required("keys")
      .pattern(
        "keys",
        "keyName letters",
        [[{ keyName: "password", aliases: ["DB_PASSWORD"] }]],
        [[{ keyName: "pass_word" }]],
      )
      .pattern(
        "keys",
        "aliases",
        [[{ keyName: "host", aliases: [""] }]],
        [[{ keyName: "host", aliases: ["db host"] }]],
      )
      .strict(),
  );

  // 4.6: addons.
  add(
    op({
      name: "upgrade addon",
      method: "POST",
      path: `${P}/addons/db/version`,
      part: "body",
      schema: client.upgradeAddonBody,
      valid: { version: "16.4" },
    })
      .required("version")
      .pattern("version", "a string", ["16.4"], [16.4])
      .strict(),
  );

  // 2.10, 4.10, 6: notification integrations.
  const notification = op({
    name: "create notification",
    method: "POST",
    path: "/v1/integrations/notifications",
    part: "body",
    schema: client.createNotificationBody,
    valid: {
      name: "deploys",
      type: "RAW_WEBHOOK",
      webhook: "https://hooks.example.com/cwp",
      events: { "trigger:build:success": true },
    },
  })
    .length("name", 3, 39, (n) => chars(n))
    .pattern("name", "starts with a letter, NAME-PATTERN", ["deploy hooks"], ["1deploy", "deploy_hooks"])
    .enumOf("type", ["RAW_WEBHOOK", "DISCORD", "TEAMS", "TEAMS_WORKFLOWS"], "SLACK")
    .required("webhook")
    .pattern("webhook", "URL", ["https://hooks.example.com/x"], ["not a url"])
    .pattern("secret", "with RAW_WEBHOOK", ["s3cret"], [])
    .case(
      "secret with another type",
      { name: "deploys", type: "DISCORD", webhook: "https://discord.example/x", events: {}, secret: "x" },
      "refuse",
    )
    .pattern("restrictions.tags.items", "TAG", [["prod"]], [["pr"]])
    .enumOf("restrictions.tags.matchCondition", ["and", "or"], "xor")
    .pattern("projects", "REF-PATTERN", [[f.project]], [["a b"]])
    .required("events")
    .pattern("events", "known keys", [], [{ "trigger:build:begin": true }, { "trigger:build:start": "yes" }])
    .strict();
  for (const key of client.NOTIFICATION_EVENTS)
    notification.case(`event ${key}`, { ...notification.op.valid, events: { [key]: true } }, "accept");
  add(notification);

  // 4.2, 4.10: cursor lists.
  for (const [name, path, schema] of [
    ["list projects", "/v1/projects", client.cursorListQuery],
    ["list registries", "/v1/integrations/registries", client.cursorListQuery],
  ] as const) {
    const list = read(name, path, schema);
    cursorList(list);
    add(list);
  }

  // 4.1, 8: billing.
  add(
    read("list invoices", "/v1/billing/invoices", client.invoiceListQuery).range("perPage", 1, 100).strict(),
  );
  const day = 86_400;
  const end = f.billingHour;
  add(
    read("list usage", "/v1/billing/usage", client.usageListQuery, {
      granularity: "day",
      startTime: end - 3 * day,
      endTime: end,
    })
      .enumOf("granularity", ["hour", "day", "month"], "week")
      .range("perPage", 1, 100)
      .range("perPage", 1, 12, { granularity: "month" })
      .range("startTime", 0, undefined, { granularity: "day" })
      .case("endTime before startTime", { startTime: end, endTime: end - day }, "refuse")
      .case("total with a window", { granularity: "total", startTime: end - day, endTime: end }, "accept")
      .case("total without startTime", { granularity: "total", endTime: end }, "refuse")
      .case("total without endTime", { granularity: "total", startTime: end - day }, "refuse")
      .case(
        "total over 366 days",
        { granularity: "total", startTime: end - 366 * day, endTime: end },
        "accept",
      )
      .case(
        "total over 366 days and 1 s",
        { granularity: "total", startTime: end - 366 * day - 1, endTime: end },
        "refuse",
      )
      .pattern("teamId", "uid", [f.teamUid], ["platform", f.teamUid.toUpperCase()])
      .pattern("projectId", "uid", [f.projectUid], [f.projectUid.slice(1)])
      .enumOf("resourceType", ["job", "service", "harness", "addon", "volume"], "database")
      .strict(),
  );
  const drill = read("usage hour drill-down", `/v1/billing/usage/${f.billingHour}`, client.drillDownQuery)
    .pattern("teamId", "uid", [f.teamUid], ["platform"])
    .pattern("projectId", "uid", [f.projectUid], ["x"])
    .enumOf("resourceType", ["job", "service", "harness", "addon", "volume"], "gpu")
    .strict();
  for (const level of ["teams", "projects", "resources"])
    drill.range(`${level}Page`, 1, undefined).range(`${level}PerPage`, 1, 100);
  add(drill);

  // 4.7, 2.12: logs and metrics.
  for (const [name, path, schema] of [
    ["service logs", `${P}/services/web/logs`, client.logQuery],
    ["job logs", `${P}/jobs/migrate/logs`, client.jobLogQuery],
    ["any logs", "/v1/logs", client.containerLogQuery],
  ] as const) {
    const logs = read(name, path, schema);
    logParameters(logs);
    add(logs);
  }
  add(
    read("build logs", `${P}/services/web/build-logs`, client.buildLogQuery, { buildId: "no-such-build" })
      .required("buildId")
      .range("lineLimit", 1, undefined),
  );
  add(
    read("any logs filters", "/v1/logs", client.containerLogQuery)
      .pattern("containerName", "non-empty", ["web"], [""])
      .pattern("projectId", "non-empty", [f.project], [""]),
  );
  const serviceMetrics = read("service metrics", `${P}/services/web/metrics`, client.serviceMetricsQuery);
  metricParameters(serviceMetrics);
  add(serviceMetrics);
  const addonMetrics = read("addon metrics", `${P}/addons/db/metrics`, client.addonMetricsQuery);
  metricParameters(addonMetrics);
  add(addonMetrics);

  // 4.5: the deprecated build-arguments read and harness restarts.
  add(
    read("build arguments", `${P}/services/web/build-arguments`, client.buildArgumentsQuery)
      .enumOf("show", ["this", "inherited", "all"], "none")
      .pattern("replaceTemplatedValues", "boolean", [true], ["1"])
      .strict(),
  );
  add(
    op({
      name: "restart harness",
      method: "POST",
      path: `${P}/harnesses/devbox/restart`,
      part: "query",
      schema: client.restartHarnessQuery,
      valid: {},
    })
      .pattern("acknowledgeActiveSessions", "boolean", [true], ["yes"])
      .strict(),
  );

  // 2.7, 4.9: the subdomain of a subdomain-path list.
  add(
    op({
      name: "subdomain paths",
      method: "GET",
      path: "/v1/domains/example.com/subdomains/{param}/paths",
      part: "path",
      schema: client.subdomainParam(),
      valid: { param: "www" },
    }).pattern(
      "param",
      "*, @ or lowercase labels",
      ["www", "@", "*", "eu.api", "a-1"],
      ["WWW", "a..b", "a_b", ".a"],
    ),
  );

  return all.flatMap((r) => r.rows);
}
