import type { z } from "@hono/zod-openapi";
import { base64 } from "../../lib/crypto";
import type { OutboxMessage } from "../table";

/** What one hand-off achieved. `permanent` failures cannot succeed on retry (invalid number, bad credentials …). */
export type HandOffResult =
  | { outcome: "accepted"; providerRef: string | null }
  | { outcome: "outbox_only" }
  | { outcome: "failed"; permanent: boolean; errorCode: string | null; error: string };

/** The statuses a delivery report can move a message to. */
export type ReportedStatus = "accepted" | "delivered" | "undelivered" | "failed" | "expired";

/** A delivery report, reduced to what the outbox needs. A message is found by `providerRef` or by our own id. */
export type DeliveryReport = {
  providerRef?: string;
  messageId?: string;
  status: ReportedStatus;
  errorCode: string | null;
  detail: string;
};

/** A callback as it arrived: its full URL, headers and its parameters (query, then form or top-level JSON fields). */
export type Callback = {
  url: string;
  headers: Headers;
  /** Parameters of a form or JSON body (what Twilio signs); the query's parameters are in `url`. */
  bodyParams: Record<string, string>;
  /** Query and body parameters together. */
  params: Record<string, string>;
};

export type HandOffContext<C, O> = {
  message: OutboxMessage;
  credentials: C;
  options: O;
  /** The route's base URL: its override, or the provider's own; null when the adapter has none (gateway unset). */
  baseUrl: string | null;
  /** Where the provider should send this message's delivery reports; null when no public base URL is known. */
  callbackUrl: string | null;
  /** Milliseconds left of the message's validity: providers that can stop delivery attempts then are told so. */
  validForMs: number;
};

/**
 * One SMS provider: how an outbox row becomes its documented request, what its answer means, and how its
 * delivery reports are checked and read. Credentials come from the `SMS_CREDENTIALS` secret, options from `SMS_ROUTES`.
 */
export interface ProviderAdapter<C = unknown, O = unknown> {
  /** Shape of this provider's entry in the `SMS_CREDENTIALS` secret. */
  credentials: z.ZodType<C>;
  /** Shape of the provider-specific settings of a route in `SMS_ROUTES` (not secret). */
  options: z.ZodType<O>;
  /** The provider's API base URL for a route's options (regions); a route's `baseUrl` overrides it. */
  defaultBaseUrl(options: O): string | null;
  handOff(context: HandOffContext<C, O>): Promise<HandOffResult>;
  /**
   * How a delivery report proves it comes from the provider: the provider's own signature check, or null where it
   * has none with these credentials; then the route's secret token in the callback URL is required instead.
   */
  reportSignature(credentials: C): ((callback: Callback) => Promise<boolean>) | null;
  /** Reads a report; null for reports that carry no status change we track (or that we cannot read). */
  readReport(callback: Callback): DeliveryReport | null;
  /** The answer the provider expects to a report it should not resend (accepted, replayed or unknown). */
  reportAnswer(): Response;
}

/** Fetch with a deadline; a timeout or network error is a transient failure. */
export const providerTimeoutMs = 10_000;

export async function send(url: string, init: RequestInit): Promise<Response | { networkError: string }> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(providerTimeoutMs) });
  } catch (error) {
    return { networkError: (error as Error).message };
  }
}

export const unreachable = (name: string, error: string): HandOffResult => ({
  outcome: "failed",
  permanent: false,
  errorCode: null,
  error: `${name} could not be reached: ${error}`,
});

/**
 * The usual HTTP rule: 5xx, 408 and 429 may succeed later; any other 4xx (invalid number, bad credentials, no
 * funds) will not.
 */
export const isPermanentStatus = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;


export const basicAuth = (user: string, password: string) => `Basic ${base64(new TextEncoder().encode(`${user}:${password}`))}`;

/** Accepted as E.164 (+46…) by us; some providers want the digits only. */
export const digitsOnly = (number: string) => number.replace(/^\+/, "");

export async function readJson(response: Response): Promise<Record<string, unknown> | null> {
  try {
    const value = await response.json();
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export const emptyOk = () => new Response(null, { status: 200 });

export const clamp = (value: number, min: number, max: number) => Math.min(Math.max(Math.round(value), min), max);
