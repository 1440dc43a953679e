import { z } from "zod";
import {
  descField,
  encodedFileField,
  filesField,
  idField,
  nameField,
  refField,
  tagField,
  variablesField,
} from "./shared.js";

// Project secret groups and addon links (spec 2.3, 4.3), read from the spec.

const linkKey = z.strictObject({
  keyName: z.string().regex(/^[a-zA-Z]+$/, "letters only"),
  aliases: z.array(z.string().regex(/^[a-zA-Z0-9_./-]*$/, "letters, digits, _ . / and - only")).optional(),
});
const addonDependency = z.strictObject({ addonId: refField(), keys: z.array(linkKey) });

export const createSecretBody = z.strictObject({
  name: nameField(3, 100),
  description: descField().optional(),
  stageId: idField().optional(),
  tags: z.array(tagField()).optional(),
  type: z.enum(["secret", "config"]).optional(),
  secretType: z.enum(["environment-arguments", "environment", "arguments"]),
  priority: z.number().int().min(0).max(100),
  restrictions: z
    .strictObject({
      restricted: z.boolean().optional(),
      nfObjects: z.array(z.strictObject({ id: refField(), type: z.enum(["service", "job"]) })).optional(),
      tags: z.array(tagField()).optional(),
      tagMatchCondition: z.enum(["and", "or"]).optional(),
      stageIds: z.array(idField()).optional(),
    })
    .optional(),
  addonDependencies: z.array(addonDependency).optional(),
  externalAddonDependencies: z.array(addonDependency).optional(),
  secrets: z
    .strictObject({
      variables: variablesField().optional(),
      files: filesField().optional(),
      /** "A valid Docker secret mount identifier": letters, digits, `_`, `.` and `-`. */
      dockerSecretMounts: z
        .record(z.string().regex(/^[A-Za-z0-9_.-]+$/, "a Docker secret mount identifier"), encodedFileField())
        .optional(),
    })
    .optional(),
});
export type CreateSecretBody = z.output<typeof createSecretBody>;

/** 4.3: `keys[]` is required; linking no key links nothing. */
export const linkAddonBody = z.strictObject({ keys: z.array(linkKey).min(1) });
