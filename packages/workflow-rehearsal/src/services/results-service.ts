import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createReadStream } from "node:fs";
import { mkdir, stat, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

// GitHub's Results service as a rehearsal's jobs meet it, on loopback: a second emulator (GitHub's
// side, where @cwp/emulator is the platform's), written from what @actions/artifact sends and reads
// (its generated twirp client, results/api/v1/artifact.ts; upload-artifact.ts, blob-upload.ts,
// download-artifact.ts, get-artifact.ts, shared/util.ts), never from our own tests:
// - the artifact service's twirp methods, JSON with the protobuf field names: CreateArtifact (a
//   signed upload URL), FinalizeArtifact, ListArtifacts (by run, name, id), GetSignedArtifactURL,
//   DeleteArtifact; a name twice in one run is refused, as GitHub refuses it;
// - the signed blob URLs the library's Azure client uploads to (Put Blob, Put Block and Put Block
//   List) and downloads from, by the storage account/container/blob path an IP host has;
// - the runtime token: a JWT whose `scp` claim names the run and the job (Actions.Results:run:job),
//   as the library reads it (getBackendIdsFromToken), one a job.
// Artifacts are kept in the rehearsal's folder for the run; their list is the rehearsal's to print.

const ARTIFACTS = "/twirp/github.actions.results.api.v1.ArtifactService/";

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

export interface ResultsService {
  /** ACTIONS_RESULTS_URL (and ACTIONS_RUNTIME_URL). */
  url: string;
  /** ACTIONS_RUNTIME_TOKEN for a job of the run (a secret: mask it). */
  tokenFor(job: string): string;
  /** The run's artifacts, finalized, in the order they were made. */
  artifacts(): KeptArtifact[];
  close(): Promise<void>;
}

/** A JWT the library decodes without verifying, as the runner's is read: its claims name the run and the job. */
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export async function startResultsService(options: { folder: string; run: string }): Promise<ResultsService> {
  await mkdir(options.folder, { recursive: true });
  const artifacts: KeptArtifact[] = [];
  /** The staged blocks of an upload under way, by artifact id and block id. */
  const blocks = new Map<number, Map<string, Buffer>>();
  /** The signature of each artifact's blob URL: a URL without it is refused. */
  const signatures = new Map<number, string>();
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
        base64url({ scp: `Actions.GenericRead:${options.run} Actions.Results:${options.run}:${backend}` }),
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
  const blobUrl = (artifact: KeptArtifact) =>
    `${url}/artifacts/${options.run}/${artifact.id}.zip?sig=${signatures.get(artifact.id)}`;
  const listed = (artifact: KeptArtifact) => ({
    workflow_run_backend_id: options.run,
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
    const run = String(body.workflow_run_backend_id ?? "");
    if (run !== options.run) return twirpError(res, 404, "not_found", "workflow run not found");
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
          file: join(options.folder, `${id}.zip`),
        };
        artifacts.push(artifact);
        signatures.set(id, randomBytes(16).toString("base64url"));
        return json(res, { ok: true, signed_upload_url: blobUrl(artifact) });
      }
      case "FinalizeArtifact": {
        const artifact = artifacts.find((a) => !a.finalized && a.name === body.name);
        if (!artifact) return twirpError(res, 404, "not_found", `artifact ${String(body.name)} not found`);
        const size = await stat(artifact.file).then(
          (s) => s.size,
          () => -1,
        );
        if (size < 0)
          return twirpError(res, 400, "failed_precondition", "the artifact's blob was not uploaded");
        Object.assign(artifact, { finalized: true, size });
        return json(res, { ok: true, artifact_id: String(artifact.id) });
      }
      case "ListArtifacts": {
        const name = (body.name_filter as string | undefined) ?? undefined;
        const id = (body.id_filter as string | undefined) ?? undefined;
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
        return json(res, { signed_url: blobUrl(artifact) });
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

  async function blobCall(req: IncomingMessage, res: ServerResponse, address: URL) {
    const id = Number(/^\/artifacts\/[^/]+\/(\d+)\.zip$/.exec(address.pathname)?.[1]);
    const artifact = artifacts.find((a) => a.id === id);
    if (!artifact || address.searchParams.get("sig") !== signatures.get(id)) {
      res.writeHead(403, { "x-ms-error-code": "AuthenticationFailed" });
      return void res.end();
    }
    const headers = { "x-ms-request-id": randomBytes(8).toString("hex"), "x-ms-version": "2025-01-05" };
    if (req.method === "GET") {
      if (!artifact.finalized) return void res.writeHead(404, headers).end();
      res.writeHead(200, { ...headers, "content-type": "application/zip", "content-length": artifact.size });
      return void createReadStream(artifact.file).pipe(res);
    }
    if (req.method !== "PUT") return void res.writeHead(405, headers).end();
    const body: Buffer[] = [];
    for await (const chunk of req) body.push(chunk as Buffer);
    const bytes = Buffer.concat(body);
    const comp = address.searchParams.get("comp");
    if (comp === "block") {
      const staged = blocks.get(id) ?? new Map<string, Buffer>();
      staged.set(address.searchParams.get("blockid") ?? "", bytes);
      blocks.set(id, staged);
    } else if (comp === "blocklist") {
      // <BlockList><Latest>id</Latest>...</BlockList>: the blob is the staged blocks in that order.
      const ids = [...bytes.toString("utf8").matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]*)<\//g)].map(
        (m) => m[1] ?? "",
      );
      const staged = blocks.get(id) ?? new Map<string, Buffer>();
      if (ids.some((block) => !staged.has(block))) {
        res.writeHead(400, { ...headers, "x-ms-error-code": "InvalidBlockList" });
        return void res.end();
      }
      await writeFile(artifact.file, Buffer.concat(ids.map((block) => staged.get(block) as Buffer)));
      blocks.delete(id);
    } else await writeFile(artifact.file, bytes);
    res.writeHead(201, {
      ...headers,
      etag: `"0x${randomBytes(8).toString("hex")}"`,
      "last-modified": new Date().toUTCString(),
    });
    res.end();
  }

  const server = createServer(async (req, res) => {
    const address = new URL(req.url ?? "/", "http://results");
    try {
      if (address.pathname.startsWith(ARTIFACTS) && req.method === "POST") {
        const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
        const job = jobsByToken.get(token);
        if (!job)
          return twirpError(res, 401, "unauthenticated", "the runtime token is not one of this run's");
        let text = "";
        for await (const chunk of req) text += chunk;
        const body = JSON.parse(text || "{}") as Record<string, unknown>;
        return await artifactCall(address.pathname.slice(ARTIFACTS.length), body, res, job);
      }
      if (address.pathname.startsWith("/artifacts/")) return await blobCall(req, res, address);
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
    tokenFor,
    artifacts: () => artifacts.filter((a) => a.finalized),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
