import { html } from "lit";
import { customElement } from "lit/decorators.js";
import { api, ok } from "../api";
import { ActionElement, problemView } from "../ui";

/** What the portal says when the provider's redirect back failed (`/portal/#sso-error={code}`, worker/accounts/sso-routes.ts). */
export function ssoFailure(code: string): string {
  const reasons: Record<string, string> = {
    sso_state_invalid: "it was not started in this browser, was already used or took longer than 10 minutes. Start again.",
    sso_domain_mismatch: "the address you signed in with at your provider is not at a domain your organization bound to it.",
    sso_email_unverified: "your provider did not confirm your address is verified.",
    sso_member_elsewhere: "that address is a member of another organization.",
    sso_id_token_invalid: "your provider's answer did not verify.",
  };
  return `Single sign-on did not sign you in: ${reasons[code] ?? "your provider refused or could not be reached. Try again, or use a sign-in link."}`;
}

/**
 * The sign-in page's single sign-on: the work address's domain names the organization, whose OpenID Connect provider
 * the browser is sent to; it comes back signed in (worker/accounts/sso.ts, docs/portal.md#single-sign-on).
 */
@customElement("ap-sso-sign-in")
export class SsoSignIn extends ActionElement {
  private async submit(e: SubmitEvent) {
    e.preventDefault();
    const email = (e.target as HTMLFormElement).querySelector<HTMLInputElement>("#sso-email")!.value.trim();
    await this.run(async () => {
      const { authorizationUrl } = await ok(api.POST("/portal/api/sso/start", { body: { email } }));
      location.assign(authorizationUrl);
    });
  }

  protected override render() {
    return html`<form @submit=${this.submit} aria-labelledby="sso-title">
      <h2 id="sso-title">Single sign-on</h2>
      ${problemView(this.formError, "Single sign-on did not start")}
      <div class="field">
        <label for="sso-email">Work email</label>
        <input id="sso-email" name="email" type="email" required autocomplete="username" aria-describedby="sso-email-hint" />
        <span class="hint" id="sso-email-hint">Your organization's sign-in page opens when it has set up single sign-on for your address's domain.</span>
      </div>
      <button class="button" type="submit" ?disabled=${this.busy}>${this.busy ? "Opening your sign-in page…" : "Sign in with SSO"}</button>
    </form>`;
  }
}
