import { mkdir } from "node:fs/promises";
import { createClient } from "@cwp/client";
import { writeCostReport } from "@cwp/cost-report";

const { CWP_API_URL, CWP_API_TOKEN } = process.env;
if (!CWP_API_URL || !CWP_API_TOKEN) throw new Error("Set CWP_API_URL and CWP_API_TOKEN.");
const client = createClient({ baseUrl: CWP_API_URL, token: CWP_API_TOKEN });
await mkdir("costs", { recursive: true });
const { report, files } = await writeCostReport(client, {
  period: "last-month",
  groupBy: "team",
  budget: "2500",
  dir: "costs",
  formats: ["markdown", "json", "focus-parquet"],
});
console.log(`${report.period.label}: ${report.total.toFixed(2)} ${report.currency}`);
console.log(`budget: ${report.budget?.state}; files: ${Object.values(files).join(", ")}`);
