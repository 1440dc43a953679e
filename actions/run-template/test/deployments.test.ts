import { deploymentContract } from "@cwp/action-testing";
import { spec } from "./contract-spec.js";

// GitHub deployments, through the committed bundle: here every case, the recorder's dealings with
// GitHub alone too (the other actions run the cases where it meets their work).
deploymentContract(spec, { everyGitHubCase: true });
