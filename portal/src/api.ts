// The portal's only way to the API: openapi-fetch over the generated OpenAPI types, same-origin with the session
// cookie (HttpOnly, so scripts never see it) and the session's CSRF token, which lives in this module's memory only;
// never in localStorage. `await ok(api.GET("/admin/v1/projects/{project_id}", { params: { path: { project_id: projectId } } }))`.
import { startAuthentication, startRegistration } from "@simplewebauthn/browser";
import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "../../shared/api/operations";

export type FieldError = { path: string; message: string; code: string };

/** An RFC 9457 problem from the API, kept whole so pages can show its detail and field errors. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly errors: FieldError[] = [],
    /** Members a problem adds to RFC 9457's (`command` of `browser_unavailable`). */
    readonly members: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

let csrfToken: string | null = null;
let expires: string | null = null;
type Grants = Pick<paths["/portal/api/session"]["get"]["responses"][200]["content"]["application/json"], "role" | "scopes" | "projectScopes">;
/** What the signed-in member may do, read once per session (`GET /portal/api/session`). */
let grants: Promise<Grants> | null = null;

/** Fired when the API says the session is gone, so the shell can ask for sign-in again. */
export const sessionEndedEvent = "assent-session-ended";

const unsafe = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Unsafe requests carry the session's CSRF token; a 401 anywhere but the session itself means the session ended. */
const csrf: Middleware = {
  onRequest({ request }) {
    if (unsafe.has(request.method) && csrfToken) request.headers.set("x-csrf-token", csrfToken);
  },
  onResponse({ response, schemaPath }) {
    if (response.status !== 401 || schemaPath.startsWith("/portal/api/session") || schemaPath.startsWith("/portal/api/passkey-sign-in")) return;
    csrfToken = null;
    window.dispatchEvent(new CustomEvent(sessionEndedEvent));
  },
};

/**
 * The ETag of each record as this page last read or wrote it, by path. Saves and deletes send it as `If-Match`, so a
 * record someone else changed meanwhile is refused (412 `precondition_failed`) instead of silently overwritten. A
 * successful write below a record (a secret rotation, jurisdiction rules) may change the record too: its tag is
 * forgotten, and the next save of it is unconditional unless the record is read again first.
 */
const etags = new Map<string, string>();

const preconditions: Middleware = {
  onRequest({ request }) {
    const etag = etags.get(new URL(request.url).pathname);
    if ((request.method === "PUT" || request.method === "DELETE") && etag && !request.headers.has("if-match")) request.headers.set("if-match", etag);
  },
  onResponse({ request, response }) {
    if (!response.ok) return;
    const { method } = request;
    const resource = new URL(request.url).pathname;
    for (const known of etags.keys()) if (unsafe.has(method) && resource.startsWith(`${known}/`)) etags.delete(known);
    const etag = response.headers.get("etag");
    if (method === "DELETE") etags.delete(resource);
    else if (etag && response.status === 201) etags.set(response.headers.get("location") ?? resource, etag);
    else if (etag) etags.set(resource, etag);
  },
};

/** No answer at all is a problem too, so pages show one kind of error. */
const offline: Middleware = {
  onError: () => new ApiProblem(0, "network_error", "Network error", "The service could not be reached. Check your connection and try again."),
};

export const api = createClient<paths>({ credentials: "same-origin", cache: "no-store", headers: { accept: "application/json" } });
api.use(csrf, preconditions, offline);

type Problem = Partial<{ code: string; title: string; detail: string; errors: FieldError[] }>;

/** What a request of `api` answered when it succeeded; anything else rejects with an ApiProblem. */
export async function ok<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  // openapi-fetch's union keys success on `data`, which a 204 leaves undefined; the status is what decides.
  if (response.ok) return data as T;
  const p = (typeof error === "object" && error ? error : {}) as Problem & Record<string, unknown>;
  throw new ApiProblem(response.status, p.code ?? "error", p.title ?? response.statusText, p.detail ?? `The service answered ${response.status}.`, p.errors ?? [], p);
}

export const session = {
  get expires() {
    return expires;
  },
  async signIn(adminToken: string) {
    grants = null;
    ({ csrfToken, expires } = await ok(api.POST("/portal/api/session", { body: { adminToken } })));
  },
  /** A one-time sign-in link's secret (from its `#sign-in=` fragment): it works once. */
  async signInWithLink(link: string) {
    grants = null;
    ({ csrfToken, expires } = await ok(api.POST("/portal/api/session", { body: { link } })));
  },
  /** A passkey of this service (the browser asks which, and for the member's unlock). */
  async signInWithPasskey() {
    const optionsJSON = await ok(api.POST("/portal/api/passkey-sign-in/options"));
    const response = await startAuthentication({ optionsJSON: optionsJSON as never });
    grants = null;
    ({ csrfToken, expires } = await ok(api.POST("/portal/api/passkey-sign-in", { body: { response: response as never } })));
  },
  /** After a reload: the cookie may still be valid; fetch the CSRF token that goes with it. */
  async resume(): Promise<boolean> {
    try {
      const state = await ok(api.GET("/portal/api/session"));
      ({ csrfToken, expires } = state);
      grants = Promise.resolve(state);
      return true;
    } catch (error) {
      if (error instanceof ApiProblem && error.status === 401) return false;
      throw error;
    }
  },
  async signOut() {
    try {
      await ok(api.DELETE("/portal/api/session"));
    } finally {
      csrfToken = null;
      expires = null;
      grants = null;
    }
  },
  /**
   * Whether the member's role holds `scope` (in `projectId`, where a project role may differ), so a page shows what
   * they cannot change as read-only from the start. For showing only: the service checks every call.
   */
  async holds(scope: string, projectId?: string): Promise<boolean> {
    grants ??= ok(api.GET("/portal/api/session")).catch((error: unknown) => {
      grants = null;
      throw error;
    });
    const { scopes, projectScopes } = await grants;
    return ((projectId && projectScopes[projectId]) || scopes).includes(scope);
  },
};

/** Registers a passkey for the signed-in member: the options bound to this session, then the authenticator's answer. */
export async function addPasskey(name: string) {
  const optionsJSON = await ok(api.POST("/portal/api/passkeys/registration-options"));
  const response = await startRegistration({ optionsJSON: optionsJSON as never });
  return ok(api.POST("/portal/api/passkeys", { body: { name, response: response as never } }));
}
