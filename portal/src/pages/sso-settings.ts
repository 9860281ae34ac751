import { html, nothing } from "lit";
import { customElement, state } from "lit/decorators.js";
import type { Schemas } from "../../../shared/api/operations";
import { api, ApiProblem, ok } from "../api";
import { ActionElement, formatDateTime, loadingView, notify, problemView } from "../ui";

type Configuration = Schemas["SsoConfiguration"];
const defaultRoles = [
  { id: "viewer", label: "Viewer" },
  { id: "editor", label: "Editor" },
  { id: "request_handler", label: "Request handler" },
  { id: "admin", label: "Admin" },
] as const;

/**
 * The organization's single sign-on, for owners (others are refused the configuration, and see nothing here): the
 * OpenID Connect provider, the client, the bound email domains and the role of members made at their first sign-in.
 */
@customElement("ap-sso-settings")
export class SsoSettings extends ActionElement {
  /** undefined: loading; null: none yet; "hidden": not an owner. */
  @state() private configuration: Configuration | null | "hidden" | undefined = undefined;
  @state() private loadError: unknown = null;

  /** Read when the section is opened, not with the projects page: most visits never need it, and an organization
   * without single sign-on answers 404, which a browser reports in its console. */
  private opened(e: Event) {
    if ((e.target as HTMLDetailsElement).open && this.configuration === undefined) this.load();
  }

  private load() {
    void ok(api.GET("/admin/v1/sso")).then(
      (configuration) => (this.configuration = configuration),
      (error) => {
        if (error instanceof ApiProblem && error.status === 404) this.configuration = null;
        else if (error instanceof ApiProblem && error.status === 403) this.configuration = "hidden";
        else this.loadError = error;
      },
    );
  }

  private async save(e: SubmitEvent) {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const body = {
      issuer: text("sso-issuer"),
      clientId: text("sso-client-id"),
      ...(text("sso-client-secret") ? { clientSecret: text("sso-client-secret") } : {}),
      domains: text("sso-domains").split(/[\s,]+/).filter(Boolean),
      defaultRole: text("sso-default-role") as Configuration["defaultRole"],
    };
    if (await this.run(async () => {
      this.configuration = await ok(api.PUT("/admin/v1/sso", { body }));
    })) notify("Single sign-on saved.");
  }

  protected override render() {
    return html`<details class="card" @toggle=${this.opened}>
      <summary>Single sign-on</summary>
      ${this.section()}
    </details>`;
  }

  private section() {
    if (this.configuration === "hidden") return html`<p class="muted">Only the organization's owners configure single sign-on.</p>`;
    if (this.loadError) return problemView(this.loadError, "The single sign-on settings could not be loaded");
    if (this.configuration === undefined) return loadingView("the single sign-on settings");
    const c = this.configuration;
    const redirectUri = `${location.origin}/portal/api/sso/callback`;
    return html`<form @submit=${this.save} novalidate aria-labelledby="sso-settings-title">
      <h2 id="sso-settings-title">Single sign-on</h2>
      <p>
        People with an address at your domains sign in through your OpenID Connect provider (Okta, Microsoft Entra ID,
        Google Workspace, Keycloak…) and become members at their first sign-in. Register <code>${redirectUri}</code> as the
        client's redirect URI. ${c ? html`Last changed ${formatDateTime(c.updated)}.` : nothing}
      </p>
      ${problemView(this.formError, "Single sign-on was not saved")}
      <div class="field">
        <label for="sso-issuer">Issuer URL</label>
        <input id="sso-issuer" name="sso-issuer" type="url" required spellcheck="false" .value=${c?.issuer ?? ""} />
      </div>
      <div class="field">
        <label for="sso-client-id">Client ID</label>
        <input id="sso-client-id" name="sso-client-id" type="text" required spellcheck="false" autocomplete="off" .value=${c?.clientId ?? ""} />
      </div>
      <div class="field">
        <label for="sso-client-secret">Client secret</label>
        <input id="sso-client-secret" name="sso-client-secret" type="password" autocomplete="off" aria-describedby="sso-client-secret-hint" ?required=${!c} />
        <span class="hint" id="sso-client-secret-hint">${c ? "Stored encrypted; leave empty to keep it." : "Stored encrypted and never shown again."}</span>
      </div>
      <div class="field">
        <label for="sso-domains">Email domains</label>
        <input id="sso-domains" name="sso-domains" type="text" required spellcheck="false" aria-describedby="sso-domains-hint" .value=${c?.domains.join(", ") ?? ""} />
        <span class="hint" id="sso-domains-hint">Comma-separated, such as example.com. Only addresses at these domains sign in this way.</span>
      </div>
      <div class="field">
        <label for="sso-default-role">Role of new members</label>
        <select id="sso-default-role" name="sso-default-role">
          ${defaultRoles.map((r) => html`<option value=${r.id} ?selected=${(c?.defaultRole ?? "viewer") === r.id}>${r.label}</option>`)}
        </select>
      </div>
      <div class="actions"><button class="button primary" type="submit" ?disabled=${this.busy}>Save single sign-on</button></div>
    </form>`;
  }
}
