import { once } from "node:events";
import { join } from "node:path";
import {
  booleanInput,
  choiceInput,
  defineAction,
  durationInput,
  host,
  InputError,
  integerInput,
  lineText,
  OUTPUT,
  optionalResourceIdInput,
  optionalText,
  outputFile,
  redact,
  runAction,
} from "@cwp/action-kit";
import { type LogLine, logRangePages } from "@cwp/client";
import { linePattern, platformPattern } from "./patterns.js";
import { logSource } from "./sources.js";
import { timeRange } from "./time-range.js";

const MAX_LINES = 1_000_000;
/** How much of the line that matched fail-on-regex the failure quotes. */
const QUOTED_CHARS = 500;

/**
 * The line that matched, as the failure quotes it: one line (its breaks as `\n`, as the file has
 * them), at most QUOTED_CHARS. Each host keeps it inert where it prints it (an annotation's data,
 * an escaped summary cell, the terminal's safe text) and masks what is secret.
 */
const quoted = (line: LogLine) => {
  const text = lineText(line).replace(/\r?\n/g, "\\n");
  return text.length <= QUOTED_CHARS
    ? text
    : `${text.slice(0, QUOTED_CHARS)} … (${text.length - QUOTED_CHARS} more characters)`;
};

const record = (line: LogLine, format: "text" | "jsonl") =>
  format === "jsonl"
    ? `${JSON.stringify({ ts: line.ts, containerId: line.containerId, log: line.log })}\n`
    : `${line.ts} ${line.containerId} ${lineText(line).replace(/\r?\n/g, "\\n")}\n`;

export const definition = defineAction({
  name: "fetch-logs",
  inputs: {
    "project-id": optionalResourceIdInput(),
    "service-id": optionalResourceIdInput(),
    "build-id": optionalResourceIdInput(),
    "job-id": optionalResourceIdInput(),
    "run-id": optionalResourceIdInput(),
    "container-name": optionalText(),
    "pod-name": optionalText(),
    "cluster-id": optionalResourceIdInput(),
    "start-time": optionalText(),
    "end-time": optionalText(),
    duration: optionalText().pipe(durationInput("1h").optional()),
    "line-limit": integerInput(10_000),
    direction: choiceInput(["forward", "backward"], "forward"),
    "text-includes": optionalText(),
    "text-not-includes": optionalText(),
    "regex-includes": optionalText(),
    "regex-not-includes": optionalText(),
    "output-file": optionalText(),
    format: choiceInput(["text", "jsonl"], "text"),
    print: booleanInput(true),
    "fail-on-regex": optionalText(),
  },
  outputs: {
    file: OUTPUT.ours,
    lines: OUTPUT.count,
    "first-timestamp": OUTPUT.time,
    "last-timestamp": OUTPUT.time,
    matched: OUTPUT.flag,
  },
  validate(config) {
    if ((config["line-limit"] ?? 0) > MAX_LINES)
      throw new InputError("line-limit", `must be at most ${MAX_LINES}`);
    platformPattern(config["regex-includes"], "regex-includes");
    platformPattern(config["regex-not-includes"], "regex-not-includes");
    linePattern(config["fail-on-regex"], "fail-on-regex");
  },
  async start({ config, client, clock, signal, deadline }) {
    const format = config.format ?? "text";
    const file =
      config["output-file"] ??
      join(host().filesDir(), `cwp-logs-${Date.now()}.${format === "jsonl" ? "jsonl" : "log"}`);
    // Opened before anything is read: a path that cannot be written is said before any request.
    const { stream: out, failed } = await outputFile(file, "output-file");
    // `timeout` bounds the whole read; a cancel stops it.
    const source = logSource(client, config, { signal, deadline }, clock.now);
    // A build's or run's logs cover its own life unless a time is given; other logs the last hour.
    const noTime = !config["start-time"] && !config["end-time"] && config.duration === undefined;
    const range =
      noTime && source.ownRange
        ? await source.ownRange()
        : timeRange(config["start-time"], config["end-time"], config.duration, clock.now());
    const gate = linePattern(config["fail-on-regex"], "fail-on-regex");
    const limit = config["line-limit"] ?? 10_000;
    let count = 0;
    let first: string | undefined;
    let last: string | undefined;
    let firstMatch: LogLine | undefined;
    const filters = {
      ...(config["text-includes"] ? { textIncludes: config["text-includes"] } : {}),
      ...(config["text-not-includes"] ? { textNotIncludes: config["text-not-includes"] } : {}),
      ...(config["regex-includes"] ? { regexIncludes: config["regex-includes"] } : {}),
      ...(config["regex-not-includes"] ? { regexNotIncludes: config["regex-not-includes"] } : {}),
    };
    for await (const page of logRangePages(source.fetch, {
      ...range,
      ...filters,
      direction: config.direction ?? "forward",
      pageSize: Math.min(limit, 5000),
    })) {
      const lines = page.slice(0, limit - count);
      for (const line of lines)
        if (!out.write(record(line, format))) await Promise.race([once(out, "drain"), failed]);
      if (gate && !firstMatch) {
        const at = await gate.firstMatch(lines.map(lineText), { signal, deadline, clock });
        if (at >= 0) firstMatch = lines[at];
      }
      if (config.print)
        host().logLines(
          source.title,
          lines.map((l) => ({ text: redact(`${l.ts} ${l.containerId} ${lineText(l)}`) })),
        );
      first ??= lines[0]?.ts;
      last = lines.at(-1)?.ts ?? last;
      count += lines.length;
      if (count >= limit) break;
    }
    if (config.print && count > 0) host().endLogs();
    out.end();
    await Promise.race([once(out, "finish"), failed]);
    const matched = firstMatch !== undefined;
    const message = firstMatch
      ? `A line of the ${source.title} matches fail-on-regex (first at ${firstMatch.ts}, container ${firstMatch.containerId}): ${quoted(firstMatch)}\nThe lines are in ${file}.`
      : `Read ${count} line(s) of the ${source.title} into ${file}.`;
    return {
      finished: true,
      title: source.title,
      rows: [
        ["Range", `${range.startTime} to ${range.endTime}`],
        ["Lines", String(count)],
        ["File", file],
        ["First", first],
        ["Last", last],
        ["Matched", firstMatch && `${firstMatch.ts} ${quoted(firstMatch)}`],
      ],
      outputs: {
        file,
        lines: count,
        "first-timestamp": first ?? "",
        "last-timestamp": last ?? "",
        matched,
      },
      success: !matched,
      message,
    };
  },
});

export const run = () => runAction(definition);
