import { deploymentContract } from "@cwp/action-testing";
import { spec } from "./contract-spec.js";

// GitHub deployments, through the committed bundle: the recorder's dealings with GitHub alone
// (its pages, inputs, summary, environments), one path of action-kit's whatever the work, run here
// for every action (GitHub failing it: deployments-github-faults.test.ts).
deploymentContract(spec, { cases: "github" });
