import { z } from "@hono/zod-openapi";

/** The schemas every capability's routes share: problems, bodies, timestamps, client ids, translations, links. */

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string().openapi({ description: "Stable machine-readable error code." }),
    errors: z
      .array(z.object({ path: z.string(), message: z.string(), code: z.string() }))
      .optional()
      .openapi({ description: "Field-level failures of a `validation_failed` problem." }),
  })
  .openapi("Problem");

/** A problem response of an operation, described. */
export const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: Problem } },
});

/** The problem responses every authenticated JSON route can give. */
export const problems = {
  400: problem("Invalid request (malformed JSON, wrong types, unknown fields)."),
  401: problem("Missing or invalid bearer token."),
  403: problem("The token may not perform this operation."),
  404: problem("Not found (also for another project's ids)."),
  413: problem("Body larger than 1 MB."),
  415: problem("Body is not JSON."),
} as const;

export const conflictProblem = { 409: problem("Conflicts with the current state.") } as const;

/** JSON request body, required and strict by construction of the schema. */
export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  required: true,
  description,
  content: { "application/json": { schema } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

export const Timestamp = z.string().openapi({ example: "2026-11-22T10:15:30.123Z", description: "ISO 8601, UTC, milliseconds." });

/** Client-chosen identifiers: URL-friendly (RFC 3986 unreserved characters) and bounded. */
export const ReferenceId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._~-]+$/, "Use letters, digits and - . _ ~ only.")
  .openapi({ example: "customer-42" });

export const Translation = z
  .strictObject({
    language: z
      .string()
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, "A BCP 47 language tag, such as en or sv-SE.")
      .openapi({ example: "en" }),
    text: z.string().min(1).max(10_000),
  })
  .openapi("Translation");

/**
 * A link shown to data subjects or called by the service: `https:` only (`http:` is accepted for loopback hosts,
 * which only local development reaches). `javascript:`, `data:` and the like are refused with 400.
 */
export const WebUrl = z
  .url()
  .max(2048)
  .refine((value) => isSafeWebUrl(value), "An https: URL (http: only for localhost and *.localhost).")
  .openapi({ example: "https://www.example.com/privacy" });

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);
export function isSafeWebUrl(value: string) {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  // `*.localhost` is loopback by definition (RFC 6761 §6.3).
  return url.protocol === "https:" || (url.protocol === "http:" && (loopbackHosts.has(url.hostname) || url.hostname.endsWith(".localhost")));
}

export const Policies = z
  .strictObject({
    privacy: WebUrl.optional(),
    terms: WebUrl.optional(),
    cookie: WebUrl.optional(),
  })
  .openapi("Policies");
