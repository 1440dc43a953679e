import { describe, expect, it } from "vitest";
import { useScriptedPlatform } from "./helpers/scripted-server.js";

const t = useScriptedPlatform();

const project = (n: number) => ({
  id: `project-${n}`,
  uid: n.toString(16).padStart(24, "0"),
  name: `Project ${n}`,
});

describe("cursor lists", () => {
  it("iterates every project over three pages, following cursors", async () => {
    const all = Array.from({ length: 5 }, (_, i) => project(i));
    t.server.on("GET", "/v1/projects", (req) => {
      const start = Number(req.query.get("cursor") ?? 0);
      const size = Number(req.query.get("per_page"));
      const items = all.slice(start, start + size);
      const next = start + size < all.length;
      return {
        body: {
          data: { projects: items },
          pagination: {
            hasNextPage: next,
            count: items.length,
            ...(next ? { cursor: String(start + size) } : {}),
          },
        },
      };
    });
    const ids: string[] = [];
    for await (const p of t.client.projects.iterate({ per_page: 2 })) ids.push(p.id);
    expect(ids).toEqual(all.map((p) => p.id));
    expect(t.server.requests.map((r) => r.query.get("cursor"))).toEqual([null, "2", "4"]);
  });

  it("stops on a missing cursor even if hasNextPage says otherwise", async () => {
    t.server.on("GET", "/v1/integrations/registries", () => ({
      body: { data: { credentials: [] }, pagination: { hasNextPage: true, count: 0 } },
    }));
    const items = [];
    for await (const c of t.client.integrations.iterateRegistries()) items.push(c);
    expect(items).toEqual([]);
    expect(t.server.requests).toHaveLength(1);
  });
});

describe("billing drill-down", () => {
  const item = (id: string) => ({ id, price: { total: 1 }, usage: { vcpuHours: 1 } });
  const pageOf = (
    unit: string,
    page: number,
    pages: number,
    size: number,
    build: (ids: string[]) => unknown,
  ) => {
    const ids = Array.from({ length: size }, (_, i) => `${unit}-${page}-${i}`);
    return {
      body: {
        data: { id: "inv-1", status: "paid", total: 10, paas: build(ids) },
        pagination: { hasNextPage: page < pages, count: ids.length, unit },
      },
    };
  };

  it.each([
    ["teams", {}, "teamsPage", (ids: string[]) => ({ teams: ids.map(item) })],
    [
      "projects",
      { teamId: "a".repeat(24) },
      "projectsPage",
      (ids: string[]) => ({ teams: [{ ...item("t"), projects: ids.map(item) }] }),
    ],
    [
      "resources",
      { projectId: "b".repeat(24) },
      "resourcesPage",
      (ids: string[]) => ({
        teams: [
          {
            ...item("t"),
            projects: [{ ...item("p"), resources: [{ resourceType: "job", items: ids.map(item) }] }],
          },
        ],
      }),
    ],
  ])("pages through the %s level with its own page parameter", async (unit, filter, pageParam, shape) => {
    t.server.on("GET", "/v1/billing/invoices/inv-1", (req) => {
      const page = Number(req.query.get(pageParam) ?? 1);
      return pageOf(unit, page, 3, page < 3 ? 2 : 1, shape);
    });
    const sizeParam = pageParam.replace("Page", "PerPage");
    const pages = [];
    for await (const page of t.client.billing.invoicePages("inv-1", { ...filter, [sizeParam]: 2 }))
      pages.push(page);
    expect(pages).toHaveLength(3);
    expect(pages.every((p) => p.pagination?.unit === unit)).toBe(true);
    expect(t.server.requests.map((r) => r.query.get(pageParam))).toEqual([null, "2", "3"]);
    expect(t.server.requests.every((r) => r.query.get(sizeParam) === "2")).toBe(true);
  });

  it("follows usage cursors and sends billing times as Unix seconds", async () => {
    t.server.on("GET", "/v1/billing/usage", (req) => {
      const cursor = req.query.get("cursor");
      // Each page its own day: a page equal to the one before would end the walk.
      const entry = { timestamp: cursor ? 1_700_086_400 : 1_700_000_000, paas: {}, total: 1.25 };
      return {
        body: {
          data: { currency: "USD", usage: [entry] },
          pagination: { hasNextPage: !cursor, unit: "days", count: 1, ...(cursor ? {} : { cursor: "c2" }) },
        },
      };
    });
    const entries = [];
    for await (const e of t.client.billing.iterateUsage({
      granularity: "day",
      perPage: 1,
      startTime: 1_699_000_000,
      endTime: 1_700_000_000,
    }))
      entries.push(e);
    expect(entries).toHaveLength(2);
    expect(t.server.requests[0]?.query.get("startTime")).toBe("1699000000");
    expect(t.server.requests[1]?.query.get("cursor")).toBe("c2");
  });
});

