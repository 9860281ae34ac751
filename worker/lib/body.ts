import { createMiddleware } from "hono/factory";
import { ApiError } from "./errors";

export const maxBodyBytes = 1_048_576;

const jsonType = /^application\/([\w.-]+\+)?json$/i;

/**
 * Gatekeeper for JSON APIs: a body over 1 MB is 413, a body that is not JSON is 415, JSON that
 * does not parse is 400. The parsed value is left in Hono's body cache for the validators. A body an earlier
 * gatekeeper already read (a route's own, see `jsonOrPlainTextBodies`) is left as it is.
 */
const gatekeeper = (accepts: RegExp) => createMiddleware(async (c, next) => {
  const method = c.req.method;
  if ((method !== "POST" && method !== "PUT" && method !== "PATCH") || c.req.raw.body === null) return next();
  if (c.req.bodyCache.json !== undefined || c.req.bodyCache.text !== undefined) return next();
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > maxBodyBytes) throw tooLarge();
  const text = await readLimited(c.req.raw.body);
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0].trim();
  if (text.length === 0 && !mediaType) return next();
  if (/^application\/x-ndjson$/i.test(mediaType)) {
    // Newline-delimited JSON (bulk imports): the route parses it line by line. (Hono types the cache by value
    // but keeps promises in it, as for json below.)
    c.req.bodyCache.text = Promise.resolve(text) as unknown as string;
    return next();
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
  return next();
});

export const jsonBodies = gatekeeper(jsonType);

/**
 * Also JSON sent as `text/plain`: a page's `fetch` with that type is a CORS "simple request", so the browser
 * sends it without a preflight. Only for the bootstrap, the one call a page makes before first paint.
 */
export const jsonOrPlainTextBodies = gatekeeper(/^(application\/([\w.-]+\+)?json|text\/plain)$/i);

const tooLarge = () => new ApiError(413, "payload_too_large", `The request body exceeds ${maxBodyBytes} bytes.`);

/** Reads a stream as text, refusing (without buffering the rest) once it passes the limit: chunked bodies have no content-length. */
async function readLimited(body: ReadableStream<Uint8Array>): Promise<string> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBodyBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
