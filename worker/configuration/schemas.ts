import { z } from "@hono/zod-openapi";
import { ConsentTypeList } from "../consent-mode/settings";
import { Policies, ReferenceId, Timestamp, Translation } from "../lib/schemas";
import { Party } from "../parties/schemas";
import { Controller } from "../projects/schemas";
import { exemptionReasons, exemptionRegimeNames, exemptionRegimes, regimesAllowing } from "../jurisdictions/exemptions";
import { legalGrounds } from "./table";
import { sensitiveCategories } from "../../shared/gpp/sensitive-categories";
import { regimes } from "../../shared/jurisdictions/regimes";

/** The categories of sensitive data a sensitive purpose processes, as the GPP sections name them (docs/gpp.md). */
const SensitiveCategoryList = z
  .array(z.enum(sensitiveCategories))
  .max(sensitiveCategories.length)
  .refine((list) => new Set(list).size === list.length, "A category is listed twice.")
  .openapi({
    description:
      "The categories of sensitive data the purpose processes (meaningful with `sensitive`): the GPP sections write, per category, " +
      "whether the visitor limited (California) or refused its use.",
    example: ["precise-geolocation"],
  });

const Translations = z.array(Translation).max(50);

/** Refuses an id listed twice in one array (spec, Errors rule 4: no duplicated sub-items). */
export const uniqueIds = <T extends z.ZodType<string>>(item: T, what: string) =>
  z.array(item).max(200).superRefine((ids, ctx) => {
    const seen = new Set<string>();
    ids.forEach((id, index) => {
      if (seen.has(id)) ctx.addIssue({ code: "custom", path: [index], message: `${what} ${id} is listed twice.` });
      seen.add(id);
    });
  });

const Id = (example: string) => z.string().min(1).max(64).openapi({ example });

export const Exemption = z
  .strictObject({
    reason: z.enum(exemptionReasons),
    regime: z.enum(exemptionRegimeNames as [keyof typeof exemptionRegimes, ...(keyof typeof exemptionRegimes)[]]).openapi({
      description: "The legal regime the exemption relies on; it holds only where that regime is in force (docs/regulatory-readiness.md).",
    }),
  })
  .superRefine(({ reason, regime }, ctx) => {
    if ((exemptionRegimes[regime].reasons as readonly string[]).includes(reason)) return;
    const allowedIn = regimesAllowing(reason);
    ctx.addIssue({
      code: "custom",
      path: ["reason"],
      message: `${reason} is not an exemption under ${regime}; it is allowed under ${allowedIn.join(", ")}.`,
      params: { code: "exemption_not_allowed" },
    });
  })
  .openapi("Exemption", {
    description:
      "Why a purpose needs no consent to store or read information on the visitor's device, from a closed list per regime. " +
      "Where the regime holds the widget never gates the purpose and shows it as information; elsewhere it asks like for any purpose.",
  });

export const DataGroupInput = z
  .strictObject({
    referenceId: ReferenceId.openapi({ example: "email", description: "The client's own identifier; unique in the project." }),
    name: z.string().min(1).max(200).openapi({ example: "E-mail address" }),
    description: Translations.default([]),
  })
  .openapi("DataGroupInput");

export const DataGroup = z
  .object({
    projectId: z.string(),
    dataGroupId: z.string(),
    referenceId: z.string(),
    name: z.string(),
    description: z.array(Translation),
    created: Timestamp,
    updated: Timestamp,
  })
  .openapi("DataGroup", { description: "A kind of personal data a purpose uses." });

const purposeFields = {
  referenceId: ReferenceId.openapi({ example: "marketing", description: "The client's own identifier; unique in the project." }),
  name: z.string().min(1).max(200).openapi({ example: "Marketing" }),
  description: Translations.default([]),
  legalGround: z.enum(legalGrounds),
  dataGroups: uniqueIds(Id("dg_…"), "Data group").default([]).openapi({ description: "Ids of the data groups the purpose uses." }),
  processors: uniqueIds(Id("pty_…"), "Party").default([]).openapi({ description: "Party ids of processors." }),
  recipients: uniqueIds(Id("pty_…"), "Party").default([]).openapi({ description: "Party ids of recipients." }),
  controllers: uniqueIds(Id("pty_…"), "Party")
    .min(1, "A purpose needs at least one controller.")
    .openapi({ description: "Party ids of controllers; at least one." }),
  consentMode: ConsentTypeList.default([]),
  // A union, not .nullable(): on a registered schema that would publish an allOf that null cannot satisfy.
  exemption: z.union([Exemption, z.null()]).default(null),
  sensitive: z.boolean().default(false).openapi({
    description: "Uses sensitive personal information (CCPA 1798.140(ae)): under the opt-out regimes its switch says \"Limit the Use of My Sensitive Personal Information\".",
  }),
  sensitiveCategories: SensitiveCategoryList.default([]),
};

