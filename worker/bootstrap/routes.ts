import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { eq, sql } from "drizzle-orm";
import { webClientQuery } from "../auth/browser-origins";
import { admitVisitor, identityTokenScopes, mintVisitorToken, visitorAliasType } from "../auth/browser-tokens";
import { scanVisitorPass } from "../scans/pass";
import { access } from "../auth/scopes";
import { cachedConfiguration, purposesFingerprint } from "../configuration/document";
import { consentModeOf } from "../consent-mode/defaults";
import { defaultGppSettings } from "../gpp/settings";
import { defaultConsentModeSettings } from "../consent-mode/settings";
import type { AppEnv, Caller } from "../env";
import { servedPurposes } from "../jurisdictions/exemptions";
import { gppSectionsFor } from "../jurisdictions/gpp";
import { locateVisitor } from "../jurisdictions/local";
import { defaultRules, lapsedRefusals, prescribedFor, regimes, type Regime } from "../jurisdictions/rules";
import { aliases } from "../identities/table";
import { sha256Hex } from "../lib/crypto";
import { getDb } from "../lib/db";
import { notFound, validationError } from "../lib/errors";
import { createRouter, defineRoute } from "../auth/router";
import { jsonResponse, problems } from "../lib/schemas";
import { projects } from "../projects/table";
import { latestReceiptHash } from "../proof/log";
import { writerOf } from "../requests/record";
import { learnReceipt } from "../requests/write-guard";
import { stateQuery, toPermissionState } from "../requests/state";
import { optOutInEffect, recordSignalOptOut, undecidedUnderOptOut } from "../signals/opt-out";
import { asksFor, readSignals, signalHeaders, signalsInForce } from "../../shared/signals/signals";
import { servedLanguages, wordsFor } from "../wording/words";
import { featuresFor } from "./features";
import { runningExperimentQuery, servedVariant } from "../analytics/served-variant";
import { inLanguage, visitorLanguage } from "./language";
import { Bootstrap, BootstrapInput } from "./schemas";
import { logger } from "../lib/logger";
import { requestFields } from "../lib/request-log";

/** The widget's bootstrap, mounted at `/browser/v1/projects/{project_id}`. */
export const bootstrapRoutes = createRouter();

/** The regime a local developer forces (body `regime`, else header `X-Assent-Regime`); never outside `LOCAL_DEV`. */
function forcedRegime(c: Context<AppEnv>, fromBody: Regime | undefined): Regime | undefined {
  if (c.env.LOCAL_DEV !== "true") return undefined;
  const header = c.req.header("x-assent-regime");
  return fromBody ?? (regimes as readonly string[]).find((r) => r === header) as Regime | undefined;
}

/**
 * Who the bootstrap is for: the bearer token's caller (the access check verified it holds `consent-config:read`, as
 * the configuration feed needs, and belongs to this project), or the page's visitor, minted here, acting with the
 * visitor token's rights. `admission` is what the visitor's admission reads, already read in the bootstrap's batch.
 */
async function whoIsAsking(
  c: Context<AppEnv>,
  projectId: string,
  bearer: Caller | undefined,
  visitorKey: string | undefined,
  admission: Parameters<typeof admitVisitor>[4],
) {
  if (bearer) return { caller: bearer, identityId: bearer.identityId, minted: undefined };
  const visitor = await admitVisitor(c, projectId, scanVisitorPass, visitorKey, admission);
  const minted = await mintVisitorToken(c.env, visitor);
  const caller: Caller = {
    projectId,
    clientId: visitor.client.id,
    clientType: visitor.client.type,
    identityId: visitor.identityId,
    scopes: identityTokenScopes,
  };
  return { caller, identityId: visitor.identityId, minted, created: visitor.created };
}

/**
 * Everything the bootstrap reads from D1, in one batch (one round trip): the project row (its configuration
 * version keys the cached configuration), the web client listing the page's origin, and the permission state of
 * the identity the token or the visitor key names (by a subquery on the key's alias, so no read waits for another),
 * and that identity's latest receipt hash.
 */
