import { runnerContract } from "@cwp/action-testing";
import { spec } from "./contract-spec.js";

// The runner's contract, its first part (the work's life), through the committed bundle;
// runner-output.test.ts has the rest.
runnerContract(spec);
