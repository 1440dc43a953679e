import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseWorldFile, startEmulator, WorldFileError } from "../src/index.js";
import { useEmulator } from "./helpers.js";

// The user's own world from a file: laid over the seeded one, every mistake named by its path.

const examples = fileURLToPath(new URL("../../../examples/world.yaml", import.meta.url));
const bin = fileURLToPath(new URL("../bin/cwp-emulator.js", import.meta.url));
const world = parseWorldFile(await readFile(examples, "utf8"));
const emulator = useEmulator({ speed: 0, world });

describe("a world file", () => {
  it("adds the described projects, services, jobs, addons, backups and templates under their names", async () => {
    const { fixtures } = emulator;
    expect(fixtures.projects.map((p) => p.id)).toEqual(expect.arrayContaining(["shop", "shop-staging"]));
    expect((await emulator.api("GET", "/v1/projects/shop/services/web")).status).toBe(200);
    expect((await emulator.api("GET", "/v1/projects/shop/jobs/migrate/runs")).status).toBe(200);
    const backup = await emulator.api("GET", "/v1/projects/shop/addons/db/backups/nightly-golden");
    expect(backup.status).toBe(200);
    expect(fixtures.templates.map((t) => t.id)).toEqual(
      expect.arrayContaining(["preview-env", "preview-teardown", "release"]),
    );
  });

  it("keeps the seeded defaults for whatever it does not describe, also after a reset", async () => {
    expect((await emulator.api("GET", "/v1/projects/platform-web/services/web")).status).toBe(200);
    await emulator.control("POST", "reset");
    expect((await emulator.api("GET", "/v1/projects/shop/services/web")).status).toBe(200);
    expect((await emulator.api("GET", "/v1/projects/platform-web/jobs/migrate/runs")).status).toBe(200);
  });

  it("ends work as the file scripts it: a job run's duration and log lines", async () => {
    const started = await emulator.api("POST", "/v1/projects/shop/jobs/migrate/runs", { body: {} });
    expect(started.status).toBe(200);
    const run = `/v1/projects/shop/jobs/migrate/runs/${started.body.data.id}`;
    await emulator.advance(60);
    expect((await emulator.api("GET", run)).body.data.concluded).toBe(false);
    await emulator.advance(40);
    expect((await emulator.api("GET", run)).body.data.status).toBe("SUCCESS");
    const logs = await emulator.api("GET", "/v1/projects/shop/jobs/migrate/logs", {
      query: { runId: started.body.data.id, duration: 3600, direction: "forward" },
    });
    expect(logs.body.data.map((l: { log: string }) => l.log)).toEqual([
      "applying 0042_orders_total",
      "migrations applied",
    ]);
  });

  it("fails a template run that lacks an argument the template reads, and runs one that has them", async () => {
    const lacking = await emulator.api("POST", "/v1/templates/preview-env/runs", {
      body: { arguments: { "pull-request": "42" } },
    });
    const whole = await emulator.api("POST", "/v1/templates/preview-env/runs", {
      body: { arguments: { "pull-request": "42", sha: "a".repeat(40) } },
    });
    await emulator.advance(121);
    const status = async (id: string) =>
      (await emulator.api("GET", `/v1/templates/preview-env/runs/${id}`)).body.data.status;
    expect(await status(lacking.body.data.id)).toBe("failure");
    expect(await status(whole.body.data.id)).toBe("success");
  });

  it("takes an argument named like an object's member (constructor, toString) as any other", async () => {
    const file = parseWorldFile("templates:\n  - id: odd-names\n    arguments: [constructor, toString]\n");
    const odd = await startEmulator({ port: 0, speed: 0, world: file });
    try {
      const fixtures = (await (await fetch(`${odd.url}/_emulator/fixtures`)).json()) as {
        tokens: { org: string };
      };
      const start = async (args: Record<string, string>) =>
        (
          (await (
            await fetch(`${odd.url}/v1/templates/odd-names/runs`, {
              method: "POST",
              headers: { authorization: `Bearer ${fixtures.tokens.org}`, "content-type": "application/json" },
              body: JSON.stringify({ arguments: args }),
            })
          ).json()) as { data: { id: string } }
        ).data.id;
      const lacking = await start({});
      const whole = await start({ constructor: "a", toString: "b" });
      await fetch(`${odd.url}/_emulator/clock`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ advanceSeconds: 600 }),
      });
      const status = async (id: string) =>
        (
          (await (
            await fetch(`${odd.url}/v1/templates/odd-names/runs/${id}`, {
              headers: { authorization: `Bearer ${fixtures.tokens.org}` },
            })
          ).json()) as { data: { status: string } }
        ).data.status;
      expect(await status(lacking)).toBe("failure");
      expect(await status(whole)).toBe("success");
    } finally {
      await odd.close();
    }
  });

  it("a scripted outcome of the control plane still goes first", async () => {
    await emulator.control("POST", "outcomes", { kind: "templateRun", succeed: false, durationSeconds: 1 });
    const run = await emulator.api("POST", "/v1/templates/preview-teardown/runs", {
      body: { arguments: { "pull-request": "42" } },
    });
    await emulator.advance(2);
    const read = await emulator.api("GET", `/v1/templates/preview-teardown/runs/${run.body.data.id}`);
    expect(read.body.data.status).toBe("failure");
  });
});

