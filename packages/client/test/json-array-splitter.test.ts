import { describe, expect, it } from "vitest";
import { JsonArraySplitter } from "../src/core/json-array-splitter.js";

/** Feeds `text` in chunks of `size` bytes; returns the elements (parsed) and the envelope (parsed). */
function split(text: string, path: string[], size: number) {
  const bytes = Buffer.from(text, "utf8");
  const splitter = new JsonArraySplitter(path);
  const elements: unknown[] = [];
  for (let at = 0; at < bytes.length; at += size)
    for (const piece of splitter.write(bytes.subarray(at, at + size))) {
      expect(piece.kind).toBe("element");
      elements.push(JSON.parse(piece.text));
    }
  return { elements, envelope: JSON.parse(splitter.end()) };
}

const DOCUMENTS: Array<{ name: string; doc: Record<string, unknown> }> = [
  {
    name: "usage entries with deep objects",
    doc: {
      data: {
        currency: "USD",
        usage: [
          { paas: { teams: [{ id: "a", projects: [{ id: "p", resources: [] }] }] }, total: 1.5 },
          { paas: { price: { total: 0, cpu: 1e-7 } }, total: -2 },
        ],
        scope: { type: "team" },
      },
      pagination: { hasNextPage: true, cursor: "c2" },
    },
  },
  {
    name: "strings that look like structure, escapes and other scripts",
    doc: {
      'da"ta': { usage: ["not the target"] },
      data: {
        note: 'usage: [ } ] { , \\" ',
        usage: [{ s: 'x"]},[{' }, { s: "\\" }, { "é key": "日本語 ⏎ \u0001" }, [[1, 2], []], {}],
      },
    },
  },
  {
    name: "scalars and whitespace inside the array",
    doc: { data: { usage: [1, "two, three]", true, null, -4.5e3, { x: [] }] } },
  },
  {
    name: "a usage key deeper than the path is not the target",
    doc: { pagination: { usage: [9] }, data: { inner: { usage: [8] }, usage: [{ k: 1 }] } },
  },
  { name: "an empty array", doc: { data: { usage: [] }, pagination: { hasNextPage: false } } },
  { name: "no such array", doc: { data: { other: [1] } } },
];

