import { z } from "zod";
import { listEnvelope, timestamp } from "./shared.js";

// Spec 2.9 and 4.2, plus the teams list that billing filters refer to (4.1).

export const team = z.looseObject({ id: z.string(), uid: z.string(), name: z.string().nullish() });
export type Team = z.infer<typeof team>;
export const teamListResponse = listEnvelope("teams", team);

export const project = z.looseObject({
  id: z.string(),
  uid: z.string(),
  name: z.string().nullish(),
  description: z.string().nullish(),
});
export type Project = z.infer<typeof project>;
export const projectListResponse = listEnvelope("projects", project);

export const PIPELINE_STAGES = ["Development", "Staging", "Production"] as const;

export const pipelineResponse = z.looseObject({
  data: z.looseObject({
    name: z.string().nullish(),
    description: z.string().nullish(),
    preview: z.looseObject({}).nullish(),
    stages: z.array(z.unknown()).nullish(),
    nfObjects: z
      .array(
        z.looseObject({ id: z.string().nullish(), type: z.string().nullish(), stage: z.string().nullish() }),
      )
      .nullish(),
    createdAt: timestamp().nullish(),
  }),
});
export type Pipeline = z.infer<typeof pipelineResponse>["data"];
