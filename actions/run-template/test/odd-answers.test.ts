import { oddAnswersContract } from "@cwp/action-testing";
import { spec } from "./contract-spec.js";

// The live platform's odd answers, through the committed bundle.
oddAnswersContract(spec);
