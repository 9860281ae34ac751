import { z } from "@hono/zod-openapi";
import { VisitorKey, VisitorToken } from "../auth/browser-tokens";
import { ConsentModeSettingsSchema, consentTypes } from "../consent-mode/settings";
import { Configuration } from "../configuration/schemas";
import { GppSettingsSchema } from "../gpp/settings";
import { gppSectionNames } from "../jurisdictions/gpp";
import { widgetFeatures } from "../../shared/browser/features";
import { prescribedLinks, regimes } from "../jurisdictions/rules";
import { PermissionState } from "../requests/schemas";
import { VariantName } from "../analytics/schemas";
import { ButtonStyle } from "../analytics/experiments";

const LanguageTag = z.string().regex(/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/, "A BCP 47 language tag.").max(35);

export const BootstrapInput = z
  .strictObject({
    visitorKey: VisitorKey.optional().openapi({ description: "The key an earlier call returned (a returning visitor); ignored with a bearer token." }),
    languages: z.array(LanguageTag).max(20).optional().openapi({
      description:
        "The page's language preferences, best first (the widget sends its element's `lang`, the page's and `navigator.languages`); " +
        "then `Accept-Language`, then the project's default language, then English. Matched by BCP 47 lookup against the widget's " +
        "languages and the project's own (docs/languages.md#how-the-language-is-chosen).",
      example: ["fi-FI", "fi", "en"],
    }),
    regime: z.enum(regimes).optional().openapi({ description: "Forces the regime; honoured only in local development (`LOCAL_DEV`)." }),
  })
  .openapi("BootstrapInput");

const ConsentValue = z.enum(["granted", "denied"]);
const ConsentDefault = z
  .object({ region: z.array(z.string()).optional(), ...Object.fromEntries(consentTypes.map((type) => [type, ConsentValue])) })
  .openapi("ConsentModeDefault", { description: "One gtag `consent default` command; without `region` it applies everywhere else." });

export const Bootstrap = z
  .object({
    regime: z.object({
      name: z.enum(regimes),
      country: z.string().nullable().openapi({ description: "`request.cf.country` (ISO 3166-1), null when unknown (also in local development without a real location)." }),
      region: z.string().nullable().openapi({ description: "`request.cf.regionCode` (ISO 3166-2 subdivision without the country), or null." }),
      gpc: z.boolean().openapi({ description: "The browser sent `Sec-GPC: 1`." }),
      gpcApplied: z.boolean().openapi({ description: "Opt-out regime with GPC: the opt-out of sale and sharing is recorded for the identity." }),
      prescribed: z.array(z.enum(prescribedLinks)).openapi({
        description:
          "Words the visitor's law prescribes under this regime, by their key in `strings` (docs/regulatory-readiness.md#us-opt-out-wording): " +
          "in California under opt-out, `doNotSell` (the first layer's link to the choices) and `limitSensitive` " +
          "(beside each purpose marked `sensitive`); empty elsewhere.",
      }),
    }),
    language: z.string().openapi({ description: "The visitor's language: `strings` are in it, and every text of `configuration` as far as the project has it." }),
    strings: z.record(z.string(), z.string()).openapi({
      description: "Every word of the widget in `language`, by key (shared/i18n/strings.ts), with the project's own wording applied.",
    }),
    configuration: Configuration,
    fingerprint: z.string().openapi({ description: "SHA-256 hex of the live purposes' `id:version` in id order, joined by `,`: a stored decision is current while it matches." }),
    // Spread, not .extend(): extending a registered closed schema publishes an allOf no object can satisfy.
    consentMode: z.object({ ...ConsentModeSettingsSchema.shape, defaults: z.array(ConsentDefault) }),
    askAgain: z.array(z.string()).openapi({
      description:
        "Consent purposes the identity refused longer ago than the project's `refusalStandsSeconds`: the widget asks about " +
        "them again. A younger refusal stands (the widget does not ask), on every device the identity uses.",
    }),
    gppSections: z.array(z.enum(gppSectionNames)).openapi({
      description:
        "The IAB GPP sections the page serves through `__gpp` (docs/gpp.md): `usnat` and the state's own section for a US " +
        "visitor under an opt-out regime, none elsewhere (the widget then loads no GPP code).",
      example: ["usnat", "usca"],
    }),
    features: z.array(z.enum(widgetFeatures)).openapi({
      description:
        "The widget's optional parts this page loads, each a chunk of its own fetched after this answer (docs/widget.md#optional-parts): " +
        "`gpp` where `gppSections` is not empty; `tcf` where the project has TCF on and the visitor's regime is opt-in (docs/tcf.md); `analytics` (counting the banner's interactions) unless the project turned counting off (`PUT /admin/v1/projects/{project_id}/analytics/settings`). A widget ignores a name it does not know.",
      example: ["gpp"],
    }),
    variant: VariantName.optional().openapi({
      description:
        "The banner variant this visitor is shown while the project runs an experiment (assigned by the identity of the visitor token, " +
        "docs/analytics.md#fair-experiments); its words are already in `strings`. The widget counts under it and records it with a decision.",
    }),
    buttons: ButtonStyle.optional().openapi({
      description:
        "How the first layer's buttons are drawn for this visitor's variant (with `variant` only): `primary` (filled with the accent, " +
        "the widget's own style), `secondary` (outlined) or `link` (underlined text). Accept all, Reject all and Customize alike: " +
        "a variant starts only with Reject all drawn as Accept all (docs/analytics.md#how-a-variant-is-served).",
    }),
    gppMspa: GppSettingsSchema.openapi({ description: "The project's MSPA settings the GPP sections declare (`PUT /admin/v1/projects/{id}/gpp`)." }),
    token: VisitorToken.optional().openapi({ description: "Present when the Worker minted a visitor token (no bearer token was sent)." }),
    // A union, not .nullable(): on a registered schema that would publish an allOf that null cannot satisfy.
    state: z.union([PermissionState, z.null()]).openapi({ description: "The identity's permission state; null for a new visitor (or a token without an identity)." }),
  })
  .openapi("Bootstrap");
