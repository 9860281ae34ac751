/** The privacy center's calls (worker/privacy-center/routes.ts) and the browser's own decisions (the widget's session). */
import type { JsonAnswer, JsonBody, PathOf, Schemas } from "../../shared/api/operations";
import { send, sessionFor } from "../../shared/browser/session";
import { storageKey } from "../../shared/browser/storage-keys";

export type Page = Schemas["PrivacyCenterPage"];
export type Decision = Schemas["ReceiptedDecision"];
export type PersonRequest = Schemas["PrivacyCenterRequest"];
export type Person = JsonAnswer<"/browser/v1/projects/{project_id}/privacy-center/me", "GET">;
export type Channel = Schemas["PrivacyCenterCodeRequest"]["channel"];
export type Kind = PersonRequest["kind"];

type CenterPath<M extends "GET" | "POST"> = Extract<PathOf<M>, `/browser/v1/projects/{project_id}/privacy-center${string}`>;

export class CenterApi {
  #token?: string;

  constructor(
    readonly api: string,
    readonly project: string,
  ) {}

  /** The URL of one of the privacy center's paths, as the generated `paths` name it, with this project filled in. */
  #url = (path: CenterPath<"GET"> | CenterPath<"POST">, query = "") => this.api + path.replace("{project_id}", encodeURIComponent(this.project)) + query;
  #auth = (): Record<string, string> => (this.#token ? { authorization: `Bearer ${this.#token}` } : {});
  #get = <P extends CenterPath<"GET">>(path: P, query?: string) => send<JsonAnswer<P, "GET">>(this.#url(path, query), { headers: this.#auth() });
  #post = <P extends CenterPath<"POST">>(path: P, body: JsonBody<P, "POST">) =>
    send<JsonAnswer<P, "POST">>(this.#url(path), { method: "POST", body: JSON.stringify(body), headers: this.#auth() });

  page = (languages: readonly string[]) => this.#get("/browser/v1/projects/{project_id}/privacy-center", `?languages=${encodeURIComponent(languages.join(","))}`);
  /** `challenge`: a Turnstile token, when an earlier answer asked for one (403 `challenge_required`). */
  requestCode = (channel: Channel, address: string, challenge?: string) =>
    this.#post("/browser/v1/projects/{project_id}/privacy-center/codes", { channel, address, challenge });

  async verify(channel: Channel, address: string, code: string, challenge?: string) {
    const { sessionToken } = await this.#post("/browser/v1/projects/{project_id}/privacy-center/sessions", { channel, address, code, challenge });
    this.#token = sessionToken;
  }

  person = (): Promise<Person> => this.#get("/browser/v1/projects/{project_id}/privacy-center/me");
  file = (kind: Kind, purposes: string[]): Promise<PersonRequest> =>
    this.#post("/browser/v1/projects/{project_id}/privacy-center/requests", kind === "objection" ? { kind, purposes } : { kind });

  /**
   * The decisions this browser made through the widget: only when the widget left its visitor key here (nothing is
   * minted for a browser that never chose), through the widget's own session, so both speak as the same identity.
   */
  async browserDecisions(): Promise<Decision[] | undefined> {
    try {
      if (!localStorage.getItem(storageKey(this.api, this.project))) return undefined;
    } catch {
      return undefined;
    }
    const { items } = await sessionFor({ api: this.api, project: this.project }).call("/privacy/v2/projects/{project_id}/identities/{identityId}/decisions");
    return items;
  }
}
