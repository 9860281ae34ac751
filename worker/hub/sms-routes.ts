import { z } from "@hono/zod-openapi";
import type { Env } from "../env";
import { base64url } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { adapterNames, adapters, type AdapterName } from "./providers";
import { hmac } from "./providers/signatures";
import type { ProviderAdapter } from "./providers/types";

export const defaultRoute = "sms_hub";
export const defaultValidityHours = 24;
export const defaultFailoverAfter = 3;

/** One route in the `SMS_ROUTES` variable (JSON; not secret). */
const RouteConfig = z
  .object({
    adapter: z.enum(adapterNames),
    /** Overrides the provider's API base URL (a regional edge, or a local test double). */
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** Route that takes this route's waiting messages when it keeps failing. */
    fallback: z.string().optional(),
    /** How long a message may wait for a successful hand-off before it expires. */
    validityHours: z.number().positive().max(24 * 7).default(defaultValidityHours),
    /** Consecutive transient failures of the route after which its waiting messages move to `fallback`. */
    failoverAfter: z.number().int().min(1).max(100).default(defaultFailoverAfter),
    /** Provider-specific settings (Twilio `messagingServiceSid`, Sinch `region`). */
    options: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

const RouteName = z.string().regex(/^[a-z0-9_]{1,32}$/, "Route names use a-z, 0-9 and _ (at most 32).");
const RoutesConfig = z.record(RouteName, RouteConfig);
const Credentials = z.record(z.string(), z.record(z.string(), z.unknown()));

export type SmsRoute = {
  name: string;
  adapterName: AdapterName;
  adapter: ProviderAdapter<unknown, unknown>;
  baseUrl: string | null;
  fallback: string | null;
  validityMs: number;
  failoverAfter: number;
  options: unknown;
  /** Parsed credentials, or null when they are missing or malformed (see `problem`). */
  credentials: unknown;
  /** Why the route cannot send (never quoting a secret), or null. */
  problem: string | null;
};

const notConfigured = (detail: string) => new ApiError(503, "not_configured", detail);

function parseJson(name: string, text: string | undefined, fallback: unknown): unknown {
  if (text === undefined || text.trim() === "") return fallback;
  try {
    return JSON.parse(text);
  } catch {
    throw notConfigured(`${name} is not valid JSON.`);
  }
}

const describe = (error: z.ZodError) => error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");

/**
 * The configured routes: `SMS_ROUTES` (names → adapter and settings) with each route's credentials from the
 * `SMS_CREDENTIALS` secret (names → that provider's credential fields). `sms_hub` always exists: unless configured
 * otherwise it is the generic gateway at `SMS_HUB_UPSTREAM_URL` with `SMS_HUB_UPSTREAM_SECRET`, and with no URL the
 * outbox is the end of the line (local development). A malformed configuration is 503 `not_configured`.
 */
export function loadRoutes(env: Env): Map<string, SmsRoute> {
  const parsedRoutes = RoutesConfig.safeParse(parseJson("SMS_ROUTES", env.SMS_ROUTES, {}));
  if (!parsedRoutes.success) throw notConfigured(`SMS_ROUTES is malformed: ${describe(parsedRoutes.error)}`);
  const parsedCredentials = Credentials.safeParse(parseJson("SMS_CREDENTIALS", env.SMS_CREDENTIALS, {}));
  // The secret's content is never quoted, only the fact that it is malformed.
  if (!parsedCredentials.success) throw notConfigured("SMS_CREDENTIALS must be a JSON object of route names to objects.");
  const configs = { [defaultRoute]: RouteConfig.parse({ adapter: "gateway" }), ...parsedRoutes.data };
  const routes = new Map<string, SmsRoute>();
  for (const [name, config] of Object.entries(configs)) {
    if (config.fallback !== undefined && (config.fallback === name || !(config.fallback in configs))) {
      throw notConfigured(`SMS_ROUTES: the fallback of ${name} must be another configured route.`);
    }
    // Each adapter checks its own credentials and options (parsed below), so the table is used through the common type.
    const adapter = adapters[config.adapter] as ProviderAdapter<unknown, unknown>;
    const options = adapter.options.safeParse(config.options);
    if (!options.success) throw notConfigured(`SMS_ROUTES: options of ${name}: ${describe(options.error)}`);
    const legacyGateway = name === defaultRoute && config.adapter === "gateway";
    const given = parsedCredentials.data[name] ?? (legacyGateway ? { secret: env.SMS_HUB_UPSTREAM_SECRET } : undefined);
    const credentials = given === undefined ? null : adapter.credentials.safeParse(given);
    const problem =
      credentials === null
        ? `No credentials for ${name} in SMS_CREDENTIALS.`
        : credentials.success
          ? null
          : `Credentials of ${name} in SMS_CREDENTIALS are malformed: ${credentials.error.issues.map((i) => i.path.join(".") || "(root)").join(", ")}.`;
    routes.set(name, {
      name,
      adapterName: config.adapter,
      adapter,
      baseUrl: config.baseUrl ?? (legacyGateway ? env.SMS_HUB_UPSTREAM_URL : undefined) ?? adapter.defaultBaseUrl(options.data),
      fallback: config.fallback ?? null,
      validityMs: config.validityHours * 3_600_000,
      failoverAfter: config.failoverAfter,
      options: options.data,
      credentials: credentials?.success ? credentials.data : null,
      problem,
    });
  }
  return routes;
}

/** Base URL providers call back to: `SMS_CALLBACK_BASE_URL`, else `ISSUER`; null when neither is set. */
const publicBase = (env: Env) => (env.SMS_CALLBACK_BASE_URL ?? env.ISSUER)?.replace(/\/+$/, "") ?? null;

export const callbackPath = (route: string) => `/callbacks/sms/${route}`;

/**
 * The route's callback token, for providers without their own signature: derived from the route's credentials
 * (HMAC-SHA256), so it needs no storage, differs per route and changes when the credentials are rotated.
 */
export async function callbackToken(route: SmsRoute): Promise<string> {
  const mac = await hmac("SHA-256", JSON.stringify(route.credentials), `assent-sms-callback:${route.name}`);
  return base64url(mac);
}

/** The delivery-report URL given to the provider with each message; null when no public base URL is known. */
export async function callbackUrl(env: Env, route: SmsRoute): Promise<string | null> {
  const base = publicBase(env);
  if (!base || route.credentials === null) return null;
  const url = `${base}${callbackPath(route.name)}`;
  return route.adapter.reportSignature(route.credentials) ? url : `${url}?token=${await callbackToken(route)}`;
}

/** The public callback URL without its token, for the admin API (null when no public base URL is known). */
export const publicCallbackUrl = (env: Env, route: string) => {
  const base = publicBase(env);
  return base ? `${base}${callbackPath(route)}` : null;
};