// "A list ends where the platform says it ends": the spec makes `hasNextPage` required and says a
// `cursor` is there when a next page exists; nothing else ends a list. A platform may cap its pages
// below what was asked or split one in two: short and empty pages with a next page are followed.
describe("a list ends only where the platform says", () => {
  /** Pages of these sizes, each but the last saying there is a next page. */
  const shaped = (sizes: number[]) => {
    let n = 0;
    const pages = sizes.map((size) => Array.from({ length: size }, () => n++));
    return (cursor: string | null) => {
      const at = Number(cursor ?? 0);
      const last = at === pages.length - 1;
      return { items: pages[at] ?? [], next: last ? undefined : String(at + 1), total: n };
    };
  };

  it("follows short and empty pages of a cursor list to its last page", async () => {
    const page = shaped([3, 1, 0, 0, 2, 3]);
    t.server.on("GET", "/v1/projects", (req) => {
      const { items, next } = page(req.query.get("cursor"));
      return {
        body: {
          data: { projects: items.map(project) },
          pagination: {
            hasNextPage: next !== undefined,
            count: items.length,
            ...(next ? { cursor: next } : {}),
          },
        },
      };
    });
    const ids: string[] = [];
    for await (const p of t.client.projects.iterate({ per_page: 3 })) ids.push(p.id);
    expect(ids).toEqual(Array.from({ length: 9 }, (_, i) => `project-${i}`));
    expect(t.server.requests).toHaveLength(6);
  });

  it("follows short and empty pages of the usage stream to its last page", async () => {
    const page = shaped([2, 0, 1, 2]);
    t.server.on("GET", "/v1/billing/usage", (req) => {
      const { items, next } = page(req.query.get("cursor"));
      return {
        body: {
          data: {
            currency: "USD",
            usage: items.map((i) => ({ timestamp: 1_700_000_000 + i * 86_400, paas: {}, total: 1 })),
          },
          pagination: {
            hasNextPage: next !== undefined,
            unit: "days",
            count: items.length,
            ...(next ? { cursor: next } : {}),
          },
        },
      };
    });
    const entries = [];
    for await (const e of t.client.billing.iterateUsage({ granularity: "day", perPage: 2 })) entries.push(e);
    expect(entries).toHaveLength(5);
    expect(t.server.requests).toHaveLength(4);
  });

  it("follows a short drill-down page that says there is a next one", async () => {
    const sizes = [2, 1, 0, 2];
    t.server.on("GET", "/v1/billing/invoices/inv-1", (req) => {
      const page = Number(req.query.get("teamsPage") ?? 1);
      const ids = Array.from({ length: sizes[page - 1] ?? 0 }, (_, i) => `team-${page}-${i}`);
      return {
        body: {
          data: {
            id: "inv-1",
            status: "paid",
            total: 10,
            paas: { teams: ids.map((id) => ({ id, price: { total: 1 }, usage: { vcpuHours: 1 } })) },
          },
          pagination: { hasNextPage: page < sizes.length, count: ids.length, unit: "teams" },
        },
      };
    });
    const teams = [];
    for await (const page of t.client.billing.invoicePages("inv-1", { teamsPerPage: 2 }))
      teams.push(...(page.data.paas.teams ?? []).map((team) => team.id));
    expect(teams).toEqual(["team-1-0", "team-1-1", "team-2-0", "team-4-0", "team-4-1"]);
  });
});