describe("a mistake in a world file", () => {
  const refused = (text: string) => {
    try {
      parseWorldFile(text);
    } catch (error) {
      expect(error).toBeInstanceOf(WorldFileError);
      return (error as Error).message;
    }
    throw new Error("accepted");
  };

  it("is named by its path in the file, with what is allowed", () => {
    expect(
      refused("projects:\n  - id: shop\n    services:\n      - id: web\n        kind: lambda\n"),
    ).toMatch(/^projects\[0\]\.services\[0\]\.kind: .*"combined"\|"build"\|"deployment"/);
    expect(refused("projects:\n  - id: shop\n    services: [{id: web}, {id: web}]\n")).toBe(
      "projects[0].services[1].id: a second service web",
    );
    expect(
      refused(
        "projects:\n  - id: shop\n    addons:\n      - id: db\n        backups: [{id: nightly}, {id: nightly}]\n",
      ),
    ).toBe("projects[0].addons[0].backups[1].id: a second backup nightly");
    expect(refused("projects:\n  - id: shop\n    addons: [{id: db, version: '9.6'}]\n")).toBe(
      "projects[0].addons[0].version: postgresql versions are 14.12, 15.7, 16.4, 17.0",
    );
    expect(refused("templates:\n  - id: preview-env\n    argumnets: [pull-request]\n")).toMatch(
      /^templates\[0\]: .*argumnets/,
    );
    expect(refused("projects:\n  - id: 'my shop'\n")).toMatch(/^projects\[0\]\.id: /);
    expect(refused("projects: [\n")).toMatch(/^not YAML or JSON: /);
  });

  it("says whole sentences: an unquoted version says to quote it, and no message ends at a colon", () => {
    expect(refused("projects:\n  - id: shop\n    addons: [{id: db, version: 16.4}]\n")).toBe(
      'projects[0].addons[0].version: write the version in quotes, version: "16.4" (unquoted, YAML reads it as the number 16.4)',
    );
    for (const text of [
      "projects: [\n",
      "projects:\n  - id: a: b\n",
      "projects: {id: shop\n",
      "\tprojects: []\n",
    ])
      expect(refused(text)).not.toMatch(/:\s*$/);
  });

  it("stops cwp-emulator --world with exit code 2, naming the file and the path; an unknown team too", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cwp-world-"));
    for (const [text, said] of [
      [
        "projects:\n  - id: shop\n    jobs: [{id: migrate, paused: sometimes}]\n",
        "projects[0].jobs[0].paused: ",
      ],
      [
        "projects:\n  - id: shop\n    team: sales\n",
        "projects[0].team: sales is none of the teams platform, data, labs",
      ],
    ] as const) {
      const file = join(dir, "world.yaml");
      await writeFile(file, text);
      const child = spawn(process.execPath, [bin, "--port", "0", "--world", file], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      const [code] = (await once(child, "exit")) as [number];
      expect(code).toBe(2);
      expect(stderr).toContain(`cwp-emulator: --world ${file}: ${said}`);
    }
  });
});
