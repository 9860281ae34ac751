import { html, nothing } from "lit";
import { customElement, state } from "lit/decorators.js";
import { session } from "../api";
import { LightElement, problemView } from "../ui";

/** "Sign in with a passkey" on the sign-in page: the browser offers this service's passkeys and asks for the unlock. */
@customElement("ap-passkey-sign-in")
export class PasskeySignIn extends LightElement {
  @state() private error: unknown = null;
  @state() private busy = false;

  private async signIn() {
    this.busy = true;
    this.error = null;
    try {
      await session.signInWithPasskey();
      this.dispatchEvent(new CustomEvent("signed-in", { bubbles: true }));
    } catch (error) {
      // Closing the browser's dialog is a choice, not a failure (WebAuthn's NotAllowedError).
      this.error = error instanceof Error && error.name === "NotAllowedError" ? null : error;
    } finally {
      this.busy = false;
    }
  }

  protected override render() {
    if (!("PublicKeyCredential" in window)) return nothing;
    // After the admin-token form, so the keyboard reaches that first (test/e2e/portal.test.ts).
    return html`<p class="muted">or</p>
      ${problemView(this.error, "Passkey sign-in failed")}
      <button class="button" type="button" @click=${this.signIn} ?disabled=${this.busy}>
        ${this.busy ? "Waiting for your passkey…" : "Sign in with a passkey"}
      </button>`;
  }
}
