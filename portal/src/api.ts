// The portal's only way to the API: same-origin fetch with the session cookie (HttpOnly, so scripts never see
// it) and the session's CSRF token, which lives in this module's memory only; never in localStorage. Requests are
// typed by the generated OpenAPI types: `api("GET", "/admin/v1/projects/{project_id}", { params: { project_id: projectId } })`.
import { pathTo, type JsonAnswer, type JsonBody, type Method, type PathOf, type PathParams, type QueryParams } from "../../shared/api/operations";

export type FieldError = { path: string; message: string; code: string };

/** An RFC 9457 problem from the API, kept whole so pages can show its detail and field errors. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly errors: FieldError[] = [],
  ) {
    super(detail);
  }
}

let csrfToken: string | null = null;
let expires: string | null = null;

/** Fired when the API says the session is gone, so the shell can ask for sign-in again. */
export const sessionEndedEvent = "assent-session-ended";

const unsafe = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The ETag of each record as this page last read or wrote it, by path. Saves and deletes send it as `If-Match`, so a
 * record someone else changed meanwhile is refused (412 `precondition_failed`) instead of silently overwritten. A
 * successful write below a record (a secret rotation, jurisdiction rules) may change the record too: its tag is
 * forgotten, and the next save of it is unconditional unless the record is read again first.
 */
const etags = new Map<string, string>();

function remember(method: Method, resource: string, res: Response) {
  if (!res.ok) return;
  for (const known of etags.keys()) if (unsafe.has(method) && resource.startsWith(`${known}/`)) etags.delete(known);
  const etag = res.headers.get("etag");
  if (method === "DELETE") etags.delete(resource);
  else if (etag && res.status === 201) etags.set(res.headers.get("location") ?? resource, etag);
  else if (etag) etags.set(resource, etag);
}

/** What a request takes besides its method and path: the path's parameters (when it has any), query and body. */
type Options<P extends PathOf<M>, M extends Method> = {
  query?: QueryParams<P, M>;
  body?: JsonBody<P, M>;
  headers?: Record<string, string>;
} & ([PathParams<P, M>] extends [never] ? { params?: never } : { params: PathParams<P, M> });
type OptionsArgument<P extends PathOf<M>, M extends Method> = [PathParams<P, M>] extends [never] ? [options?: Options<P, M>] : [options: Options<P, M>];

/** One API operation: its JSON answer, or an ApiProblem. */
export function api<M extends Method, P extends PathOf<M>>(method: M, path: P, ...[options]: OptionsArgument<P, M>): Promise<JsonAnswer<P, M>> {
  const { params, query, body, headers } = (options ?? {}) as { params?: object; query?: object; body?: unknown; headers?: Record<string, string> };
  return send(method, pathTo(path, params, query), body, headers) as Promise<JsonAnswer<P, M>>;
}

async function send(method: Method, path: string, body: unknown, extraHeaders: Record<string, string> = {}): Promise<unknown> {
  const headers: Record<string, string> = { accept: "application/json", ...extraHeaders };
  const resource = path.split("?")[0];
  const etag = etags.get(resource);
  if ((method === "PUT" || method === "DELETE") && etag) headers["if-match"] ??= etag;
  if (body !== undefined) headers["content-type"] = "application/json";
  if (unsafe.has(method) && csrfToken) headers["x-csrf-token"] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    throw new ApiProblem(0, "network_error", "Network error", "The service could not be reached. Check your connection and try again.");
  }
  remember(method, resource, res);
  if (res.status === 204) return undefined;
  const text = await res.text();
  let payload: unknown = null;
  try {
    payload = text ? JSON.parse(text) : null;
  } catch {
    payload = null;
  }
  if (!res.ok) {
    const p = (payload ?? {}) as Partial<{ code: string; title: string; detail: string; errors: FieldError[] }>;
    const problem = new ApiProblem(
      res.status,
      p.code ?? "error",
      p.title ?? res.statusText,
      p.detail ?? `The service answered ${res.status}.`,
      p.errors ?? [],
    );
    if (res.status === 401 && !path.startsWith("/portal/api/session")) {
      csrfToken = null;
      window.dispatchEvent(new CustomEvent(sessionEndedEvent, { detail: problem }));
    }
    throw problem;
  }
  return payload;
}

export const session = {
  get expires() {
    return expires;
  },
  async signIn(adminToken: string) {
    const s = await api("POST", "/portal/api/session", { body: { adminToken } });
    ({ csrfToken, expires } = s);
  },
  /** After a reload: the cookie may still be valid; fetch the CSRF token that goes with it. */
  async resume(): Promise<boolean> {
    try {
      const s = await api("GET", "/portal/api/session");
      ({ csrfToken, expires } = s);
      return true;
    } catch (error) {
      if (error instanceof ApiProblem && error.status === 401) return false;
      throw error;
    }
  },
  async signOut() {
    try {
      await api("DELETE", "/portal/api/session");
    } finally {
      csrfToken = null;
      expires = null;
    }
  },
};
