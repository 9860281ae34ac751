import type { Context, HonoRequest, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { ApiError } from "./errors";

/** Every route's body limit, unless the route declares its own (`bodyLimitExtension`). */
export const maxBodyBytes = 1_048_576;

/**
 * The OpenAPI extension by which a route declares a larger body limit, in bytes (`POST …/scans`: a crawl's report),
 * so the document states it next to the operation.
 */
export const bodyLimitExtension = "x-assent-max-body-bytes" as const;

const jsonType = /^application\/([\w.-]+\+)?json$/i;
/**
 * JSON sent as `text/plain` too: a page's `fetch` with that type is a CORS "simple request", sent without a
 * preflight. Only routes that declare a `text/plain` body take it (the bootstrap, a page's call before first paint).
 */
const jsonOrPlainText = /^(application\/([\w.-]+\+)?json|text\/plain)$/i;

const read = new WeakMap<HonoRequest, Promise<unknown>>();

const limits = new Map<number, MiddlewareHandler>();

/**
 * The one limit on request bodies (hono/body-limit), `maxBodyBytes` unless the route declares more: a declared
 * length over it is refused unread, a chunked body is counted as it arrives and refused once past it. JSON bodies
 * meet it where they are read (below), other bodies (the token endpoint's form) in front of their route
 * (worker/auth/router.ts): both after authentication.
 */
export function limitBody(maxSize = maxBodyBytes): MiddlewareHandler {
  let limit = limits.get(maxSize);
  if (!limit) {
    limit = bodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError(413, "payload_too_large", `The request body exceeds ${maxSize} bytes.`);
      },
    });
    limits.set(maxSize, limit);
  }
  return limit;
}

/**
 * Gatekeeper for JSON APIs: a body over the limit is 413, a body that is not JSON is 415, JSON that
 * does not parse is 400. The parsed value is left in Hono's body cache for the validators.
 */
export const jsonBodies = (maxSize = maxBodyBytes) =>
  createMiddleware(async (c, next) => {
    await readJsonBody(c, jsonType, maxSize);
    return next();
  });

export const jsonOrPlainTextBodies = (maxSize = maxBodyBytes) =>
  createMiddleware(async (c, next) => {
    await readJsonBody(c, jsonOrPlainText, maxSize);
    return next();
  });

/** The request's parsed JSON body (undefined when it has none), read once however often it is asked for. */
export function readJsonBody(c: Context, accepts = jsonType, maxSize = maxBodyBytes): Promise<unknown> {
  let parsed = read.get(c.req);
  if (!parsed) {
    parsed = parseBody(c, accepts, maxSize);
    read.set(c.req, parsed);
  }
  return parsed;
}

async function parseBody(c: Context, accepts: RegExp, maxSize: number): Promise<unknown> {
  const method = c.req.method;
  if ((method !== "POST" && method !== "PUT" && method !== "PATCH") || c.req.raw.body === null) return undefined;
  // A declared length frames the body (the runtime delivers no more than it); a chunked one is read by the limit.
  await limitBody(maxSize)(c, async () => {});
  const text = await c.req.raw.text();
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0].trim();
  if (text.length === 0 && !mediaType) {
    // The stream is spent: later readers (the validators' body checks) get the empty body from the cache.
    c.req.bodyCache.arrayBuffer = Promise.resolve(new ArrayBuffer(0)) as unknown as ArrayBuffer;
    return undefined;
  }
  if (/^application\/x-ndjson$/i.test(mediaType)) {
    // Newline-delimited JSON (bulk imports): the route parses it line by line. (Hono types the cache by value
    // but keeps promises in it, as for json below.)
    c.req.bodyCache.text = Promise.resolve(text) as unknown as string;
    return undefined;
  }
  if (!accepts.test(mediaType)) {
    throw new ApiError(415, "unsupported_media_type", "Send the body as JSON with content-type application/json.");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(400, "malformed_json", "The request body is not valid JSON.");
  }
  c.req.bodyCache.json = Promise.resolve(parsed);
  return parsed;
}
