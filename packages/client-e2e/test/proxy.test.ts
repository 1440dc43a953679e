import { startForwardProxy } from "@cwp/action-testing";
import { afterEach, describe, expect, it } from "vitest";
import { useEmulatedClient } from "./emulated-client.js";

// The client's default dispatcher takes HTTP_PROXY and NO_PROXY from the environment, as a runner
// behind a proxy sets them.

const env = useEmulatedClient();
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

/** Lists projects with HTTP_PROXY at a fresh local proxy and the given NO_PROXY; returns what the proxy carried. */
async function listProjectsVia(noProxy: string): Promise<string[]> {
  const proxy = await startForwardProxy();
  process.env.HTTP_PROXY = proxy.url;
  process.env.NO_PROXY = noProxy;
  // A new client: its dispatcher reads the proxy variables when it is made (the helper closes it).
  await env.client().projects.list();
  proxy.close();
  return proxy.seen;
}

const projectLists = async () => (await env.requests()).filter((r) => r.path === "/v1/projects");

describe("proxies", () => {
  it("sends requests through HTTP_PROXY", async () => {
    const seen = await listProjectsVia("");
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toContain(new URL(env.url).host);
    expect(await projectLists()).toHaveLength(1);
  });

  it("goes direct for hosts in NO_PROXY", async () => {
    const seen = await listProjectsVia("127.0.0.1");
    expect(seen).toEqual([]);
    expect(await projectLists()).toHaveLength(1);
  });
});