/** An exempt purpose runs without consent where its exemption holds, so it must name the ground it rests on there. */
const groundOfExempt = (purpose: { legalGround: string; exemption: unknown }, ctx: z.RefinementCtx) => {
  if (purpose.exemption && purpose.legalGround === "consent") {
    ctx.addIssue({
      code: "custom",
      path: ["legalGround"],
      message: "An exempt purpose does not rest on consent where its exemption holds: give the ground it rests on (usually legitimate_interests).",
    });
  }
};

export const PurposeInput = z.strictObject(purposeFields).superRefine(groundOfExempt).openapi("PurposeInput");

export const PurposeUpdate = z
  .strictObject({
    ...purposeFields,
    requireNewConsent: z.boolean().openapi({
      description:
        "The editor's decision (spec: Versioning). `true` makes a new version: permissions given to older versions " +
        "become outdated and drop out of the permission state, so subjects are asked again. `false` edits the " +
        "current version in place.",
    }),
  })
  .superRefine(groundOfExempt)
  .openapi("PurposeUpdate");

const purposeOutput = {
  projectId: z.string(),
  purposeId: z.string(),
  referenceId: z.string(),
  version: z.string().openapi({ example: "1", description: 'Starts at "1"; grows by one with each change that requires new consent.' }),
  name: z.string(),
  description: z.array(Translation),
  legalGround: z.enum(legalGrounds),
  dataGroups: z.array(z.string()),
  processors: z.array(z.string()),
  recipients: z.array(z.string()),
  controllers: z.array(z.string()),
  consentMode: ConsentTypeList,
  exemption: z.union([Exemption, z.null()]),
  sensitive: z.boolean(),
  sensitiveCategories: SensitiveCategoryList,
};

export const Purpose = z
  .object({ ...purposeOutput, created: Timestamp, updated: Timestamp })
  .openapi("Purpose", { description: "A purpose of processing at its current version." });

export const PurposeVersion = z
  .object({ ...purposeOutput, created: Timestamp, updated: Timestamp })
  .openapi("PurposeVersion", {
    description:
      "What a purpose said at one version. Kept for every version, also after the purpose is deleted, so a " +
      "permission can always show what exactly was agreed to. `created` is when the version was made, `updated` its last in-place edit.",
  });

const ConfiguredDataGroup = z.object({
  dataGroupId: z.string(),
  referenceId: z.string(),
  name: z.string(),
  description: z.array(Translation),
});

export const Configuration = z
  .object({
    projectId: z.string(),
    project: z.object({
      name: z.string(),
      controller: Controller.nullable(),
      policies: Policies,
      jurisdiction: z.string().nullable(),
      defaultLanguage: z.string(),
    }),
    purposes: z.array(
      z.object({
        purposeId: z.string(),
        referenceId: z.string(),
        version: z.string(),
        legalGround: z.enum(legalGrounds),
        name: z.string(),
        description: z.array(Translation),
        dataGroups: z.array(ConfiguredDataGroup),
        controllers: z.array(Party),
        processors: z.array(Party),
        recipients: z.array(Party),
        consentMode: ConsentTypeList,
        exemption: z.union([Exemption, z.null()]).openapi({
          description: "In the bootstrap: the exemption as it holds for this visitor (null where it does not, and the purpose then asks for consent).",
        }),
        sensitive: z.boolean(),
        sensitiveCategories: SensitiveCategoryList,
        regime: z.enum(regimes).optional().openapi({
          description:
            "In the bootstrap only, where the visitor's law asks more of this purpose than the visitor's regime: the regime it is " +
            "asked under. `opt-in` for a sensitive purpose where the state's law requires consent before sensitive data is " +
            "processed (Virginia, Colorado, Connecticut and others: docs/jurisdictions.md#sensitive-data); it is then served on " +
            "the consent ground and does not run until the visitor agrees.",
        }),
      }),
    ),
  })
  .openapi("Configuration", { description: "Everything a consent dialog needs, in one document." });
