// The organization's members: who operates its projects and with which role (docs/security.md#roles). Owners invite,
// change roles, remove, and see and end a member's sessions and API tokens; every role that may read members sees the
// list. Removing a member ends their sessions and revokes their tokens.
import { html, nothing } from "lit";
import { customElement, state } from "lit/decorators.js";
import type { Schemas } from "../../../../shared/api/operations";
import { api, ok } from "../../api";
import { actionsCell, actionsColumn, confirmDialog, dataTable, formDialog, pageHead, textField } from "../../parts";
import "./member-access";
import { ActionElement, closeDialog, formatDate, formValues, loadingView, notify, problemView } from "../../ui";

type Member = Schemas["Member"];
type Role = Schemas["Role"];

/** The roles as the portal names them, in the order of what they may do (most first). */
export const roleLabels: Record<Role, string> = {
  owner: "Owner",
  admin: "Admin",
  editor: "Editor",
  request_handler: "Request handler",
  viewer: "Viewer",
};

const roleField = (id: string, value: Role = "viewer") => html`<div class="field">
  <label for=${id}>Role</label>
  <select id=${id} name="role">
    ${Object.entries(roleLabels).map(([role, label]) => html`<option value=${role} ?selected=${role === value}>${label}</option>`)}
  </select>
  <p class="hint">What the member may do in every project of the organization (docs/security.md#roles).</p>
</div>`;

@customElement("ap-members")
export class MembersPage extends ActionElement {
  @state() private members: Member[] | null = null;
  @state() private error: unknown = null;
  @state() private editing: Member | null = null;
  @state() private removing: Member | null = null;
  /** The member whose sessions and API tokens are shown. */
  @state() private inspecting: Member | null = null;

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.members = (await ok(api.GET("/admin/v1/members"))).items;
    } catch (error) {
      this.error = error;
    }
  }

  private invite(e: SubmitEvent) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const values = formValues(form);
    return this.run(async () => {
      await ok(api.POST("/admin/v1/members", { body: { email: values.email ?? "", name: values.name || undefined, role: values.role as Role } }));
      closeDialog(this, "invite-member");
      form.reset();
      notify(`Invitation sent to ${values.email}.`);
      await this.load();
    });
  }

  private saveRole(e: SubmitEvent) {
    e.preventDefault();
    const member = this.editing;
    if (!member) return;
    const role = formValues(e.target as HTMLFormElement).role as Role;
    return this.run(async () => {
      await ok(api.PUT("/admin/v1/members/{memberId}", { params: { path: { memberId: member.id } }, body: { role, projectRoles: member.projectRoles } }));
      closeDialog(this, "edit-member");
      notify(`${member.email} is now ${roleLabels[role].toLowerCase()}.`);
      await this.load();
    });
  }

  private removeMember() {
    const member = this.removing;
    if (!member) return;
    return this.run(async () => {
      await ok(api.DELETE("/admin/v1/members/{memberId}", { params: { path: { memberId: member.id } } }));
      closeDialog(this, "remove-member");
      notify(`${member.email} was removed; their sessions have ended.`);
      await this.load();
    });
  }

  protected override render() {
    return html`${pageHead(
        "Members",
        "The people who operate this organization's projects, each with a role; a project may give a member a different role.",
        html`<button type="button" class="button primary" @click=${() => this.openDialog("invite-member")}>Invite a member</button>`,
        { h1: true },
      )}
      ${problemView(this.error, "The members could not be loaded")} ${this.members === null && !this.error ? loadingView("the members") : nothing}
      ${problemView(this.editing || this.removing ? null : this.formError)}
      ${this.members?.length
        ? html`<div class="card">
            ${dataTable(
              "Members",
              ["Member", "Role", "Project roles", "Since", actionsColumn],
              this.members.map(
                (m) => html`<tr>
                  <td data-label="Member"><strong>${m.name ?? m.email}</strong>${m.name ? html`<br /><span class="muted small">${m.email}</span>` : nothing}</td>
                  <td data-label="Role">${roleLabels[m.role]}</td>
                  <td data-label="Project roles">
                    ${m.projectRoles.length
                      ? m.projectRoles.map((p) => html`<code class="small">${p.projectId}</code> ${roleLabels[p.role]}<br />`)
                      : html`<span class="muted">None</span>`}
                  </td>
                  <td data-label="Since">${formatDate(m.created)}</td>
                  ${actionsCell(
                    { label: "Role", name: `Change ${m.email}'s role`, onClick: () => ((this.editing = m), this.openDialog("edit-member")) },
                    { label: "Access", name: `Access of ${m.email}: sessions and API tokens`, onClick: () => ((this.inspecting = m), this.openDialog("member-access")) },
                    { label: "Remove", name: `Remove ${m.email}`, danger: true, onClick: () => ((this.removing = m), this.openDialog("remove-member")) },
                  )}
                </tr>`,
              ),
            )}
          </div>`
        : nothing}
      ${formDialog(this, "invite-member", {
        title: "Invite a member",
        error: this.formError,
        errorHeading: "The invitation was not sent",
        onSubmit: (e) => this.invite(e),
        action: { label: "Send invitation", disabled: this.busy },
        body: html`${textField("invite-email", "email", "E-mail address", "", { type: "email", required: true })}
          ${textField("invite-name", "name", "Name", "")} ${roleField("invite-role")}`,
      })}
      ${formDialog(
        this,
        "edit-member",
        this.editing && {
          title: html`Role of ${this.editing.email}`,
          error: this.formError,
          errorHeading: "The role was not changed",
          onSubmit: (e) => this.saveRole(e),
          action: { label: "Save role", disabled: this.busy },
          body: roleField("edit-role", this.editing.role),
        },
        () => (this.editing = null),
      )}
      <dialog id="member-access" aria-labelledby="member-access-title" @close=${() => (this.inspecting = null)}>
        ${this.inspecting
          ? html`<div class="dialog-body">
              <h2 id="member-access-title">Sessions and API tokens of ${this.inspecting.email}</h2>
              <ap-member-access .member=${this.inspecting}></ap-member-access>
              <div class="actions end"><button type="button" class="button" @click=${() => closeDialog(this, "member-access")}>Close</button></div>
            </div>`
          : nothing}
      </dialog>
      ${confirmDialog(
        this,
        "remove-member",
        this.removing && {
          title: html`Remove ${this.removing.email}?`,
          error: this.formError,
          errorHeading: "The member was not removed",
          body: html`<p>They lose access to every project of the organization at once, and their sessions end.</p>`,
          action: { label: "Remove member", danger: true, disabled: this.busy, onClick: () => void this.removeMember() },
        },
        () => (this.removing = null),
      )}`;
  }
}
