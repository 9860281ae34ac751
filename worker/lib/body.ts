import type { Context, HonoRequest } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { ApiError } from "./errors";

export const maxBodyBytes = 1_048_576;

const jsonType = /^application\/([\w.-]+\+)?json$/i;
/**
 * JSON sent as `text/plain` too: a page's `fetch` with that type is a CORS "simple request", sent without a
 * preflight. Only routes that declare a `text/plain` body take it (the bootstrap, a page's call before first paint).
 */
const jsonOrPlainText = /^(application\/([\w.-]+\+)?json|text\/plain)$/i;

const read = new WeakMap<HonoRequest, Promise<unknown>>();

const tooLarge = () => new ApiError(413, "payload_too_large", `The request body exceeds ${maxBodyBytes} bytes.`);

/**
 * The one limit on request bodies, every route's (hono/body-limit): a declared length over it is refused unread, a
 * chunked body is counted as it arrives and refused once past it. JSON bodies meet it where they are read (below),
 * other bodies (the token endpoint's form) in front of their route (worker/lib/router.ts): both after
 * authentication.
 */
export const limitBody = bodyLimit({
  maxSize: maxBodyBytes,
  onError: () => {
    throw tooLarge();
  },
});

/**
 * Gatekeeper for JSON APIs: a body over the limit is 413, a body that is not JSON is 415, JSON that
 * does not parse is 400. The parsed value is left in Hono's body cache for the validators.
 */
export const jsonBodies = createMiddleware(async (c, next) => {
  await readJsonBody(c);
  return next();
});

export const jsonOrPlainTextBodies = createMiddleware(async (c, next) => {
  await readJsonBody(c, jsonOrPlainText);
  return next();
});

/** The request's parsed JSON body (undefined when it has none), read once however often it is asked for. */
export function readJsonBody(c: Context, accepts = jsonType): Promise<unknown> {
  let parsed = read.get(c.req);
  if (!parsed) {
    parsed = parseBody(c, accepts);
    read.set(c.req, parsed);
  }
  return parsed;
}

async function parseBody(c: Context, accepts: RegExp): Promise<unknown> {
  const method = c.req.method;
  if ((method !== "POST" && method !== "PUT" && method !== "PATCH") || c.req.raw.body === null) return undefined;
  // A declared length frames the body (the runtime delivers no more than it); a chunked one is read by the limit.
  await limitBody(c, async () => {});
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