async function firstReads(c: Context<AppEnv>, projectId: string, bearer: Caller | undefined, visitorKey: string | undefined) {
  const db = getDb(c.var.db);
  const origin = c.req.header("origin") ?? "null";
  const byKey = visitorKey
    ? sql`(SELECT ${aliases.identityId} FROM ${aliases} WHERE ${aliases.projectId} = ${projectId} AND ${aliases.type} = ${visitorAliasType}
        AND ${aliases.identifier} = ${await sha256Hex(visitorKey)} LIMIT 1)`
    : undefined;
  const identity = bearer ? bearer.identityId : byKey;
  const [projectRows, clientRows, stateRows, receiptRows, experimentRows] = await db.batch([
    db
      .select({
        version: projects.configVersion,
        rules: projects.jurisdictionRules,
        consentMode: projects.consentMode,
        gpp: projects.gpp,
        jurisdiction: projects.jurisdiction,
        // Only the switch: the TCF settings themselves come with the project's vendor list (docs/tcf.md#loading).
        tcfEnabled: sql<number | null>`json_extract(${projects.tcf}, '$.enabled')`,
        // Null (never set) is the default, on (docs/analytics.md#turning-counting-off).
        counting: sql<number>`coalesce(json_extract(${projects.analytics}, '$.enabled'), 1)`,
      })
      .from(projects)
      .where(eq(projects.id, projectId))
      .limit(1),
    webClientQuery(db, projectId, origin),
    stateQuery(db, projectId, identity ?? sql`NULL`),
    latestReceiptHash(db, projectId, identity ?? sql`NULL`),
    runningExperimentQuery(db, projectId),
  ]);
  // The visitor's next write (its decision) then knows the receipt chain it extends: one round trip for it too.
  const identityId = stateRows[0]?.identityId;
  if (identityId) learnReceipt(projectId, identityId, receiptRows[0]?.hash ?? null);
  return {
    project: projectRows[0],
    admission: { client: clientRows[0], knownIdentityId: bearer ? undefined : stateRows[0]?.identityId },
    state: identity ? (toPermissionState(projectId, stateRows) ?? null) : null,
    experiment: experimentRows[0],
  };
}

bootstrapRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/bootstrap",
    operationId: "bootstrapWidget",
    tags: ["Browser tokens"],
    // No credentials (the page's origin is checked, as for visitor tokens), or a bearer token of the project.
    ...access.optional("consent-config:read"),
    summary: "Everything the consent widget needs before first paint, in one call",
    description:
      "The visitor's regime (from `request.cf` and the project's jurisdiction rules; in local development without a " +
      "real location, from the project's `jurisdiction`, else the strictest regime its rules use), the configuration in the " +
      "visitor's language, the purposes' version fingerprint, the Google Consent Mode settings and defaults, the " +
      "identity's permission state and, without a bearer token, a visitor token (as `POST …/visitor-tokens`: the " +
      "`Origin` must be listed by a web client, 403 `origin_not_allowed` otherwise).\n\n" +
      "The body may be sent as `text/plain` (so a page's call needs no CORS preflight) or JSON. With `Sec-GPC: 1` " +
      "under an opt-out regime the Worker records the opt-out of sale and sharing itself (a permission denying those " +
      "purposes, `meta.context.gpc: true`) and says so in `regime.gpcApplied`.",
    request: {
      params: z.object({ project_id: z.string() }),
      // Validated in the handler, whichever of the two types it came as.
      body: {
        required: false,
        content: { "text/plain": { schema: BootstrapInput }, "application/json": { schema: BootstrapInput } },
      },
    },
    responses: {
      200: {
        ...jsonResponse(Bootstrap, "The bootstrap."),
        headers: {
          "Assent-Signals": {
            description:
              "Every browser signal the service honours (RFC 9651 list), each with `received` when this request carried it and " +
              "`effect=…` when that effect was applied under the visitor's regime, e.g. `gpc;received;effect=opt-out-of-sale-or-sharing`.",
            schema: { type: "string" },
          },
          Link: { description: "`</.well-known/privacy-signals.json>; rel=\"describedby\"`: where the signals are described.", schema: { type: "string" } },
        },
      },
      ...problems,
    },
  }),
  async (c) => {
    const { project_id: projectId } = c.req.valid("param");
    const parsed = BootstrapInput.safeParse(await c.req.json().catch(() => ({})));
    if (!parsed.success) throw validationError(parsed.error);
    const input = parsed.data;
    const db = getDb(c.var.db);
    const waitUntil = (promise: Promise<unknown>) => c.executionCtx.waitUntil(promise);
    const readState = async (identityId: string | undefined) =>
      identityId ? (toPermissionState(projectId, await stateQuery(db, projectId, identityId)) ?? null) : null;

    // The access check verified a bearer token when one was sent; without one there is no caller.
    const bearer: Caller | undefined = c.var.caller;
    const reads = await firstReads(c, projectId, bearer, bearer ? undefined : input.visitorKey);
    // An unknown project is 404 whatever else failed (its origin cannot be registered either).
    const project = reads.project;
    if (!project) throw notFound("Project");
    const cached = await cachedConfiguration(db, c.req.url, waitUntil, projectId, project.version);
    if (!cached) throw notFound("Project");
    const visitor = await whoIsAsking(c, projectId, bearer, input.visitorKey, reads.admission);
    let state = visitor.created ? null : reads.state;

    const rules = project.rules ?? defaultRules;
    const cf = c.req.raw.cf as Parameters<typeof locateVisitor>[1];
    const { regime: resolved, place } = locateVisitor(rules, cf, { localDev: c.env.LOCAL_DEV === "true", jurisdiction: project.jurisdiction });
    const regime = forcedRegime(c, input.regime) ?? resolved.name;
    const all = { ...cached.configuration, purposes: servedPurposes(cached.configuration.purposes, resolved, regime) };
    // The page's list (element, page, browser), then the browser's Accept-Language, then the project's default.
    const language = visitorLanguage(c, input.languages ?? [], servedLanguages(cached.wording), all.project.defaultLanguage);

    const signals = readSignals(c.env, c.req.raw.headers);
    const gpc = !!signals.gpc;
    let gpcApplied = false;
    if (asksFor(c.env, signals, regime, "opt-out-of-sale-or-sharing") && visitor.identityId) {
      const undecided = undecidedUnderOptOut(all, state);
      if (undecided.length > 0) {
        // The banner must paint whatever happens here: a failed record is logged, and `gpcApplied` stays false.
        try {
          await recordSignalOptOut(writerOf(c, visitor.caller), visitor.identityId, undecided, language, signals);
          state = await readState(visitor.identityId);
        } catch (error) {
          logger.error("gpc_opt_out_not_recorded", requestFields(c), error);
        }
      }
      gpcApplied = optOutInEffect(all, state);
    }

    const gppSections = gppSectionsFor(regime, place.country, place.region);
    const counting = project.counting === 1;
    // With counting off an experiment measures nothing and no receipt would name its variant: the project's own banner.
    const experiment = counting ? reads.experiment : undefined;
    const { variant, buttons, strings } = await servedVariant(experiment, visitor.identityId, language, wordsFor(language, cached.wording));
    return c.json(
      {
        regime: { name: regime, country: resolved.country, region: resolved.region, gpc, gpcApplied, prescribed: prescribedFor(resolved.areas, regime) },
        language,
        strings,
        ...(variant ? { variant, buttons } : {}),
        configuration: inLanguage(all, language),
        fingerprint: await purposesFingerprint(all),
        askAgain: lapsedRefusals(rules, state, all.purposes.filter((p) => p.legalGround === "consent").map((p) => p.purposeId), Date.now()),
        consentMode: consentModeOf(project.consentMode ?? defaultConsentModeSettings, rules, all.purposes),
        gppSections,
        features: featuresFor({ gppSections, regime, tcfEnabled: project.tcfEnabled === 1, counting }),
        gppMspa: project.gpp ?? defaultGppSettings,
        ...(visitor.minted ? { token: visitor.minted } : {}),
        state,
      },
      200,
      {
        "Cache-Control": "no-store",
        ...signalHeaders(signalsInForce(c.env), { signals, regime, applied: gpcApplied ? ["opt-out-of-sale-or-sharing"] : [] }),
      },
    );
  },
);
