import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import type { AppEnv } from "../env";
import { logger } from "./logger";
import { requestFields } from "./request-log";

export type FieldError = { path: string; message: string; code: string };

const titles: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** Codes for failures raised by Hono itself (body limit, its JSON parser), keyed by status. */
const codesByStatus: Record<number, string> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
  415: "unsupported_media_type",
};

/** An RFC 9457 problem: thrown anywhere, rendered by the one `onError`. */
export class ApiError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    readonly code: string,
    detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string>; members?: Record<string, unknown> } = {},
  ) {
    super(status, { message: detail });
  }
}

export function problemResponse(
  status: number,
  code: string,
  detail: string,
  extra: ApiError["extra"] = {},
): Response {
  const body = {
    type: `urn:assent:problem:${code}`,
    title: titles[status] ?? "Error",
    status,
    detail,
    code,
    ...(extra.errors ? { errors: extra.errors } : {}),
    ...extra.members,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", ...extra.headers },
  });
}

export const notFound = (what: string) => new ApiError(404, "not_found", `${what} not found.`);
export const conflict = (code: string, detail: string) => new ApiError(409, code, detail);
export const forbidden = (detail = "This token may not perform this operation.") =>
  new ApiError(403, "forbidden", detail);
export const badRequest = (code: string, detail: string, errors?: FieldError[]) =>
  new ApiError(400, code, detail, { errors });

/** At most this many field errors are listed, paths cut at `maxPathLength`: an error never outgrows its request. */
export const maxListedErrors = 50;
const maxPathLength = 200;

/** Turns a Zod failure into a 400 with one entry per offending field; `where` prefixes non-body fields. */
export function validationError(error: ZodError, where?: "query" | "path" | "header"): ApiError {
  const prefix = where ? `${where}.` : "";
  const errors: FieldError[] = error.issues.flatMap((issue) => {
    const base = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        path: prefix + (base ? `${base}.${key}` : key),
        message: "Unknown field.",
        code: "unknown_field",
      }));
    }
    // A field that is not there at all: say so in the API's words ("expected array, received undefined" is Zod's).
    if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) {
      return [{ path: prefix + base, message: "Required.", code: "required" }];
    }
    return [{ path: prefix + base, message: issue.message, code: issue.code }];
  });
  const listed = errors.slice(0, maxListedErrors).map((e) => ({
    ...e,
    path: e.path.length > maxPathLength ? `${e.path.slice(0, maxPathLength)}…` : e.path,
    message: e.message.slice(0, 500),
  }));
  const more = errors.length - listed.length;
  const detail = more > 0 ? `The request has ${errors.length} invalid fields; the first ${listed.length} are in \`errors\`.` : "The request has invalid fields; see `errors`.";
  return new ApiError(400, "validation_failed", detail, { errors: listed, members: more > 0 ? { errorsOmitted: more } : {} });
}

export function onError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ApiError) {
    c.set("problemCode", err.code);
    return problemResponse(err.status, err.code, err.message, err.extra);
  }
  if (err instanceof HTTPException) {
    const headers = Object.fromEntries(err.getResponse().headers);
    delete headers["content-type"];
    const code = codesByStatus[err.status] ?? "error";
    c.set("problemCode", code);
    return problemResponse(err.status, code, err.message, { headers });
  }
  c.set("problemCode", "internal_error");
  logger.error("unhandled_error", { ...requestFields(c), code: "internal_error" }, err);
  return problemResponse(500, "internal_error", "An unexpected error occurred; it has been logged.");
}
