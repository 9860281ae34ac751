/** Talking to Assent from a page: authorisation (three sources, in order) and requests with a time limit. */

export type TokenProvider = () => string | Promise<string>;

export type AuthSource = {
  api: string;
  project: string;
  token?: string;
  identityId?: string;
  tokenProvider?: TokenProvider;
};

type Auth = { token: string; identityId: string };

/** An API answer that was not a success, or no answer at all (status 0). */
export type RequestFailed = Error & { status: number };

const failure = (status: number, message: string): RequestFailed => Object.assign(new Error(message), { status });

const timeoutMs = 8000;

/** The identity a token is scoped to (its `idn` claim), read without verifying: the API verifies. */
const identityOf = (token: string): string | undefined => {
  try {
    return JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))).idn;
  } catch {
    return undefined;
  }
};

/** The visitor key of this project, kept so that a returning visitor gets a token for the same identity. */
function visitorKey(source: AuthSource, value?: string): string | undefined {
  try {
    const key = `assent:${source.api}:${source.project}`;
    if (!value) return localStorage.getItem(key) ?? undefined;
    localStorage.setItem(key, value);
  } catch {
    // Storage blocked (private mode, sandbox): the visitor simply comes back as a new identity.
  }
}

/** A JSON request that gives up after 8 s (where the browser has AbortSignal.timeout: Safari 16+, Chrome 103+). */
export async function send<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      signal: AbortSignal.timeout?.(timeoutMs),
      headers: { "content-type": "application/json", ...init.headers },
    });
  } catch (error) {
    throw failure(0, (error as Error).message);
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw failure(response.status, body.detail);
  return body as T;
}

/** Holds the current token and gets a new one when the old is refused (expired, revoked). */
export class Session {
  #auth?: Auth;
  #source: AuthSource;

  constructor(source: AuthSource) {
    this.#source = source;
  }

  async #obtain(renew: boolean): Promise<Auth> {
    const { api, project, tokenProvider, token, identityId } = this.#source;
    if (tokenProvider || token) {
      // A static token cannot be renewed: once it is refused, the host has to hand over a new one.
      const value = tokenProvider ? await tokenProvider() : renew ? "" : token!;
      const id = identityId ?? identityOf(value);
      if (!value || !id) throw failure(401, "No token");
      return { token: value, identityId: id };
    }
    // An anonymous visitor: the page mints its own token, coming back as the same identity with its key.
    const minted = await send<{ access_token: string; identityId: string; visitorKey: string }>(
      `${api}/browser/v1/projects/${encodeURIComponent(project)}/visitor-tokens`,
      { method: "POST", body: JSON.stringify({ visitorKey: visitorKey(this.#source) }) },
    );
    visitorKey(this.#source, minted.visitorKey);
    return { token: minted.access_token, identityId: minted.identityId };
  }

  async current(): Promise<Auth> {
    return (this.#auth ??= await this.#obtain(false));
  }

  /**
   * An authorised call to a path of the API (`{identity}` in it becomes the identity's id); on 401 it renews
   * the token once and tries again.
   */
  async call<T>(path: string, init: RequestInit = {}, retried = false): Promise<T> {
    const auth = await this.current();
    try {
      return await send<T>(this.#source.api + path.replace("{identity}", encodeURIComponent(auth.identityId)), {
        ...init,
        headers: { authorization: `Bearer ${auth.token}` },
      });
    } catch (error) {
      if (retried || (error as RequestFailed).status !== 401) throw error;
      this.#auth = await this.#obtain(true);
      return this.call(path, init, true);
    }
  }
}
