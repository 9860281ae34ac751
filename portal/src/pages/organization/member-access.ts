// A member's ways in: their portal sessions and personal API tokens. The tables are shared with "Your account" (the
// member's own); `ap-member-access` is an owner's view of another member's, opened from the Members page, where a
// lost laptop's session is ended and a leaked token revoked (each write in the audit trail, naming the member).
import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import type { Schemas } from "../../../../shared/api/operations";
import { api, ok } from "../../api";
import { dataTable, actionsColumn, actionsCell } from "../../parts";
import { ActionElement, formatDateTime, loadingView, notify, problemView } from "../../ui";

export type Session = Schemas["PortalSessionInfo"];
export type ApiToken = Schemas["ApiToken"];

/** How the session's member proved who they are, as the portal names it. */
export const credentialLabels: Record<Session["credential"], string> = {
  "admin-token": "Admin token",
  "email-link": "Sign-in link",
  passkey: "Passkey",
  sso: "Single sign-on",
  api_token: "API token",
};

/** Sessions in force; `end` ends one (not offered for the one this page runs in: signing out does that). */
export function sessionsTable(sessions: Session[], end: (session: Session) => void, busy: boolean) {
  if (sessions.length === 0) return html`<p>No sessions in force.</p>`;
  return dataTable(
    "Sessions",
    ["Signed in with", "From", "Since", "Until", actionsColumn],
    sessions.map((s) => {
      const opened = `${formatDateTime(s.created)}${s.address ? ` from ${s.address}` : ""}`;
      return html`<tr>
        <td data-label="Signed in with">${credentialLabels[s.credential]}</td>
        <td data-label="From">${s.address ?? html`<span class="muted">Unknown</span>`}</td>
        <td data-label="Since">${formatDateTime(s.created)}</td>
        <td data-label="Until">${formatDateTime(s.expires)}</td>
        ${s.current
          ? html`<td data-label="Actions" class="end"><span class="muted">This session</span></td>`
          : actionsCell({ label: "End", name: `End session opened ${opened}`, danger: true, disabled: busy, onClick: () => end(s) })}
      </tr>`;
    }),
  );
}

/** Personal API tokens not revoked; `revoke` revokes one. */
export function tokensTable(tokens: ApiToken[], revoke: (token: ApiToken) => void, busy: boolean) {
  if (tokens.length === 0) return html`<p>No API tokens.</p>`;
  return dataTable(
    "API tokens",
    ["Name", "Scopes", "Expires", actionsColumn],
    tokens.map(
      (t) => html`<tr>
        <td data-label="Name">${t.name}</td>
        <td data-label="Scopes">${t.scopes.join(", ")}</td>
        <td data-label="Expires">${formatDateTime(t.expires)}</td>
        ${actionsCell({ label: "Revoke", name: `Revoke API token ${t.name}`, danger: true, disabled: busy, onClick: () => revoke(t) })}
      </tr>`,
    ),
  );
}

/** Asks before a token is revoked: calls with it are refused from then on. */
export const confirmRevoke = (token: ApiToken) => confirm(`Revoke the API token “${token.name}”? Calls with it will be refused.`);

@customElement("ap-member-access")
export class MemberAccess extends ActionElement {
  @property({ attribute: false }) member!: Schemas["Member"];
  @state() private sessions: Session[] | null = null;
  @state() private tokens: ApiToken[] = [];
  @state() private loadError: unknown = null;

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private get path() {
    return { memberId: this.member.id };
  }

  private async load() {
    try {
      const params = { path: this.path };
      this.sessions = (await ok(api.GET("/admin/v1/members/{memberId}/sessions", { params }))).items;
      this.tokens = (await ok(api.GET("/admin/v1/members/{memberId}/api-tokens", { params }))).items;
    } catch (error) {
      this.loadError = error;
    }
  }

  private async act(action: () => Promise<unknown>, done: string) {
    if (await this.run(async () => void (await action()))) {
      notify(done);
      await this.load();
    }
  }

  private endSession(session: Session) {
    const path = { ...this.path, sessionId: session.id };
    return this.act(() => ok(api.DELETE("/admin/v1/members/{memberId}/sessions/{sessionId}", { params: { path } })), "The session has ended.");
  }

  private endAll() {
    return this.act(() => ok(api.DELETE("/admin/v1/members/{memberId}/sessions", { params: { path: this.path } })), `${this.member.email}'s sessions have ended.`);
  }

  private revoke(token: ApiToken) {
    if (!confirmRevoke(token)) return;
    const path = { ...this.path, tokenId: token.id };
    return this.act(() => ok(api.DELETE("/admin/v1/members/{memberId}/api-tokens/{tokenId}", { params: { path } })), "API token revoked.");
  }

  protected override render() {
    if (this.loadError) return problemView(this.loadError, "The sessions and tokens could not be loaded");
    if (this.sessions === null) return loadingView("the sessions and tokens");
    return html`${problemView(this.formError)}
      <h3>Sessions</h3>
      ${sessionsTable(this.sessions, (s) => void this.endSession(s), this.busy)}
      ${this.sessions.length > 1
        ? html`<button type="button" class="button small danger" ?disabled=${this.busy} @click=${() => void this.endAll()}>End all sessions</button>`
        : nothing}
      <h3>Personal API tokens</h3>
      ${tokensTable(this.tokens, (t) => void this.revoke(t), this.busy)}`;
  }
}
