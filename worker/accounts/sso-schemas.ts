import { z } from "@hono/zod-openapi";
import { Timestamp } from "../lib/schemas";
import { Email } from "./schemas";

/** Roles a member made at their first single sign-on may get: never owner (that is granted by an owner, by name). */
export const ssoDefaultRoles = ["admin", "editor", "request_handler", "viewer"] as const;

const Domain = z
  .string()
  .min(3)
  .max(253)
  .regex(/^([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/, "An email domain such as example.com.")
  .transform((domain) => domain.toLowerCase());

export const SsoConfigurationInput = z
  .strictObject({
    issuer: z.string().url().max(500).openapi({ description: "The provider's issuer: `{issuer}/.well-known/openid-configuration` is its discovery document. https only." }),
    clientId: z.string().min(1).max(500),
    clientSecret: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .openapi({ description: "Required the first time; left out, the stored one stays. Stored encrypted, never shown again." }),
    domains: z.array(Domain).min(1).max(20).openapi({ description: "The email domains whose addresses sign in through this provider, and only through it to this organization." }),
    defaultRole: z.enum(ssoDefaultRoles).default("viewer").openapi({ description: "The role of a member made at their first sign-in (just in time)." }),
  })
  .openapi("SsoConfigurationInput");

export const SsoConfiguration = z
  .object({
    issuer: z.string(),
    clientId: z.string(),
    clientSecretSet: z.literal(true).openapi({ description: "The secret is stored (encrypted); it is never returned." }),
    domains: z.array(z.string()),
    defaultRole: z.enum(ssoDefaultRoles),
    redirectUri: z.string().openapi({ description: "Register this as the client's redirect URI at the provider." }),
    updated: Timestamp,
  })
  .openapi("SsoConfiguration");

export const SsoStart = z.strictObject({ email: Email }).openapi("SsoStart", { description: "The operator's work address: its domain names the organization." });

export const SsoStarted = z
  .object({ authorizationUrl: z.string().openapi({ description: "Send the browser here: the organization's provider." }) })
  .openapi("SsoStarted");

export const SsoCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(500).optional(),
  iss: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
  session_state: z.string().max(500).optional(),
});
