/** The privacy center's calls (worker/privacy-center/routes.ts) and the browser's own decisions (the widget's session). */
import type { JsonAnswer, Schemas } from "../../shared/api/operations";
import { send, sessionFor } from "../../shared/browser/session";
import { storageKey } from "../../shared/browser/storage-keys";

export type Page = Schemas["PrivacyCenterPage"];
export type Decision = Schemas["ReceiptedDecision"];
export type PersonRequest = Schemas["PrivacyCenterRequest"];
export type Person = JsonAnswer<"/browser/v1/projects/{project_id}/privacy-center/me", "GET">;
export type Channel = "email" | "sms";
export type Kind = PersonRequest["kind"];

export class CenterApi {
  #base: string;
  #token?: string;

  constructor(
    readonly api: string,
    readonly project: string,
  ) {
    this.#base = `${api}/browser/v1/projects/${encodeURIComponent(project)}/privacy-center`;
  }

  #json = (body: object) => ({ method: "POST", body: JSON.stringify(body), headers: this.#auth() });
  #auth = (): Record<string, string> => (this.#token ? { authorization: `Bearer ${this.#token}` } : {});

  page = (languages: readonly string[]) => send<Page>(`${this.#base}?languages=${encodeURIComponent(languages.join(","))}`);
  /** `challenge`: a Turnstile token, when an earlier answer asked for one (403 `challenge_required`). */
  requestCode = (channel: Channel, address: string, challenge?: string) => send(`${this.#base}/codes`, this.#json({ channel, address, challenge }));

  async verify(channel: Channel, address: string, code: string, challenge?: string) {
    const { sessionToken } = await send<{ sessionToken: string }>(`${this.#base}/sessions`, this.#json({ channel, address, code, challenge }));
    this.#token = sessionToken;
  }

  person = () => send<Person>(`${this.#base}/me`, { headers: this.#auth() });
  file = (kind: Kind, purposes: string[]) => send<PersonRequest>(`${this.#base}/requests`, this.#json(kind === "objection" ? { kind, purposes } : { kind }));

  /**
   * The decisions this browser made through the widget: only when the widget left its visitor key here (nothing is
   * minted for a browser that never chose), with the widget's own session so both speak as the same identity.
   */
  async browserDecisions(): Promise<Decision[] | undefined> {
    try {
      if (!localStorage.getItem(storageKey(this.api, this.project))) return undefined;
    } catch {
      return undefined;
    }
    const { token, identityId } = await sessionFor({ api: this.api, project: this.project }).current();
    const path = `/privacy/v2/projects/${encodeURIComponent(this.project)}/identities/${encodeURIComponent(identityId)}/decisions`;
    const { items } = await send<{ items: Decision[] }>(this.api + path, { headers: { authorization: `Bearer ${token}` } });
    return items;
  }
}
