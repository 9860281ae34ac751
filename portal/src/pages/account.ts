import { html } from "lit";
import { customElement, state } from "lit/decorators.js";
import { addPasskey, api, ok } from "../api";
import { ActionElement, copyToClipboard, formatDateTime, loadingView, notify, problemView } from "../ui";
import type { paths } from "../../../shared/api/operations";
import { confirmRevoke, sessionsTable, tokensTable, type ApiToken, type Session } from "./organization/member-access";

type Passkey = { id: string; name: string; created: string; lastUsed: string | null };
type TokenScope = paths["/portal/api/api-tokens"]["post"]["requestBody"]["content"]["application/json"]["scopes"][number];

/** Scopes a token may ask for, as a member usually wants them; the API refuses any their role lacks (403). */
const tokenScopes: TokenScope[] = [
  "projects:read", "config:read", "config:write", "blocking:write", "scans:read", "scans:write", "requests:read",
  "requests:manage", "identities:read", "identities:export", "clients:read", "clients:manage", "members:read", "audit-trail:read",
];

/**
 * The signed-in member's own page: their passkeys (add one, delete one), personal API tokens (make one, revoke one)
 * and sessions (end one opened elsewhere).
 */
@customElement("ap-account")
export class Account extends ActionElement {
  @state() private passkeys: Passkey[] | null = null;
  @state() private loadError: unknown = null;
  @state() private tokens: ApiToken[] = [];
  @state() private sessions: Session[] = [];
  /** A token just made: shown this once. */
  @state() private madeToken = "";

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.passkeys = (await ok(api.GET("/portal/api/passkeys"))).items;
      this.tokens = (await ok(api.GET("/portal/api/api-tokens"))).items;
      this.sessions = (await ok(api.GET("/portal/api/sessions"))).items;
    } catch (error) {
      this.loadError = error;
    }
  }

  private async add(e: SubmitEvent) {
    e.preventDefault();
    const input = (e.target as HTMLFormElement).querySelector<HTMLInputElement>("#passkey-name")!;
    if (await this.run(async () => void (await addPasskey(input.value.trim() || "Passkey")))) {
      input.value = "";
      notify("Passkey added. You can sign in with it from now on.");
      await this.load();
    }
  }

  private async deletePasskey(passkey: Passkey) {
    if (!confirm(`Delete the passkey “${passkey.name}”? It will no longer sign you in.`)) return;
    const path = { passkeyId: passkey.id };
    if (await this.run(async () => void (await ok(api.DELETE("/portal/api/passkeys/{passkeyId}", { params: { path } }))))) {
      notify("Passkey deleted.");
      await this.load();
    }
  }

  private async makeToken(e: SubmitEvent) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const name = form.querySelector<HTMLInputElement>("#token-name")!.value.trim();
    const expiresInDays = Number(form.querySelector<HTMLInputElement>("#token-days")!.value);
    const scopes = Array.from(form.querySelector<HTMLSelectElement>("#token-scopes")!.selectedOptions, (o) => o.value as TokenScope);
    if (await this.run(async () => void (this.madeToken = (await ok(api.POST("/portal/api/api-tokens", { body: { name, scopes, expiresInDays } }))).token))) {
      form.reset();
      await this.load();
    }
  }

  private async endSession(session: Session) {
    const path = { sessionId: session.id };
    if (await this.run(async () => void (await ok(api.DELETE("/portal/api/sessions/{sessionId}", { params: { path } }))))) {
      notify("The session has ended.");
      await this.load();
    }
  }

  private async revokeToken(token: ApiToken) {
    if (!confirmRevoke(token)) return;
    const path = { tokenId: token.id };
    if (await this.run(async () => void (await ok(api.DELETE("/portal/api/api-tokens/{tokenId}", { params: { path } }))))) {
      notify("API token revoked.");
      await this.load();
    }
  }

  protected override render() {
    return html`<h1>Your account</h1>
      ${problemView(this.formError)}
      <section aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        <p class="muted">Sign in with your device's lock (fingerprint, face or PIN) instead of an emailed link.</p>
        ${this.loadError ? problemView(this.loadError) : this.passkeys === null ? loadingView("your passkeys") : this.renderList(this.passkeys)}
        <form @submit=${this.add}>
          <div class="field">
            <label for="passkey-name">Name of the new passkey</label>
            <input id="passkey-name" name="name" maxlength="100" placeholder="Work laptop" />
          </div>
          <button class="button primary" type="submit" ?disabled=${this.busy}>Add a passkey</button>
        </form>
      </section>
      <section aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">Personal API tokens</h2>
        <p class="muted">Call the API as yourself (<code>Authorization: Bearer …</code>) with your rights or fewer, until the token expires.</p>
        ${this.madeToken
          ? html`<div class="card" role="status">
              <p>Your new token, shown this once: <code>${this.madeToken}</code></p>
              <button class="button small" type="button" @click=${() => copyToClipboard(this.madeToken, "API token")}>Copy</button>
            </div>`
          : ""}
        ${tokensTable(this.tokens, (t) => void this.revokeToken(t), this.busy)}
        <form @submit=${this.makeToken}>
          <div class="field">
            <label for="token-name">Name</label>
            <input id="token-name" name="name" required maxlength="100" placeholder="Deploy pipeline" />
          </div>
          <div class="field">
            <label for="token-scopes">Scopes</label>
            <select id="token-scopes" name="scopes" multiple required size="6">
              ${tokenScopes.map((scope) => html`<option value=${scope}>${scope}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="token-days">Expires after (days)</label>
            <input id="token-days" name="expiresInDays" type="number" min="1" max="366" value="30" required />
          </div>
          <button class="button" type="submit" ?disabled=${this.busy}>Make a token</button>
        </form>
      </section>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sessions</h2>
        <p class="muted">Where you are signed in to the portal. End one you do not recognise, or left open elsewhere.</p>
        ${sessionsTable(this.sessions, (s) => void this.endSession(s), this.busy)}
      </section>`;
  }

  private renderList(passkeys: Passkey[]) {
    if (passkeys.length === 0) return html`<p>No passkeys yet.</p>`;
    return html`<div class="table-wrap"><table>
      <thead><tr><th scope="col">Name</th><th scope="col">Added</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>
        ${passkeys.map(
          (p) => html`<tr>
            <td>${p.name}</td>
            <td>${formatDateTime(p.created)}</td>
            <td>${p.lastUsed ? formatDateTime(p.lastUsed) : "Never"}</td>
            <td><button class="button small danger" type="button" @click=${() => this.deletePasskey(p)} ?disabled=${this.busy}>Delete</button></td>
          </tr>`,
        )}
      </tbody>
    </table></div>`;
  }
}
