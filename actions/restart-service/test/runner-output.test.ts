import { runnerOutputContract } from "@cwp/action-testing";
import { spec } from "./contract-spec.js";

// The runner's contract, its second part (inputs, logs, what the step prints), through the
// committed bundle; runner-contract.test.ts has the work's life.
runnerOutputContract(spec);