describe("JsonArraySplitter", () => {
  for (const { name, doc } of DOCUMENTS) {
    const compact = JSON.stringify(doc);
    const pretty = JSON.stringify(doc, null, 2);
    const data = doc.data as { usage?: unknown[] } & Record<string, unknown>;
    const expectedEnvelope = data.usage === undefined ? doc : { ...doc, data: { ...data, usage: [] } };
    it(`${name}: every chunk size gives the elements and the envelope`, () => {
      for (const text of [compact, pretty])
        for (const size of [1, 2, 3, 5, 7, 64, 100_000]) {
          const { elements, envelope } = split(text, ["data", "usage"], size);
          expect(elements, `chunk size ${size}`).toEqual(data.usage ?? []);
          expect(envelope, `chunk size ${size}`).toEqual(expectedEnvelope);
        }
    });
  }

  it("passes over the skipped array inside each inner item, wherever the chunks fall", () => {
    // Teams as the inner items; each project's `resources` (depth 4 in its team) passed over.
    const team = (id: string) => ({
      id,
      // The same key elsewhere, and text that looks like it: kept.
      resources: ["team-level"],
      note: '"resources":[1]',
      projects: [
        { id: `${id}-p1`, resources: [{ type: "job", items: [{ id: "r1", v: "]}" }] }], total: 1 },
        { resources: [], price: { resources: [2] } },
        // A key that ends in the skipped one, after an escaped quote.
        { id: `${id}-p3`, 'x"resources': [5], total: 3 },
      ],
    });
    const entries = [{ paas: { teams: [team("a"), team("b")] }, total: 1 }];
    const emptied = (t: ReturnType<typeof team>) => ({
      ...t,
      projects: t.projects.map((p) => ("resources" in p ? { ...p, resources: [] } : p)),
    });
    const doc = { data: { usage: entries } };
    for (const text of [JSON.stringify(doc), JSON.stringify(doc, null, 2)])
      for (const size of [1, 2, 3, 7, 16, 100_000]) {
        const bytes = Buffer.from(text);
        const splitter = new JsonArraySplitter(["data", "usage"], {
          inner: ["paas", "teams"],
          skip: { key: "resources", depth: 4 },
        });
        const teams: Array<ReturnType<typeof team>> = [];
        for (let at = 0; at < bytes.length; at += size)
          for (const piece of splitter.write(bytes.subarray(at, at + size)))
            if (piece.kind === "inner") teams.push(JSON.parse(piece.text));
        splitter.end();
        // A skipped array arrives empty, or whole where its key ended in the chunk before.
        const expected = [team("a"), team("b")];
        expect(teams.map(emptied), `chunk size ${size}`).toEqual(expected.map(emptied));
        const kept = (t: ReturnType<typeof team>) => [
          t.resources,
          t.note,
          t.projects[1]?.price,
          t.projects[2],
        ];
        expect(teams.map(kept), `chunk size ${size}`).toEqual(expected.map(kept));
        if (size === 100_000) expect(teams).toEqual(expected.map(emptied));
      }
  });

  it("says a document that ends early is incomplete", () => {
    const splitter = new JsonArraySplitter(["data", "usage"]);
    splitter.write(Buffer.from('{"data":{"usage":[{"a":1},{"b":'));
    expect(() => splitter.end()).toThrow(/ended before it was complete/);
  });

  it("hands over an element as soon as its last byte arrives", () => {
    const splitter = new JsonArraySplitter(["data", "usage"]);
    const texts = (text: string) => splitter.write(Buffer.from(text)).map((p) => p.text);
    expect(texts('{"data":{"usage":[{"a":1}')).toEqual(['{"a":1}']);
    expect(texts(',{"b":2}')).toEqual(['{"b":2}']);
    expect(texts("]}}")).toEqual([]);
  });

  it("splits each element further: its head, its inner items one by one, then the rest of it", () => {
    const entries = [
      {
        window: { start: "a", end: "b" },
        paas: { price: { total: 1 }, teams: [{ id: "t1", projects: [{ id: "p" }] }, { id: "t2" }] },
        total: 1,
      },
      { paas: { teams: [] }, total: 0, window: { start: "c" } },
      { paas: { price: { total: 2 } }, total: 2 },
      { total: 3, paas: { note: "teams: [ ]", teams: [{ id: "t3" }] } },
    ];
    const text = JSON.stringify({
      data: { currency: "USD", usage: entries },
      pagination: { hasNextPage: false },
    });
    const expected: Array<{ kind: string; value: unknown }> = [];
    for (const entry of entries) {
      const teams = entry.paas.teams;
      if (teams) {
        // The head: every member before the teams array, the array itself empty.
        const head = JSON.parse(`${JSON.stringify(entry).split('"teams":[')[0]}"teams":[]}}`);
        expected.push({ kind: "head", value: head });
        for (const team of teams) expected.push({ kind: "inner", value: team });
      }
      expected.push({
        kind: "element",
        value: teams ? { ...entry, paas: { ...entry.paas, teams: [] } } : entry,
      });
    }
    for (const size of [1, 3, 16, 100_000]) {
      const bytes = Buffer.from(text);
      const splitter = new JsonArraySplitter(["data", "usage"], { inner: ["paas", "teams"] });
      const pieces: Array<{ kind: string; value: unknown }> = [];
      for (let at = 0; at < bytes.length; at += size)
        for (const piece of splitter.write(bytes.subarray(at, at + size)))
          pieces.push({ kind: piece.kind, value: JSON.parse(piece.text) });
      expect(pieces, `chunk size ${size}`).toEqual(expected);
      expect(JSON.parse(splitter.end())).toEqual({
        data: { currency: "USD", usage: [] },
        pagination: { hasNextPage: false },
      });
    }
  });
});

describe("JsonArraySplitter: a bound on what one piece keeps", () => {
  const feed = (splitter: JsonArraySplitter, text: string, size: number) => {
    const bytes = Buffer.from(text);
    const pieces: string[] = [];
    for (let at = 0; at < bytes.length; at += size)
      for (const piece of splitter.write(bytes.subarray(at, at + size))) pieces.push(piece.text);
    return pieces;
  };
  const big = "x".repeat(1_000);

  it("hands over pieces up to the bound, whatever their number", () => {
    const splitter = new JsonArraySplitter(["data", "usage"], { maxPieceBytes: 1_100 });
    const entries = Array.from({ length: 50 }, () => `{"s":"${big}"}`).join(",");
    expect(feed(splitter, `{"data":{"usage":[${entries}]}}`, 64)).toHaveLength(50);
  });

  it.each([
    ["an element", `{"data":{"usage":[{"s":"${big}${big}"}]}}`, undefined, "element"],
    [
      "an inner item",
      `{"data":{"usage":[{"paas":{"teams":[{"s":"${big}${big}"}]}}]}}`,
      ["paas", "teams"],
      "element",
    ],
    // Split further, an element's members besides its inner items are the inner splitter's envelope.
    [
      "an element's head",
      `{"data":{"usage":[{"s":"${big}${big}","paas":{"teams":[]}}]}}`,
      ["paas", "teams"],
      "envelope",
    ],
    ["the envelope", `{"note":"${big}${big}","data":{"usage":[]}}`, undefined, "envelope"],
  ])("refuses %s past the bound as it arrives", (_name, text, inner, kind) => {
    const splitter = new JsonArraySplitter(["data", "usage"], {
      ...(inner ? { inner } : {}),
      maxPieceBytes: 1_500,
    });
    expect(() => feed(splitter, text, 100)).toThrow(expect.objectContaining({ kind, limit: 1_500 }));
  });
});
