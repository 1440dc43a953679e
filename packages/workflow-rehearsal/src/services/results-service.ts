import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdir, open } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { BlobStore, sizeOf } from "./blob-store.js";
import { CacheEntries } from "./cache-entries.js";

// GitHub's Results service as a rehearsal's jobs meet it, on loopback: a second emulator (GitHub's
// side, where @cwp/emulator is the platform's), written from what GitHub's own clients send and
// read (@actions/artifact's and @actions/cache's generated twirp clients, results/api/v1/artifact.ts
// and cache.ts; upload-artifact.ts, download-artifact.ts, get-artifact.ts, cache.ts restoreCacheV2
// and saveCacheV2, shared/util.ts), never from our own tests. JSON with the protobuf field names:
// - the artifact service: CreateArtifact (a signed upload URL), FinalizeArtifact, ListArtifacts (by
//   run, name, id), GetSignedArtifactURL, DeleteArtifact; a name twice in one run is refused;
// - the cache service (v2): CreateCacheEntry, FinalizeCacheEntryUpload, GetCacheEntryDownloadURL,
//   and its v1 REST form (cacheHttpClient.ts: GET cache?keys=&version=, POST caches to reserve,
//   PATCH caches/{id} with a Content-Range per chunk, POST caches/{id} to commit), over the
//   repository's entries (`cache-entries.ts`);
// - the signed blob URLs both upload to and download from (`blob-store.ts`);
// - the runtime token: a JWT whose `scp` claim names the run and the job (Actions.Results:run:job),
//   as the libraries read it, one a job.

const ARTIFACTS = "/twirp/github.actions.results.api.v1.ArtifactService/";
const CACHES = "/twirp/github.actions.results.api.v1.CacheService/";
/** The cache service's v1 REST form (ACTIONS_CACHE_URL), which a library that knows no v2 uses. */
const CACHES_V1 = "/_apis/artifactcache/";

export interface KeptArtifact {
  id: number;
  name: string;
  size: number;
  /** The job that made it (the token's job). */
  job: string;
  createdAt: string;
  finalized: boolean;
  /** Where its bytes are (the zip the library uploaded). */
  file: string;
}

export interface ResultsServiceOptions {
  /** The rehearsal's folder for the run's artifacts. */
  artifacts: string;
  /** The repository's caches: a folder that outlives the rehearsal. */
  caches: string;
  /** The run's ref (the scope its caches are saved in), and the default branch's (looked in after it). */
  ref: string;
  defaultRef: string;
}

export interface ResultsService {
  url: string;
  /**
   * The variables the runner gives a job's JavaScript actions to reach the service:
   * ACTIONS_RUNTIME_URL, ACTIONS_RESULTS_URL, ACTIONS_CACHE_URL (the v1 form),
   * ACTIONS_CACHE_SERVICE_V2, and ACTIONS_RUNTIME_TOKEN (a secret: mask it).
   */
  variablesFor(job: string): Record<string, string> & { ACTIONS_RUNTIME_TOKEN: string };
  /** The run's artifacts, finalized, in the order they were made. */
  artifacts(): KeptArtifact[];
  close(): Promise<void>;
}

const RUN = "rehearsal-run";

