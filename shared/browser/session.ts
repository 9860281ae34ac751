/**
 * Talking to Assent from a page: authorisation (three sources, in order), the bootstrap (one call before first
 * paint, with a fallback to the three calls of servers that predate it), and requests with a time limit.
 */
import type { JsonAnswer, JsonBody, PathOf, paths, Schemas } from "../api/operations";
import { storageKey } from "./storage-keys";
import type { Bootstrap, RegimeName } from "./types";

export type TokenProvider = () => string | Promise<string>;

export type AuthSource = {
  api: string;
  project: string;
  token?: string;
  identityId?: string;
  tokenProvider?: TokenProvider;
};

type Auth = { token: string; identityId: string };

/** An API answer that was not a success (with its problem document's members, where it had one), or no answer at all (status 0). */
export type RequestFailed = Error & { status: number; code?: string; [member: string]: unknown };

const failure = (status: number, message: string, problem?: Record<string, unknown>): RequestFailed => Object.assign(new Error(message), problem, { status });

const timeoutMs = 8000;

/** The identity a token is scoped to (its `idn` claim), read without verifying: the API verifies. */
const identityOf = (token: string): string | undefined => {
  try {
    return JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))).idn;
  } catch {
    return undefined;
  }
};

/**
 * A JSON request that gives up after 8 s. GETs carry no content-type (nor anything else that would need a CORS
 * preflight beyond the bearer token); a JSON body is sent as text/plain when it must stay a simple request.
 */
export async function send<T>(url: string, init: RequestInit = {}, plain = false): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      signal: AbortSignal.timeout?.(timeoutMs),
      headers: init.body ? { "content-type": plain ? "text/plain;charset=UTF-8" : "application/json", ...init.headers } : init.headers,
    });
  } catch (error) {
    throw failure(0, (error as Error).message);
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw failure(response.status, body.detail, body);
  return body as T;
}

/**
 * Runs `task` alone among this browser's tabs (Web Locks, where there are), so two tabs opened at once do not both
 * mint a visitor identity: the second one finds the first one's visitor key.
 */
const alone = <T>(name: string, task: () => Promise<T>): Promise<T> =>
  navigator.locks ? (navigator.locks.request(name, task) as Promise<T>) : task();

/** No bootstrap route (404), or a server that refuses its text/plain body before routing (415): one from before it. */
const fromBefore = (error: unknown) => [404, 415].includes((error as RequestFailed).status);

export type BootstrapRequest = { languages: string[]; regime?: RegimeName; gpc: boolean };

/** Holds the current token (one at a time, whoever asks) and gets a new one when the old is refused. */
export class Session {
  #auth?: Promise<Auth>;
  #source: AuthSource;
  #storageKey: string;

  constructor(source: AuthSource) {
    this.#source = source;
    this.#storageKey = storageKey(source.api, source.project);
  }

