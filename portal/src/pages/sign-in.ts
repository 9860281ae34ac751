import { html } from "lit";
import { customElement, state } from "lit/decorators.js";
import { session } from "../api";
import { LightElement, problemView } from "../ui";
import "./passkey-sign-in";
import "./sso-sign-in";

@customElement("ap-sign-in")
export class SignIn extends LightElement {
  @state() private error: unknown = null;
  @state() private busy = false;

  private async submit(e: SubmitEvent) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const input = form.querySelector<HTMLInputElement>("#admin-token")!;
    this.busy = true;
    this.error = null;
    try {
      await session.signIn(input.value.trim());
      input.value = "";
      this.dispatchEvent(new CustomEvent("signed-in", { bubbles: true }));
    } catch (error) {
      this.error = error;
      input.focus();
    } finally {
      this.busy = false;
    }
  }

  protected override render() {
    return html`<main class="signin" id="main">
      <div class="card">
        <div class="brand">
          <svg class="brand-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <rect width="32" height="32" rx="7" fill="#2f45c5"></rect>
            <path d="M9 16.5l4.5 4.5L23 11.5" stroke="#fff" stroke-width="3.2" fill="none" stroke-linecap="round" stroke-linejoin="round"></path>
          </svg>
          <span>Assent <small>Portal</small></span>
        </div>
        <h1>Sign in</h1>
        <p class="muted">Manage projects, API clients, what data subjects consent to, and their privacy requests.</p>
        ${problemView(this.error, "Sign-in failed")}
        <form @submit=${this.submit}>
          <div class="field">
            <label for="admin-token">Admin token</label>
            <input id="admin-token" name="adminToken" type="password" required autocomplete="off" spellcheck="false" aria-describedby="admin-token-hint" />
            <span class="hint" id="admin-token-hint">
              The service's <code>ADMIN_TOKEN</code>. It is exchanged for a session cookie valid for one hour and is not
              stored in this browser.
            </span>
          </div>
          <button class="button primary" type="submit" ?disabled=${this.busy}>${this.busy ? "Signing in…" : "Sign in"}</button>
        </form>
        <ap-passkey-sign-in></ap-passkey-sign-in>
        <ap-sso-sign-in></ap-sso-sign-in>
      </div>
    </main>`;
  }
}
