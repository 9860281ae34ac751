import { html } from "lit";
import { customElement, state } from "lit/decorators.js";
import { addPasskey, api, ok } from "../api";
import { ActionElement, formatDateTime, loadingView, notify, problemView } from "../ui";

type Passkey = { id: string; name: string; created: string; lastUsed: string | null };

/** The signed-in member's own page: their passkeys (add one, delete one). */
@customElement("ap-account")
export class Account extends ActionElement {
  @state() private passkeys: Passkey[] | null = null;
  @state() private loadError: unknown = null;

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.passkeys = (await ok(api.GET("/portal/api/passkeys"))).items;
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

  protected override render() {
    return html`<h1>Your account</h1>
      <section aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        <p class="muted">Sign in with your device's lock (fingerprint, face or PIN) instead of an emailed link.</p>
        ${this.loadError ? problemView(this.loadError) : this.passkeys === null ? loadingView("your passkeys") : this.renderList(this.passkeys)}
        ${problemView(this.formError)}
        <form @submit=${this.add}>
          <div class="field">
            <label for="passkey-name">Name of the new passkey</label>
            <input id="passkey-name" name="name" maxlength="100" placeholder="Work laptop" />
          </div>
          <button class="button primary" type="submit" ?disabled=${this.busy}>Add a passkey</button>
        </form>
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
