import { z } from "zod";
import { listEnvelope, timestamp } from "./shared.js";

// Spec 2.9 and 4.2, plus the teams list that billing filters refer to (4.1).

export const team = z.looseObject({ id: z.string(), uid: z.string(), name: z.string().optional() });
export type Team = z.infer<typeof team>;
export const teamListResponse = listEnvelope("teams", team);

export const project = z.looseObject({
  id: z.string(),
  uid: z.string(),
  name: z.string(),
  description: z.string().optional(),
});
export type Project = z.infer<typeof project>;
export const projectListResponse = listEnvelope("projects", project);

export const PIPELINE_STAGES = ["Development", "Staging", "Production"] as const;

export const pipelineResponse = z.looseObject({
  data: z.looseObject({
    name: z.string(),
    description: z.string().optional(),
    preview: z.looseObject({}).optional(),
    stages: z.array(z.unknown()).optional(),
    nfObjects: z
      .array(z.looseObject({ id: z.string().optional(), type: z.string(), stage: z.string() }))
      .optional(),
    createdAt: timestamp().optional(),
  }),
});
export type Pipeline = z.infer<typeof pipelineResponse>["data"];