  get #anonymous() {
    return !this.#source.token && !this.#source.tokenProvider;
  }

  /** The visitor key of this project, kept so that a returning visitor gets a token for the same identity. */
  #visitorKey(value?: string): string | undefined {
    try {
      if (!value) return localStorage.getItem(this.#storageKey) ?? undefined;
      localStorage.setItem(this.#storageKey, value);
    } catch {
      // Storage blocked (private mode, sandbox): the visitor simply comes back as a new identity.
    }
  }

  /**
   * The visitor key, also from another tab that minted it this moment. Chromium hands a localStorage write to other
   * tabs' processes without ordering it against Web Locks, so the tab granted the lock next may not see the key yet;
   * the lock manager is one for all tabs, so the minting tab also holds a lock named after the key while it lives.
   */
  async #knownKey(): Promise<string | undefined> {
    const carrier = `${this.#storageKey} `;
    return this.#visitorKey() ?? (await navigator.locks?.query())?.held!.find((lock) => lock.name!.startsWith(carrier))?.name!.slice(carrier.length);
  }

  #keep(minted: Schemas["VisitorToken"]): Auth {
    this.#visitorKey(minted.visitorKey);
    navigator.locks?.request(`${this.#storageKey} ${minted.visitorKey}`, { mode: "shared" }, () => new Promise(() => {}));
    return { token: minted.access_token, identityId: minted.identityId };
  }

  /** The URL of an API path as the generated `paths` name it, with this project filled in. */
  #url(path: keyof paths) {
    return this.#source.api + path.replace("{project_id}", encodeURIComponent(this.#source.project));
  }

  /** A visitor token (a first visit, or the same identity again with the stored key); callers hold the lock. */
  async #mint(): Promise<Auth> {
    return this.#keep(
      await send(this.#url("/browser/v1/projects/{project_id}/visitor-tokens"), {
        method: "POST",
        body: JSON.stringify({ visitorKey: await this.#knownKey() } satisfies Schemas["VisitorTokenInput"]),
      }),
    );
  }

  async #obtain(renew: boolean): Promise<Auth> {
    const { tokenProvider, token, identityId } = this.#source;
    if (!this.#anonymous) {
      // A static token cannot be renewed: once it is refused, the host has to hand over a new one.
      const value = tokenProvider ? await tokenProvider() : renew ? "" : token!;
      const id = identityId ?? identityOf(value);
      if (!value || !id) throw failure(401, "No token");
      return { token: value, identityId: id };
    }
    // An anonymous visitor: the page mints its own token, coming back as the same identity with its key.
    return alone(this.#storageKey, () => this.#mint());
  }

  /** The token in use; concurrent callers share one request for it, and a failed request is not kept. */
  current(renew = false): Promise<Auth> {
    if (renew || !this.#auth) {
      const pending = (this.#auth = this.#obtain(renew));
      pending.catch(() => {
        if (this.#auth === pending) this.#auth = undefined;
      });
    }
    return this.#auth;
  }

  /** Calls with the bearer token; on 401 it renews the token (once for all the calls that token failed) and retries. */
  async #authorised<T>(request: (auth: Auth) => Promise<T>): Promise<T> {
    const used = this.current();
    try {
      return await request(await used);
    } catch (error) {
      if ((error as RequestFailed).status !== 401) throw error;
      return request(await this.current(this.#auth === used));
    }
  }

  /** An authorised GET of a path of the API (`{project_id}` and `{identityId}` filled in), typed by its operation. */
  call<P extends PathOf<"GET">>(path: P): Promise<JsonAnswer<P, "GET">>;
  /** An authorised POST of `body` to a path of the API. */
  call<P extends PathOf<"POST">>(path: P, body: JsonBody<P, "POST">): Promise<JsonAnswer<P, "POST">>;
  call(path: keyof paths, body?: object) {
    return this.#authorised((auth) =>
      send(this.#url(path).replace("{identityId}", encodeURIComponent(auth.identityId)), {
        method: body && "POST",
        body: body && JSON.stringify(body),
        headers: { authorization: `Bearer ${auth.token}` },
      }),
    );
  }

  /**
   * Everything needed before first paint in one request. Anonymous visitors send it as a CORS simple request
   * (text/plain JSON, no headers) inside the cross-tab lock, since it may mint their identity.
   */
  async bootstrap(request: BootstrapRequest): Promise<Bootstrap> {
    const body = async (auth?: Auth) =>
      send<Bootstrap>(
        this.#url("/browser/v1/projects/{project_id}/bootstrap"),
        {
          method: "POST",
          body: JSON.stringify({
            visitorKey: auth ? undefined : await this.#knownKey(),
            languages: request.languages,
            regime: request.regime,
          } satisfies Schemas["BootstrapInput"]),
          headers: auth ? { authorization: `Bearer ${auth.token}` } : {},
        },
        true,
      );
    const answer = this.#anonymous
      ? await alone(this.#storageKey, async () => {
          try {
            const first = await body();
            if (first.token) this.#auth = Promise.resolve(this.#keep(first.token));
            return first;
          } catch (error) {
            if (!fromBefore(error)) throw error;
            // Minted while the lock is still held, as the bootstrap would have: another tab waits for the key.
            this.#auth = Promise.resolve(await this.#mint());
          }
        })
      : await this.#authorised(body).catch((error) => {
          if (!fromBefore(error)) throw error;
        });
    return answer ?? this.#legacy(request);
  }

  /** A server from before the bootstrap: one token, then configuration and state side by side, as one answer. */
  async #legacy(request: BootstrapRequest): Promise<Bootstrap> {
    const [configuration, state] = await Promise.all([
      this.call("/privacy/v1/configurations"),
      this.call("/privacy/v2/projects/{project_id}/identities/{identityId}/permission-state"),
    ]);
    return {
      regime: { name: "opt-in", gpc: request.gpc, gpcApplied: false },
      language: request.languages[0],
      configuration,
      fingerprint: configuration.purposes.map((p) => `${p.purposeId}@${p.version}`).join(),
      state,
      legacy: true,
    };
  }
}

/** One session per API, project and token source on a page, so that two elements share one identity. */
const sessions = new Map<string, Session>();
export function sessionFor(source: AuthSource): Session {
  if (source.token || source.tokenProvider) return new Session(source);
  const key = `${source.api} ${source.project}`;
  let session = sessions.get(key);
  if (!session) sessions.set(key, (session = new Session(source)));
  return session;
}