async function textOf(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

/** A JWT the libraries decode without verifying, as the runner's is read: its claims name the run and the job. */
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export async function startResultsService(options: ResultsServiceOptions): Promise<ResultsService> {
  await mkdir(options.artifacts, { recursive: true });
  const caches = await CacheEntries.open(options.caches);
  const blobs = new BlobStore("/blobs");
  const artifacts: KeptArtifact[] = [];
  /** Each job's token, and the backend id its claims give it. */
  const jobs = new Map<string, { token: string; backend: string }>();
  const jobsByToken = new Map<string, string>();
  let nextId = 1;
  let url = "";

  const tokenFor = (job: string) => {
    let known = jobs.get(job);
    if (!known) {
      const backend = `job-${jobs.size + 1}`;
      const token = [
        base64url({ alg: "none", typ: "JWT" }),
        base64url({ scp: `Actions.GenericRead:${RUN} Actions.Results:${RUN}:${backend}` }),
        randomBytes(16).toString("base64url"),
      ].join(".");
      known = { token, backend };
      jobs.set(job, known);
      jobsByToken.set(token, job);
    }
    return known.token;
  };

  const twirpError = (res: ServerResponse, status: number, code: string, msg: string) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ code, msg }));
  };
  const json = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  // The artifact's blob ends in .zip: the library reads a download so named as a zip to extract.
  const artifactUrl = (artifact: KeptArtifact) =>
    blobs.sign(url, `artifacts/${artifact.id}.zip`, artifact.file, () => artifact.finalized);
  const listed = (artifact: KeptArtifact) => ({
    workflow_run_backend_id: RUN,
    workflow_job_run_backend_id: jobs.get(artifact.job)?.backend ?? "",
    database_id: String(artifact.id),
    name: artifact.name,
    size: String(artifact.size),
    created_at: artifact.createdAt,
  });

  async function artifactCall(
    method: string,
    body: Record<string, unknown>,
    res: ServerResponse,
    job: string,
  ) {
    if (String(body.workflow_run_backend_id ?? "") !== RUN)
      return twirpError(res, 404, "not_found", "workflow run not found");
    const named = (name: unknown) => artifacts.find((a) => a.finalized && a.name === name);
    switch (method) {
      case "CreateArtifact": {
        const name = String(body.name ?? "");
        if (name === "" || /["\\/:<>|*?\r\n]/.test(name))
          return twirpError(res, 400, "invalid_argument", `The artifact name is not valid: ${name}`);
        if (artifacts.some((a) => a.name === name))
          return twirpError(
            res,
            409,
            "already_exists",
            "an artifact with this name already exists on the workflow run",
          );
        const id = nextId++;
        const artifact: KeptArtifact = {
          id,
          name,
          size: 0,
          job,
          createdAt: new Date().toISOString(),
          finalized: false,
          file: join(options.artifacts, `${id}.zip`),
        };
        artifacts.push(artifact);
        return json(res, { ok: true, signed_upload_url: artifactUrl(artifact) });
      }
      case "FinalizeArtifact": {
        const artifact = artifacts.find((a) => !a.finalized && a.name === body.name);
        if (!artifact) return twirpError(res, 404, "not_found", `artifact ${String(body.name)} not found`);
        const size = await sizeOf(artifact.file);
        if (size < 0)
          return twirpError(res, 400, "failed_precondition", "the artifact's blob was not uploaded");
        Object.assign(artifact, { finalized: true, size });
        return json(res, { ok: true, artifact_id: String(artifact.id) });
      }
      case "ListArtifacts": {
        const name = body.name_filter as string | undefined;
        const id = body.id_filter as string | undefined;
        const found = artifacts.filter(
          (a) =>
            a.finalized &&
            (name === undefined || a.name === name) &&
            (id === undefined || String(a.id) === String(id)),
        );
        return json(res, { artifacts: found.map(listed) });
      }
      case "GetSignedArtifactURL": {
        const artifact = named(body.name);
        if (!artifact) return twirpError(res, 404, "not_found", `artifact ${String(body.name)} not found`);
        return json(res, { signed_url: artifactUrl(artifact) });
      }
      case "DeleteArtifact": {
        const artifact = named(body.name);
        if (!artifact) return twirpError(res, 404, "not_found", `artifact ${String(body.name)} not found`);
        artifacts.splice(artifacts.indexOf(artifact), 1);
        return json(res, { ok: true, artifact_id: String(artifact.id) });
      }
      default:
        return twirpError(res, 404, "bad_route", `no method ${method}`);
    }
  }

  async function cacheCall(method: string, body: Record<string, unknown>, res: ServerResponse) {
    const key = String(body.key ?? "");
    const version = String(body.version ?? "");
    // What the library refuses before it asks, the service refuses too.
    if (key === "" || key.length > 512 || key.includes(","))
      return twirpError(
        res,
        400,
        "invalid_argument",
        `Key Validation Error: ${key} is not a valid cache key`,
      );
    switch (method) {
      case "CreateCacheEntry": {
        const entry = caches.reserve(key, version, options.ref);
        if (!entry)
          return json(res, {
            ok: false,
            message: "cache entry with the same key, version, and scope already exists",
          });
        return json(res, {
          ok: true,
          signed_upload_url: blobs.sign(
            url,
            `caches/${entry.file}`,
            caches.fileOf(entry),
            () => entry.committed,
          ),
        });
      }
      case "FinalizeCacheEntryUpload": {
        const entry = caches.pending(key, version, options.ref);
        if (!entry) return json(res, { ok: false, message: `no cache entry ${key} being uploaded` });
        const size = await sizeOf(caches.fileOf(entry));
        if (size < 0) return json(res, { ok: false, message: "the cache entry's blob was not uploaded" });
        await caches.commit(entry, size);
        return json(res, { ok: true, entry_id: String(entry.id) });
      }
      case "GetCacheEntryDownloadURL": {
        const keys = [key, ...((body.restore_keys as string[] | undefined) ?? [])];
        const scopes = [...new Set([options.ref, options.defaultRef])];
        const entry = caches.find(keys, version, scopes);
        if (!entry) return json(res, { ok: false, signed_download_url: "", matched_key: "" });
        return json(res, {
          ok: true,
          signed_download_url: blobs.sign(url, `caches/${entry.file}`, caches.fileOf(entry), () => true),
          matched_key: entry.key,
        });
      }
      default:
        return twirpError(res, 404, "bad_route", `no method ${method}`);
    }
  }

  async function cacheV1Call(req: IncomingMessage, res: ServerResponse, address: URL) {
    const resource = address.pathname.slice(CACHES_V1.length);
    const answer = (status: number, body?: unknown) => {
      res.writeHead(status, body === undefined ? {} : { "content-type": "application/json" });
      res.end(body === undefined ? "" : JSON.stringify(body));
    };
    if (req.method === "GET" && resource === "cache") {
      const keys = (address.searchParams.get("keys") ?? "").split(",").filter(Boolean);
      const version = address.searchParams.get("version") ?? "";
      const entry = caches.find(keys, version, [...new Set([options.ref, options.defaultRef])]);
      if (!entry) return answer(204);
      return answer(200, {
        cacheKey: entry.key,
        scope: entry.scope,
        archiveLocation: blobs.sign(url, `caches/${entry.file}`, caches.fileOf(entry), () => true),
      });
    }
    if (req.method === "POST" && resource === "caches") {
      const body = JSON.parse(await textOf(req)) as { key?: string; version?: string };
      const entry = caches.reserve(String(body.key ?? ""), String(body.version ?? ""), options.ref);
      if (!entry)
        return answer(409, {
          message: `Cache already exists. Scope: ${options.ref}, Key: ${body.key}, Version: ${body.version}`,
        });
      return answer(201, { cacheId: entry.id });
    }
    const entry = caches.pendingById(Number(/^caches\/(\d+)$/.exec(resource)?.[1]));
    if (!entry) return answer(404, { message: `no cache being uploaded at ${resource}` });
    if (req.method === "PATCH") {
      // Content-Range: bytes start-end/*: the chunk's place in the archive.
      const start = Number(/^bytes (\d+)-\d+\/\*$/.exec(String(req.headers["content-range"]))?.[1]);
      if (!Number.isFinite(start))
        return answer(400, { message: "Content-Range: bytes start-end/* is required" });
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      // Chunks come in any order, several at once: each is written at its place.
      await (await open(caches.fileOf(entry), "a")).close();
      const file = await open(caches.fileOf(entry), "r+");
      await file.write(Buffer.concat(chunks), 0, undefined, start);
      await file.close();
      return answer(204);
    }
    if (req.method === "POST") {
      const { size } = JSON.parse(await textOf(req)) as { size?: number };
      const written = await sizeOf(caches.fileOf(entry));
      if (written !== size)
        return answer(400, { message: `the archive is ${written} bytes, not the ${size} committed` });
      await caches.commit(entry, written);
      return answer(204);
    }
    return answer(405, { message: `no ${req.method} ${resource}` });
  }

  const server = createServer(async (req, res) => {
    const address = new URL(req.url ?? "/", "http://results");
    try {
      const service = [ARTIFACTS, CACHES].find((prefix) => address.pathname.startsWith(prefix));
      const v1 = address.pathname.startsWith(CACHES_V1);
      if ((service && req.method === "POST") || v1) {
        // Both forms take the runtime token a job was given.
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
        const job = jobsByToken.get(token);
        if (!job)
          return twirpError(res, 401, "unauthenticated", "the runtime token is not one of this run's");
        if (!service) return await cacheV1Call(req, res, address);
        const body = JSON.parse((await textOf(req)) || "{}") as Record<string, unknown>;
        const method = address.pathname.slice(service.length);
        return await (service === ARTIFACTS
          ? artifactCall(method, body, res, job)
          : cacheCall(method, body, res));
      }
      if (blobs.owns(address.pathname)) return await blobs.handle(req, res, address);
      twirpError(res, 404, "bad_route", `no route ${req.method} ${address.pathname}`);
    } catch (error) {
      twirpError(res, 500, "internal", (error as Error).message);
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    variablesFor: (job) => ({
      ACTIONS_RUNTIME_URL: `${url}/`,
      ACTIONS_RESULTS_URL: `${url}/`,
      ACTIONS_CACHE_URL: `${url}/`,
      ACTIONS_CACHE_SERVICE_V2: "True",
      ACTIONS_RUNTIME_TOKEN: tokenFor(job),
    }),
    artifacts: () => artifacts.filter((a) => a.finalized),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
