import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { useEmulator } from "../helpers.js";

// Spec 2.10 and 6: notification integrations receive the events they subscribe to.

const emu = useEmulator({ speed: 0 });

async function receiver(status = 204) {
  const received: Array<{
    headers: IncomingHttpHeaders;
    body: { event: string; resource: { type: string; id: string } };
  }> = [];
  const server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    received.push({ headers: req.headers, body: JSON.parse(text) });
    res.writeHead(status).end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, close: () => new Promise((r) => server.close(r)) };
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 50 && !check(); i += 1) await new Promise((r) => setTimeout(r, 50));
};

describe("notification webhooks", () => {
  it("deliver subscribed build events with the secret header, and nothing else", async () => {
    const hook = await receiver();
    const created = await emu.api("POST", "/v1/integrations/notifications", {
      body: {
        name: "builds",
        type: "RAW_WEBHOOK",
        webhook: hook.url,
        secret: "shh-1234",
        events: {
          "trigger:build:start": true,
          "trigger:build:success": true,
          "trigger:job-run:start": false,
        },
      },
    });
    expect(created.body.data).toMatchObject({
      type: "RAW_WEBHOOK",
      restricted: false,
      status: { numberOfFailedRequests: 0 },
    });
    expect(JSON.stringify(created.body)).not.toContain("shh-1234");
    const build = (
      await emu.api("POST", "/v1/projects/platform-web/services/web/build", { body: { branch: "main" } })
    ).body.data;
    await emu.api("POST", "/v1/projects/platform-web/jobs/migrate/runs", { body: {} });
    await emu.advance(120);
    await waitFor(() => hook.received.length >= 2);
    expect(hook.received.map((r) => r.body.event)).toEqual(["trigger:build:start", "trigger:build:success"]);
    expect(hook.received[0]!.headers["x-cwp-webhook-secret"]).toBe("shh-1234");
    expect(hook.received[0]!.headers["x-cwp-event"]).toBe("trigger:build:start");
    expect(hook.received[1]!.body.resource).toEqual({ type: "build", id: build.id });
    await hook.close();
  });

  it("count failed deliveries on the integration, and honour project restrictions", async () => {
    const failing = await receiver(500);
    await emu.api("POST", "/v1/integrations/notifications", {
      body: {
        name: "runs",
        type: "RAW_WEBHOOK",
        webhook: failing.url,
        restricted: true,
        projects: ["platform-web"],
        events: { "trigger:job-run:start": true, "trigger:template-run:queued": true },
      },
    });
    await emu.api("POST", "/v1/projects/platform-web/jobs/migrate/runs", { body: {} });
    await emu.api("POST", "/v1/projects/platform-api/jobs/migrate/runs", { body: {} });
    await emu.api("POST", "/v1/templates/release/runs", { body: { arguments: {} } });
    await emu.advance(1);
    await waitFor(() => failing.received.length >= 2);
    expect(failing.received.map((r) => r.body.event).sort()).toEqual([
      "trigger:job-run:start",
      "trigger:template-run:queued",
    ]);
    const [integration] = (await emu.control("GET", "fixtures")).body.notifications;
    expect(integration.status.numberOfFailedRequests).toBe(2);
    expect(integration.status.timeOfFirstFailedRequest).toEqual(expect.any(String));
    await failing.close();
  });
});
