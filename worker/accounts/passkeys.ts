import { z } from "@hono/zod-openapi";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { and, desc, eq } from "drizzle-orm";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../env";
import { recordAudit } from "../auth/audit";
import { accountsDb, callingMember, memberOperator } from "../auth/operators";
import { createSession, requireSameOrigin } from "../auth/portal-session";
import { createRouter, defineRoute } from "../auth/router";
import { access } from "../auth/scopes";
import { randomSecret } from "../lib/crypto";
import { ApiError, notFound } from "../lib/errors";
import { jsonBody, jsonResponse, problems, Timestamp } from "../lib/schemas";
import { limitRate } from "../limits/rate-limits";
import { passkeys } from "./table";
import { challengeSeconds, registerPasskey, registrationOptions, signInOptions, verifyPasskeySignIn } from "./webauthn";

/** Passkeys: a member's own (session only) and signing in with one (public), mounted at `/portal/api`. */
export const passkeyRoutes = createRouter();

const tags = ["Members"];

/** What the browser's WebAuthn answers carry, base64url throughout; the library checks the rest. */
const b64 = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+=*$/);
const credentialFields = {
  id: b64(1400),
  rawId: b64(1400),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

const Registration = z
  .strictObject({
    name: z.string().min(1).max(100).default("Passkey").openapi({ description: "How the member will recognise it." }),
    response: z.object({
      ...credentialFields,
      response: z.object({
        clientDataJSON: b64(4000),
        attestationObject: b64(20000),
        transports: z.array(z.string().max(30)).max(10).optional(),
      }),
    }),
  })
  .openapi("PasskeyRegistration", { description: "`navigator.credentials.create()`'s answer as JSON (`@simplewebauthn/browser`'s `startRegistration`)." });

const Assertion = z
  .strictObject({
    response: z.object({
      ...credentialFields,
      response: z.object({ clientDataJSON: b64(4000), authenticatorData: b64(4000), signature: b64(1000), userHandle: b64(200).optional() }),
    }),
  })
  .openapi("PasskeyAssertion", { description: "`navigator.credentials.get()`'s answer as JSON (`startAuthentication`)." });

const Passkey = z.object({ id: z.string(), name: z.string(), created: Timestamp, lastUsed: Timestamp.nullable() }).openapi("Passkey");

const Options = z.record(z.string(), z.unknown()).openapi("WebAuthnOptions", { description: "WebAuthn options as JSON, for `@simplewebauthn/browser`." });

const PasskeyParams = z.object({ passkeyId: z.string().min(1).max(1400) });

/** The session a registration is bound to: its cookie (the access check has already found it valid). */
const sessionCookie = (c: Context<AppEnv>) => getCookie(c, "assent_portal", "host")!;

/** A pending passkey sign-in: a cookie of its own, so its challenge is bound to this browser. */
const pendingCookie = "assent_passkey";
const pendingOptions = { httpOnly: true, secure: true, sameSite: "Strict", path: "/portal/api", prefix: "secure" } as const;

passkeyRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/passkeys/registration-options",
    operationId: "passkeyRegistrationOptions",
    tags,
    ...access.session,
    summary: "Start registering a passkey",
    description: `Options for \`navigator.credentials.create()\`; the challenge is bound to this session and works once, for ${challengeSeconds / 60} minutes.`,
    responses: { 200: jsonResponse(Options, "The options."), ...problems },
  }),
  async (c) => c.json(await registrationOptions(c, callingMember(c).memberId, sessionCookie(c)), 200),
);

passkeyRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/passkeys",
    operationId: "registerPasskey",
    tags,
    ...access.session,
    summary: "Register a passkey",
    description: "Verifies the authenticator's answer against this session's challenge (400 `challenge_invalid` once used or expired; 400 `passkey_invalid` when it does not verify).",
    request: { body: jsonBody(Registration) },
    responses: { 201: jsonResponse(Passkey, "The passkey."), ...problems },
  }),
  async (c) => {
    const { name, response } = c.req.valid("json");
    return c.json(await registerPasskey(c, callingMember(c).memberId, sessionCookie(c), name, response as RegistrationResponseJSON), 201);
  },
);

passkeyRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/passkeys",
    operationId: "listOwnPasskeys",
    tags,
    ...access.session,
    summary: "The signed-in member's passkeys",
    responses: { 200: jsonResponse(z.object({ items: z.array(Passkey) }), "The passkeys."), ...problems },
  }),
  async (c) => {
    const memberId = c.var.operator!.memberId;
    const { id, name, created, lastUsed } = passkeys;
    const items = memberId === null ? [] : await accountsDb(c).select({ id, name, created, lastUsed }).from(passkeys).where(eq(passkeys.memberId, memberId)).orderBy(desc(created));
    return c.json({ items }, 200);
  },
);

passkeyRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/passkeys/{passkeyId}",
    operationId: "deleteOwnPasskey",
    tags,
    ...access.session,
    summary: "Delete one of the signed-in member's passkeys",
    request: { params: PasskeyParams },
    responses: { 204: { description: "Deleted." }, ...problems },
  }),
  async (c) => {
    const memberId = c.var.operator!.memberId;
    const deleted =
      memberId === null
        ? []
        : await accountsDb(c)
            .delete(passkeys)
            .where(and(eq(passkeys.id, c.req.valid("param").passkeyId), eq(passkeys.memberId, memberId)))
            .returning({ id: passkeys.id });
    if (deleted.length === 0) throw notFound("Passkey");
    return c.body(null, 204);
  },
);

passkeyRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/passkey-sign-in/options",
    operationId: "passkeySignInOptions",
    tags: ["Portal"],
    ...access.public,
    summary: "Start signing in with a passkey",
    description:
      `Options for \`navigator.credentials.get()\` (any of this service's passkeys: the authenticator says whose). The ` +
      `challenge is bound to this browser by a cookie and works once, for ${challengeSeconds / 60} minutes. Rate-limited ` +
      "per client IP (429); needs a same-origin `Origin`.",
    responses: { 200: jsonResponse(Options, "The options."), ...problems },
  }),
  async (c) => {
    await limitRate(c, "PORTAL_SIGN_IN_LIMITER");
    requireSameOrigin(c);
    const pending = randomSecret("pks");
    const options = await signInOptions(c, pending);
    setCookie(c, pendingCookie, pending, { ...pendingOptions, maxAge: challengeSeconds });
    return c.json(options, 200);
  },
);

passkeyRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/passkey-sign-in",
    operationId: "signInWithPasskey",
    tags: ["Portal"],
    ...access.public,
    summary: "Sign in with a passkey",
    description:
      "Verifies the assertion against this browser's pending challenge (400 `challenge_invalid` once used or expired) " +
      "and opens a portal session as `POST /portal/api/session` does; 401 `passkey_invalid` when the passkey is not " +
      "registered or does not verify. Rate-limited per client IP (429); needs a same-origin `Origin`.",
    request: { body: jsonBody(Assertion) },
    responses: {
      201: jsonResponse(z.object({ csrfToken: z.string(), expires: Timestamp }), "Signed in; the session cookie is set."),
      ...problems,
    },
  }),
  async (c) => {
    await limitRate(c, "PORTAL_SIGN_IN_LIMITER");
    requireSameOrigin(c);
    const pending = getCookie(c, pendingCookie, "secure");
    if (!pending) throw new ApiError(400, "challenge_invalid", "No passkey sign-in is pending in this browser: start again.");
    deleteCookie(c, pendingCookie, pendingOptions);
    const memberId = await verifyPasskeySignIn(c, pending, c.req.valid("json").response as AuthenticationResponseJSON);
    const operator = await memberOperator(c, memberId, "passkey");
    if (!operator) throw new ApiError(401, "passkey_invalid", "That passkey's member was removed.");
    await recordAudit(c, operator, { operationId: "signInWithPasskey", status: 201, projectId: null });
    const session = await createSession(c, memberId, "passkey");
    c.header("Location", "/portal/api/session");
    return c.json({ csrfToken: session.csrfToken, expires: session.expires }, 201);
  },
);
