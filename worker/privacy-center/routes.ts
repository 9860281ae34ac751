import { z } from "@hono/zod-openapi";
import { asc } from "drizzle-orm";
import { access } from "../auth/scopes";
import { livePurpose } from "../configuration/queries";
import { purposes } from "../configuration/table";
import { findIdentity } from "../identities/queries";
import { getDb } from "../lib/db";
import { ApiError, badRequest, notFound } from "../lib/errors";
import { ProjectParams } from "../lib/params";
import { createRouter, defineRoute } from "../auth/router";
import { jsonBody, jsonResponse, problems, Timestamp } from "../lib/schemas";
import { writerOf } from "../requests/record";
import { channelRules } from "./channels";
import { requestCode, verifyCode } from "./codes";
import { identityReceipts, Receipted } from "./receipts";
import { download, fileRequest, requestKinds, requestsOf } from "./requests";
import { identityOf, privacyCenterCaller, verifiedPerson } from "./session";
import { capOf, countToday } from "../limits/daily";
import { readSettings } from "./settings";
import { channels, type Channel } from "./table";
import { acceptedLanguages, wordsIn } from "./words";

/**
 * The privacy center's API, mounted at `/browser/v1/projects/{project_id}/privacy-center`: public (a person proves an
 * address with a one-time code, then holds a 30-minute session token), used by the hosted page and the
 * `<assent-privacy-center>` element (docs/privacy-center.md).
 */
export const privacyCenterRoutes = createRouter();

const tags = ["Privacy center"];

const ChannelName = z.enum(channels).openapi({ description: "`email` or `sms`, as the project has switched on." });

/** An address as its channel requires it (email, or E.164 phone number), normalised; 400 `invalid_address` otherwise. */
function addressOf(channel: Channel, address: string): string {
  const parsed = channelRules[channel].address.safeParse(address);
  if (parsed.success) return parsed.data;
  throw badRequest("validation_failed", "The request has invalid fields; see `errors`.", [
    { path: "address", message: parsed.error.issues[0].message, code: "invalid_address" },
  ]);
}

const Address = z.string().max(254).openapi({ description: "An email address, or a phone number in E.164 form (+46701234567)." });
const Challenge = z
  .string()
  .min(1)
  .max(2048)
  .optional()
  .openapi({ description: "A Cloudflare Turnstile token, when an earlier answer was 403 `challenge_required` (its `challenge.siteKey` renders the widget)." });
const CodeRequest = z.strictObject({ channel: ChannelName, address: Address, challenge: Challenge }).openapi("PrivacyCenterCodeRequest");
const Verification = z
  .strictObject({ channel: ChannelName, address: Address, code: z.string().regex(/^\d{6}$/, "The 6-digit code."), challenge: Challenge })
  .openapi("PrivacyCenterVerificationInput");

const PageSettings = z
  .object({
    projectId: z.string(),
    name: z.string(),
    controller: z.string(),
    policies: z.record(z.string(), z.string()),
    channels: z.array(ChannelName),
    theme: z.record(z.string(), z.string()),
    language: z.string(),
    dir: z.enum(["ltr", "rtl"]),
    strings: z.record(z.string(), z.string()),
    purposes: z.array(z.object({ purposeId: z.string(), name: z.string() })),
  })
  .openapi("PrivacyCenterPage");

privacyCenterRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "getPrivacyCenter",
    tags,
    ...access.public,
    summary: "What the privacy center shows: the project, its channels and theme, and the words in the visitor's language",
    description:
      "`languages` (comma-separated, the browser's preferences; without it, the `Accept-Language` header by its " +
      "q-values) is negotiated as the widget's language is; the answer " +
      "holds the widget's words and the privacy center's own in that language.",
    request: { params: ProjectParams, query: z.object({ languages: z.string().max(200).optional() }) },
    responses: { 200: jsonResponse(PageSettings, "The page's settings."), ...problems },
  }),
  async (c) => {
    const projectId = c.req.valid("param").project_id;
    const found = await readSettings(c.var.db, projectId);
    if (!found) throw notFound("Project");
    const { project, settings } = found;
    const listed = c.req.valid("query").languages;
    const words = wordsIn(listed === undefined ? acceptedLanguages(c.req.header("accept-language")) : listed.split(",").map((tag) => tag.trim()).filter(Boolean));
    const purposeRows = await getDb(c.var.db)
      .select({ purposeId: purposes.id, content: purposes.content })
      .from(purposes)
      .where(livePurpose(projectId))
      .orderBy(asc(purposes.id));
    return c.json(
      {
        projectId,
        name: project.name,
        controller: project.controller?.name ?? project.name,
        policies: project.policies as Record<string, string>,
        channels: channels.filter((channel) => settings.channels[channel]),
        theme: settings.theme,
        ...words,
        purposes: purposeRows.map((row) => ({ purposeId: row.purposeId, name: row.content.name })),
      },
      200,
    );
  },
);

privacyCenterRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/codes",
    operationId: "requestPrivacyCenterCode",
    tags,
    ...access.public,
    summary: "Send a one-time code to an email address or phone number",
    description:
      "6 digits, valid 10 minutes, 5 attempts; a new code replaces the previous one this client address asked for (not " +
      "another's). The answer is the same whether or not the address names anyone (no lookup happens here). Limits: per " +
      "client address, and per address and client address (429 `rate_limited`); past the ceiling per address or a daily " +
      "cap, 403 `challenge_required` until the call carries a passed Turnstile token as `challenge` (docs/security.md#challenges).",
    request: { params: ProjectParams, body: jsonBody(CodeRequest) },
    responses: {
      202: jsonResponse(z.object({ channel: ChannelName, expiresIn: z.number().int(), codeLength: z.number().int() }), "A code is on its way (if the address can receive it)."),
      ...problems,
    },
  }),
  async (c) => {
    const { channel, address, challenge } = c.req.valid("json");
    return c.json(await requestCode(c, c.req.valid("param").project_id, { channel, address: addressOf(channel, address), challenge }), 202);
  },
);

privacyCenterRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/sessions",
    operationId: "verifyPrivacyCenterCode",
    tags,
    ...access.public,
    summary: "Verify a code: the person's session on the privacy center",
    description:
      "A right code is spent and records a verification (method and time, in the tamper-evident log as " +
      "`verification.succeeded`); `sessionToken` then authorises the person's calls for 30 minutes. Wrong: 400 " +
      "`invalid_code` with `attemptsLeft`; used or replaced: 409 `code_used`; expired: 410 `code_expired`; after 5 wrong " +
      "tries: 429 `code_attempts_exhausted`. A wrong code uses up an attempt of this client address's own code only. " +
      "Limits as for codes, and daily caps of wrong codes per address and per client address (403 `challenge_required`).",
    request: { params: ProjectParams, body: jsonBody(Verification) },
    responses: {
      201: jsonResponse(
        z.object({
          sessionToken: z.string(),
          expiresIn: z.number().int(),
          verification: z.object({ id: z.string(), method: ChannelName, verifiedAt: Timestamp }),
        }),
        "Verified.",
      ),
      ...problems,
    },
  }),
  async (c) => {
    const { channel, address, code, challenge } = c.req.valid("json");
    return c.json(await verifyCode(c, c.req.valid("param").project_id, { channel, address: addressOf(channel, address), code, challenge }), 201);
  },
);

const PersonRequest = z
  .object({
    requestId: z.string(),
    kind: z.enum(requestKinds),
    article: z.string(),
    status: z.string(),
    created: Timestamp,
    updated: Timestamp,
    deadline: Timestamp.openapi({ description: "One month after receipt (GDPR Art. 12(3))." }),
    extendedDeadline: Timestamp.openapi({ description: "The latest answer with the extension Art. 12(3) allows (two further months)." }),
    verification: z.object({ method: z.string(), verifiedAt: Timestamp }).nullable(),
    download: z.object({ url: z.string(), expires: Timestamp }).nullable(),
  })
  .openapi("PrivacyCenterRequest");

/** The person's session token from `POST …/sessions`, as `Authorization: Bearer apc_…` (401 `verification_required` without). */
const sessionText = " Needs the session token of `POST …/privacy-center/sessions` as `Authorization: Bearer apc_…`.";

privacyCenterRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/me",
    operationId: "getPrivacyCenterPerson",
    tags,
    ...access.public,
    summary: "The verified person: the identity their address names (or none), its decisions with receipts, and their requests",
    description: "Each request carries its deadline and, once an access request is completed, its download link." + sessionText,
    request: { params: ProjectParams },
    responses: {
      200: jsonResponse(
        z.object({
          verification: z.object({ method: ChannelName, verifiedAt: Timestamp }),
          identity: z.object({ identityId: z.string(), aliases: z.array(z.object({ type: z.string(), identifier: z.string() })) }).nullable(),
          decisions: z.array(Receipted),
          requests: z.array(PersonRequest),
        }),
        "The person's view.",
      ),
      ...problems,
    },
  }),
  async (c) => {
    const projectId = c.req.valid("param").project_id;
    const person = await verifiedPerson(c, projectId);
    const verification = { method: person.channel, verifiedAt: person.verifiedAt };
    const found = person.identityId ? await findIdentity(c.var.db, projectId, person.identityId) : undefined;
    if (!found) return c.json({ verification, identity: null, decisions: [], requests: [] }, 200);
    const [decisions, requests] = await Promise.all([
      identityReceipts(c.var.db, projectId, found.identity.identityId),
      requestsOf(c.env, c.var.db, projectId, found.identity.identityId),
    ]);
    const { identityId, aliases } = found.identity;
    return c.json({ verification, identity: { identityId, aliases }, decisions, requests }, 200);
  },
);

/** Statuses in which a request is still open: a repeat of its kind answers with it. */
const openStatuses = ["received", "in_progress"];

const FileRequest = z
  .strictObject({
    kind: z.enum(requestKinds),
    purposes: z.array(z.string().max(64)).max(100).optional().openapi({ description: "An objection's purposes." }),
    identityId: z.string().optional().openapi({ description: "If given, must be the verified person's identity (else 403)." }),
  })
  .openapi("PrivacyCenterRequestInput");

privacyCenterRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/requests",
    operationId: "filePrivacyCenterRequest",
    tags,
    ...access.public,
    summary: "File an access, portability, erasure or objection request for the verified person",
    description:
      "Recorded through the same write path as the API's requests (receipt, log entry, webhook event); its " +
      "`meta.context.verification` says how and when the person was verified. 409 `no_identity` when the verified " +
      "address names no one; 403 `not_your_identity` for anyone else's identity. One request of each kind is open at a " +
      "time: while one is received or in progress, filing the same kind answers 200 with it. A session files at most 5 " +
      "(429 `session_request_limit`)." + sessionText,
    request: { params: ProjectParams, body: jsonBody(FileRequest) },
    responses: {
      201: jsonResponse(PersonRequest, "The request as the page shows it."),
      200: jsonResponse(PersonRequest, "A request of this kind is still open (received or in progress): that one, and nothing new is filed."),
      ...problems,
    },
  }),
  async (c) => {
    const projectId = c.req.valid("param").project_id;
    const person = await verifiedPerson(c, projectId);
    const { kind, purposes: named, identityId: asked } = c.req.valid("json");
    const identityId = identityOf(person);
    if (asked !== undefined && asked !== identityId) {
      throw new ApiError(403, "not_your_identity", "A verified person may only file requests about the identity their address names.");
    }
    // One open request of each kind per identity: a repeat (a double click, or a flood) answers with the open one.
    const open = (await requestsOf(c.env, c.var.db, projectId, identityId)).find((request) => request.kind === kind && openStatuses.includes(request.status));
    if (open) return c.json(open, 200);
    if ((await countToday(c.var.db, "requests-per-session", person.id)) > capOf(c.env, "requests-per-session")) {
      throw new ApiError(429, "session_request_limit", `A session files at most ${capOf(c.env, "requests-per-session")} requests; verify again to file more.`);
    }
    const { requestId } = await fileRequest(writerOf(c, privacyCenterCaller(projectId, identityId)), person, identityId, kind, named ?? []);
    const listed = await requestsOf(c.env, c.var.db, projectId, identityId);
    return c.json(listed.find((request) => request.requestId === requestId)!, 201);
  },
);

privacyCenterRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/downloads/{request_id}",
    operationId: "downloadPrivacyCenterExport",
    tags,
    ...access.public,
    summary: "The export of a completed access or portability request (the link the person's view gives)",
    description: "The signed link works for 7 days after the request was completed; then, or once tampered with, 410 `download_expired`.",
    request: { params: ProjectParams.extend({ request_id: z.string() }), query: z.object({ token: z.string().max(2000) }) },
    responses: { 200: jsonResponse(z.record(z.string(), z.unknown()), "Everything held about the person, as JSON (machine-readable, Art. 20)."), ...problems },
  }),
  async (c) => {
    const { project_id: projectId, request_id: requestId } = c.req.valid("param");
    const { kind, data } = await download(c.env, c.var.db, projectId, requestId, c.req.valid("query").token);
    c.header("Content-Disposition", `attachment; filename="${kind === "portability" ? "portable-data" : "my-data"}-${requestId}.json"`);
    return c.json(data, 200);
  },
);
