import { deploymentContract } from "@cwp/action-testing";
import { spec } from "./contract-spec.js";

// GitHub deployments, through the committed bundle: the recorder when GitHub fails it (rate limits,
// 502s, hangs, lost answers, garbage), one path of action-kit's whatever the work, run here for
// every action (its records, pages, inputs and summary: deployments-github.test.ts).
deploymentContract(spec, { cases: "github-faults" });
