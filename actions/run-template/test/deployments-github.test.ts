import { deploymentContract } from "@cwp/action-testing";
import { spec } from "./contract-spec.js";

// GitHub deployments, through the committed bundle: the recorder's dealings with GitHub alone
// (its pages, retries, rate limits, lost answers, inputs, summary), one path of action-kit's
// whatever the work, run here for every action.
deploymentContract(spec, { cases: "github" });
