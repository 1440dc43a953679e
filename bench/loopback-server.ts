// The endpoint both contenders call: a project list of five, as the platform would answer it.
// Runs in its own process so that serving does not share the event loop being measured.
import { createServer } from "node:http";

const body = JSON.stringify({
  data: {
    projects: Array.from({ length: 5 }, (_, i) => ({
      id: `project-${i}`,
      uid: i.toString(16).padStart(24, "0"),
      name: `Project ${i}`,
    })),
  },
  pagination: { hasNextPage: false, count: 5 },
});

const server = createServer((_req, res) => {
  res.writeHead(200, {
    "content-type": "application/json",
    "x-ratelimit-limit": "1000000000",
    "x-ratelimit-remaining": "999999999",
    "x-ratelimit-reset": "3600",
  });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") process.send?.({ port: address.port });
});
