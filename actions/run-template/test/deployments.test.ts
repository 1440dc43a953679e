import { deploymentContract } from "@cwp/action-testing";
import { spec } from "./contract-spec.js";

// GitHub deployments, through the committed bundle: the cases where the recorder meets the work,
// as every action runs them (deployments-github*.test.ts: its dealings with GitHub alone).
deploymentContract(spec);
