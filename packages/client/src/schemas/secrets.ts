import { z } from "zod";
import {
  description,
  encodedFile,
  fileMap,
  id,
  name,
  openEnum,
  ref,
  tag,
  timestamp,
  variableKey,
} from "./shared.js";

// Spec 2.3 and 4.3: project secret groups, addon links, and the deprecated build-arguments view.

export const SECRET_TYPES = ["environment-arguments", "environment", "arguments"] as const;

const aliasPattern = /^[a-zA-Z0-9_./-]*$/;

export const addonLinkKey = z.strictObject({
  keyName: z.string().regex(/^[a-zA-Z]+$/, "letters only"),
  aliases: z.array(z.string().regex(aliasPattern, "letters, digits and _ . / - only")).optional(),
});

const addonDependency = z.strictObject({
  addonId: ref(),
  keys: z.array(addonLinkKey),
});

export const createSecretBody = z.strictObject({
  name: name(3, 100),
  description: description().optional(),
  stageId: id().optional(),
  tags: z.array(tag()).optional(),
  type: z.enum(["secret", "config"]).optional(),
  secretType: z.enum(SECRET_TYPES),
  priority: z.number().int().min(0).max(100),
  restrictions: z
    .strictObject({
      restricted: z.boolean().optional(),
      nfObjects: z.array(z.strictObject({ id: ref(), type: z.enum(["service", "job"]) })).optional(),
      tags: z.array(tag()).optional(),
      tagMatchCondition: z.enum(["and", "or"]).optional(),
      stageIds: z.array(id()).optional(),
    })
    .optional(),
  addonDependencies: z.array(addonDependency).optional(),
  externalAddonDependencies: z.array(addonDependency).optional(),
  secrets: z
    .strictObject({
      variables: z.record(variableKey(), z.string()).optional(),
      files: fileMap().optional(),
      dockerSecretMounts: z
        .record(
          z.string().regex(/^[A-Za-z0-9_.-]+$/, "a Docker secret mount id: letters, digits, _ . -"),
          encodedFile(),
        )
        .optional(),
    })
    .optional(),
});
export type CreateSecretBody = z.input<typeof createSecretBody>;

export const secretGroup = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  stageId: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  type: openEnum(["secret", "config"]).nullish(),
  secretType: openEnum(SECRET_TYPES).nullish(),
  priority: z.number().nullish(),
  restrictions: z.looseObject({}).nullish(),
  addonDependencies: z.array(z.looseObject({})).nullish(),
  externalAddonDependencies: z.array(z.looseObject({})).nullish(),
  secrets: z.looseObject({}).nullish(),
  createdAt: timestamp().nullish(),
  updatedAt: timestamp().nullish(),
});
export type SecretGroup = z.infer<typeof secretGroup>;
export const secretGroupResponse = z.looseObject({ data: secretGroup });

export const linkAddonBody = z.strictObject({ keys: z.array(addonLinkKey).min(1) });
export type LinkAddonBody = z.input<typeof linkAddonBody>;
export const linkAddonResponse = z.looseObject({
  data: z.looseObject({
    keys: z.array(
      z.looseObject({ keyName: z.string(), aliases: z.array(z.string()).nullish(), defaultKey: z.string() }),
    ),
  }),
});

export const buildArgumentsQuery = z.strictObject({
  show: z.enum(["this", "inherited", "all"]).nullish(),
  replaceTemplatedValues: z.boolean().nullish(),
});
export type BuildArgumentsQuery = z.input<typeof buildArgumentsQuery>;
export const buildArgumentsResponse = z.looseObject({
  data: z.looseObject({
    buildArguments: z.record(z.string(), z.unknown()),
    buildFiles: z.record(z.string(), z.looseObject({ data: z.string(), encoding: z.string() })),
  }),
});
