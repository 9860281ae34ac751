import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, eq, gt } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { accountsDb } from "../auth/operators";
import { base64url, fromBase64url, sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { now } from "../lib/time";
import { members, passkeys, webauthnChallenges, webauthnPurposes } from "./table";

type Purpose = (typeof webauthnPurposes)[number];

/** A ceremony must finish within 5 minutes of its options (the browser's own timeout is shorter). */
export const challengeSeconds = 300;

/** The relying party is this service's own origin: a passkey made here works only here. */
const relyingParty = (c: Context<AppEnv>) => {
  const url = new URL(c.req.url);
  return { rpID: url.hostname, origin: url.origin };
};

const challengeInvalid = () =>
  new ApiError(400, "challenge_invalid", "No passkey ceremony is pending here: it was used, expired (5 minutes) or never started. Start again.");

/** Keeps a challenge for its binding (a new one replaces the one before). */
async function keepChallenge(c: Context<AppEnv>, binding: string, purpose: Purpose, challenge: string, memberId: string | null) {
  const row = { bindingHash: await sha256Hex(binding), purpose, challenge, memberId, expires: new Date(Date.now() + challengeSeconds * 1000).toISOString() };
  await accountsDb(c).insert(webauthnChallenges).values(row).onConflictDoUpdate({ target: webauthnChallenges.bindingHash, set: row });
}

/** Takes the binding's challenge once (one delete): a second use, another purpose or an expired one is 400 `challenge_invalid`. */
async function takeChallenge(c: Context<AppEnv>, binding: string, purpose: Purpose) {
  const [taken] = await accountsDb(c)
    .delete(webauthnChallenges)
    .where(and(eq(webauthnChallenges.bindingHash, await sha256Hex(binding)), eq(webauthnChallenges.purpose, purpose), gt(webauthnChallenges.expires, now())))
    .returning({ challenge: webauthnChallenges.challenge, memberId: webauthnChallenges.memberId });
  if (!taken) throw challengeInvalid();
  return taken;
}

/** Registration options for a signed-in member, the challenge bound to their session. */
export async function registrationOptions(c: Context<AppEnv>, memberId: string, session: string) {
  const db = accountsDb(c);
  const [member] = await db.select({ email: members.email, name: members.name }).from(members).where(eq(members.id, memberId)).limit(1);
  const existing = await db.select({ id: passkeys.id, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.memberId, memberId));
  const options = await generateRegistrationOptions({
    rpName: "Assent",
    rpID: relyingParty(c).rpID,
    userName: member!.email,
    userDisplayName: member!.name ?? member!.email,
    userID: new TextEncoder().encode(memberId) as Uint8Array<ArrayBuffer>,
    attestationType: "none",
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  await keepChallenge(c, session, "register", options.challenge, memberId);
  return options;
}

/** Verifies a new passkey against the session's challenge and keeps it; 400 `passkey_invalid` when it does not verify. */
export async function registerPasskey(c: Context<AppEnv>, memberId: string, session: string, name: string, response: RegistrationResponseJSON) {
  const { challenge, memberId: challengedFor } = await takeChallenge(c, session, "register");
  if (challengedFor !== memberId) throw challengeInvalid();
  const { rpID, origin } = relyingParty(c);
  const verified = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: false }).catch(
    (error: Error) => {
      throw passkeyInvalid(error.message);
    },
  );
  if (!verified.verified) throw passkeyInvalid("The authenticator's answer did not verify.");
  const { credential } = verified.registrationInfo;
  const row = {
    id: credential.id,
    memberId,
    name,
    publicKey: base64url(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
    created: now(),
  };
  const [inserted] = await accountsDb(c).insert(passkeys).values(row).onConflictDoNothing().returning({ id: passkeys.id });
  if (!inserted) throw new ApiError(409, "passkey_exists", "This passkey is already registered.");
  return { id: row.id, name: row.name, created: row.created, lastUsed: null };
}

const passkeyInvalid = (detail: string) => new ApiError(400, "passkey_invalid", `The passkey could not be verified: ${detail}`);

/** Sign-in options for anyone (discoverable credentials: the authenticator says whose), bound to a pending sign-in. */
export async function signInOptions(c: Context<AppEnv>, pending: string) {
  const options = await generateAuthenticationOptions({ rpID: relyingParty(c).rpID, userVerification: "preferred" });
  await keepChallenge(c, pending, "sign-in", options.challenge, null);
  return options;
}

/** The member a passkey assertion signs in, against the pending sign-in's challenge; 401 when it does not verify. */
export async function verifyPasskeySignIn(c: Context<AppEnv>, pending: string, response: AuthenticationResponseJSON): Promise<string> {
  const { challenge } = await takeChallenge(c, pending, "sign-in");
  const db = accountsDb(c);
  const [passkey] = await db.select().from(passkeys).where(eq(passkeys.id, response.id)).limit(1);
  const refused = () => new ApiError(401, "passkey_invalid", "That passkey does not sign in here: it is not registered, or its answer did not verify.");
  if (!passkey) throw refused();
  const { rpID, origin } = relyingParty(c);
  const verified = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: { id: passkey.id, publicKey: fromBase64url(passkey.publicKey), counter: passkey.counter, transports: passkey.transports as never },
    requireUserVerification: false,
  }).catch(() => {
    throw refused();
  });
  if (!verified.verified) throw refused();
  await db.update(passkeys).set({ counter: verified.authenticationInfo.newCounter, lastUsed: now() }).where(eq(passkeys.id, passkey.id));
  return passkey.memberId;
}
