// A webhook's signing secret: shown once when the webhook is created or its secret rotated, and the rotation
// dialog, which asks how long the previous secret keeps signing.
import { html, nothing } from "lit";
import type { Schemas } from "../../../../shared/api/operations";
import { formDialog, secretDialog } from "../../parts";
import { formatDateTime } from "../../ui";

type Webhook = Schemas["Webhook"];
export type ShownSecret = { url: string; secret: string; rotated: boolean; previousSecretExpires: string | null };

/** Grace periods offered on rotation; the API's default (24 hours) is preselected. */
const gracePeriods = [
  { seconds: 3600, label: "1 hour" },
  { seconds: 86_400, label: "24 hours" },
  { seconds: 7 * 86_400, label: "7 days" },
  { seconds: 0, label: "No time: it stops signing at once" },
];

/** The grace period the rotation dialog's form asks for. */
export const gracePeriodOf = (form: HTMLFormElement) => Number(new FormData(form).get("gracePeriodSeconds"));

type RotateState = { error: unknown; busy: boolean; onSubmit: (e: SubmitEvent) => void };

export function rotateDialog(root: HTMLElement, id: string, w: Webhook | null, { error, busy, onSubmit }: RotateState) {
  return formDialog(
    root,
    id,
    w && {
      title: html`Rotate the signing secret of <code>${w.url}</code>?`,
      error,
      errorHeading: "The secret was not rotated",
      onSubmit,
      action: { label: "Rotate secret", disabled: busy },
      body: html`<p>
          A new secret is shown once. During the grace period both secrets sign every delivery (two <code>v1,</code>
          signatures), so your endpoint can switch to the new secret at any moment in that window.
        </p>
        <div class="field">
          <label for="rotate-grace">Previous secret keeps signing for</label>
          <select id="rotate-grace" name="gracePeriodSeconds">
            ${gracePeriods.map((g) => html`<option value=${g.seconds} ?selected=${g.seconds === 86_400}>${g.label}</option>`)}
          </select>
        </div>`,
    },
  );
}

/** The secret shown once; `onClose` must drop it from the page's state. */
export function shownSecretDialog(root: HTMLElement, id: string, s: ShownSecret | null, onClose: () => void) {
  return secretDialog(
    root,
    id,
    s && {
      title: s.rotated ? "New signing secret" : "Webhook created",
      note: html`Verify each delivery's <code>webhook-signature</code> with it (Standard Webhooks).
      ${s.rotated
        ? s.previousSecretExpires
          ? `The previous secret keeps signing until ${formatDateTime(s.previousSecretExpires)}; after that only this one does.`
          : "The previous secret no longer signs."
        : nothing}`,
      facts: [["Endpoint", html`<code>${s.url}</code>`]],
      label: "Signing secret",
      secret: s.secret,
    },
    onClose,
  );
}
