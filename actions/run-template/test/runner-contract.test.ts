import { runnerContract } from "@cwp/action-testing";
import { spec } from "./contract-spec.js";

// The runner's contract, through the committed bundle.
runnerContract(spec);
