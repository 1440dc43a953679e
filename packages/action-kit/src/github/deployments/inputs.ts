import { z } from "zod";
import { OUTPUT } from "../../engine/output-kinds.js";
import { booleanInput, optionalText } from "../../inputs/parsers.js";

// The inputs and output that record a step's work as a GitHub deployment, the same on every
// action that starts work. Empty `environment` (the default) means no deployment and no request.

/** Neither a line break nor another control character: GitHub shows the name as it is given. */
const PRINTABLE = /^[^\p{Cc}]+$/u;

export const deploymentInputs = {
  environment: optionalText().pipe(
    z
      .string()
      .max(255, "must be at most 255 characters (GitHub's limit for an environment name)")
      .regex(PRINTABLE, "must be one line of text")
      .optional(),
  ),
  "environment-url": optionalText().pipe(
    z
      .string()
      .regex(/^\S+$/, "must be a URL without spaces or line breaks")
      .pipe(z.url({ protocol: /^https?$/, message: "must be an http or https URL" }))
      .refine(
        (url) => !/^[a-z]+:\/\/[^/?#]*@/i.test(url),
        "must not carry credentials (user:password@): GitHub shows the URL to everyone who can read the repository",
      )
      .optional(),
  ),
  // Empty leaves GitHub's own default (production only for an environment named production).
  "production-environment": booleanInput(undefined),
  "transient-environment": booleanInput(false),
  "deactivate-environment": booleanInput(false),
  "github-token": optionalText(),
};

export type DeploymentConfig = z.output<z.ZodObject<typeof deploymentInputs>>;

export const deploymentOutputs = { "deployment-id": OUTPUT.number };
