import { html, nothing } from "lit";
import { customElement, state } from "lit/decorators.js";
import { api, ApiProblem, ok, session, sessionEndedEvent } from "./api";
import "./pages/sign-in";
import { ssoFailure } from "./pages/sso-sign-in";
import { accountHref, base, navigate, navigateEvent, organizationPages, parseRoute, projectHref, sections, type Route } from "./router";
import type { Project } from "./types";
import { formatDateTime, LightElement, loadingView, problemView, toastEvent } from "./ui";

/** The signed-in pages' chunk (signed-in-pages.ts), fetched once. */
const signedInPages = () => import("./signed-in-pages");

const brandMark = html`<svg class="brand-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
  <rect width="32" height="32" rx="7" fill="#2f45c5"></rect>
  <path d="M9 16.5l4.5 4.5L23 11.5" stroke="#fff" stroke-width="3.2" fill="none" stroke-linecap="round" stroke-linejoin="round"></path>
</svg>`;

@customElement("assent-portal")
export class AssentPortal extends LightElement {
  @state() private signedIn: boolean | null = null;
  @state() private route: Route = parseRoute(location.pathname);
  @state() private project: Project | null = null;
  @state() private projectError: unknown = null;
  @state() private toasts: { id: number; text: string }[] = [];
  @state() private sessionNote = "";
  private toastId = 0;
  private focusAfterRender = false;

  override connectedCallback() {
    super.connectedCallback();
    window.addEventListener("popstate", this.onRouteChange);
    window.addEventListener(navigateEvent, this.onRouteChange);
    window.addEventListener(sessionEndedEvent, this.onSessionEnded);
    window.addEventListener(toastEvent, this.onToast as EventListener);
    this.addEventListener("click", this.onLinkClick);
    this.addEventListener("project-changed", this.onProjectChanged as EventListener);
    void this.start();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener("popstate", this.onRouteChange);
    window.removeEventListener(navigateEvent, this.onRouteChange);
    window.removeEventListener(sessionEndedEvent, this.onSessionEnded);
    window.removeEventListener(toastEvent, this.onToast as EventListener);
  }

  /**
   * Resumes the session when the request for this page carried a session cookie (the Worker marks the shell with
   * a `session` attribute; the cookie itself is HttpOnly); without one there is nothing to ask the API.
   */
  private async start() {
    // A sign-in link (`/portal/#sign-in=…`): its secret is taken off the address at once, then spent.
    const link = /^#sign-in=(sil_[A-Za-z0-9_-]+)$/.exec(location.hash)?.[1];
    if (link) {
      history.replaceState(null, "", location.pathname + location.search);
      try {
        await session.signInWithLink(link);
        return void (await this.onSignedIn());
      } catch {
        this.notify("That sign-in link was used, has expired or is not valid. Ask for a new one.");
      }
    }
    // Back from single sign-on (`#signed-in=sso`): the provider's redirect was cross-site, so the shell's request
    // carried no SameSite=Strict cookie, but the session is there; this page's own calls carry it.
    const fromSso = location.hash === "#signed-in=sso";
    const ssoError = /^#sso-error=([a-z_]+)$/.exec(location.hash)?.[1];
    if (fromSso || ssoError) history.replaceState(null, "", location.pathname + location.search);
    if (ssoError) this.notify(ssoFailure(ssoError));
    try {
      const resumed = (fromSso || this.hasAttribute("session")) && (await session.resume());
      if (resumed) await signedInPages();
      this.signedIn = resumed;
    } catch {
      this.signedIn = false;
    }
    if (this.signedIn) this.afterSignIn();
  }

  private async onSignedIn() {
    await signedInPages();
    this.signedIn = true;
    this.focusAfterRender = true;
    this.afterSignIn();
  }

  private afterSignIn() {
    this.sessionNote = session.expires ? `Session until ${formatDateTime(session.expires).split(", ").pop()}` : "";
    void this.loadProject();
  }

  private onRouteChange = () => {
    const previous = this.route;
    this.route = parseRoute(location.pathname);
    this.focusAfterRender = true;
    const projectId = this.route.page === "project" ? this.route.projectId : null;
    if (previous.page !== "project" || previous.projectId !== projectId) void this.loadProject();
  };

  private onSessionEnded = () => {
    if (this.signedIn) {
      this.signedIn = false;
      this.notify("Your session has ended. Sign in again to continue.");
    }
  };

  private onToast = (e: CustomEvent<string>) => this.notify(e.detail);

  private onProjectChanged = (e: CustomEvent<Project | null>) => {
    this.project = e.detail;
  };

  /** Same-document links under /portal are handled here, without a page load. */
  private onLinkClick = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const link = (e.target as Element).closest("a");
    if (!link || link.target || link.hasAttribute("download")) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !(url.pathname === base || url.pathname.startsWith(`${base}/`))) return;
    e.preventDefault();
    if (url.pathname !== location.pathname) navigate(url.pathname);
  };

  private notify(text: string) {
    // One message at a time: the newest replaces the last, so confirmations never pile up over the page.
    const id = ++this.toastId;
    this.toasts = [{ id, text }];
    setTimeout(() => (this.toasts = this.toasts.filter((t) => t.id !== id)), 5000);
  }

  private async loadProject() {
    if (this.route.page !== "project" || !this.signedIn) {
      this.project = null;
      return;
    }
    const projectId = this.route.projectId;
    this.projectError = null;
    if (this.project?.projectId !== projectId) this.project = null;
    try {
      const project = await ok(api.GET("/admin/v1/projects/{project_id}", { params: { path: { project_id: projectId } } }));
      if (this.route.page === "project" && this.route.projectId === projectId) this.project = project;
    } catch (error) {
      this.projectError = error;
    }
  }

  private async signOut() {
    try {
      await session.signOut();
    } catch {
      // The session is gone either way; the cookie is cleared by the server or expires.
    }
    this.signedIn = false;
    this.project = null;
    navigate(`${base}/`, true);
    this.notify("Signed out.");
  }

  protected override updated() {
    const title = this.pageTitle();
    document.title = title ? `${title} · Assent portal` : "Assent portal";
    if (this.focusAfterRender) {
      const heading = this.querySelector<HTMLElement>("main h1");
      if (heading) {
        this.focusAfterRender = false;
        heading.setAttribute("tabindex", "-1");
        heading.focus({ preventScroll: false });
      }
    }
  }

  private pageTitle(): string {
    if (this.signedIn === false) return "Sign in";
    const r = this.route;
    if (r.page === "projects") return "Projects";
    const organizationPage = organizationPages.find((p) => p.id === r.page);
    if (organizationPage) return organizationPage.label;
    if (r.page === "account") return "Your account";
    if (r.page === "project") {
      const section = sections.find((s) => s.id === r.section)?.label ?? "";
      return `${section} · ${this.project?.name ?? "Project"}`;
    }
    return "Not found";
  }

  protected override render() {
    const toasts = html`<div class="toast-region" role="status" aria-live="polite">
      ${this.toasts.map((t) => html`<div class="toast">${t.text}</div>`)}
    </div>`;
    if (this.signedIn === null) return html`<main class="layout" id="main">${loadingView("the portal")}</main>${toasts}`;
    if (!this.signedIn) {
      return html`<ap-sign-in @signed-in=${this.onSignedIn}></ap-sign-in>
        ${toasts}`;
    }
    return html`<a class="skip-link" href="#main" @click=${this.skipToMain}>Skip to content</a>
      <header class="topbar">
        <a class="brand" href="${base}/">${brandMark}<span>Assent <small>Portal</small></span></a>
        <nav class="topnav" aria-label="Organization">
          <a href="${base}/" aria-current=${this.route.page === "projects" ? "page" : nothing}>Projects</a>
          ${organizationPages.map(
            (p) => html`<a href="${base}/${p.id}" aria-current=${this.route.page === p.id ? "page" : nothing}>${p.label}</a>`,
          )}
        </nav>
        <span class="spacer"></span>
        ${this.sessionNote ? html`<span class="session-note">${this.sessionNote}</span>` : nothing}
        <a class="button small" href="${accountHref}">Your account</a>
        <button type="button" class="button small" @click=${this.signOut}>Sign out</button>
      </header>
      <main class="layout" id="main" tabindex="-1">${this.renderPage()}</main>
      ${toasts}`;
  }

  private skipToMain(e: Event) {
    e.preventDefault();
    this.querySelector<HTMLElement>("#main")?.focus();
  }

  private renderPage() {
    const r = this.route;
    if (r.page === "projects") return html`<ap-projects></ap-projects>`;
    if (r.page === "members") return html`<ap-members></ap-members>`;
    if (r.page === "audit") return html`<ap-audit></ap-audit>`;
    if (r.page === "account") return html`<ap-account></ap-account>`;
    if (r.page === "not-found") {
      return html`<h1>Page not found</h1>
        <p>There is no portal page at this address. <a href="${base}/">Go to the projects</a>.</p>`;
    }
    const crumbs = html`<nav class="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        <li><a href="${base}/">Projects</a></li>
        <li><span aria-current="location">${this.project?.name ?? r.projectId}</span></li>
      </ol>
    </nav>`;
    if (this.projectError) {
      const missing = this.projectError instanceof ApiProblem && this.projectError.status === 404;
      return html`${crumbs}
        <h1>${missing ? "Project not found" : "The project could not be loaded"}</h1>
        ${missing
          ? html`<p>No project has the id <code>${r.projectId}</code>. It may have been deleted.</p>`
          : problemView(this.projectError)}
        <p><a href="${base}/">Back to the projects</a></p>`;
    }
    if (!this.project) return html`${crumbs}${loadingView("the project")}`;
    const project = this.project;
    return html`${crumbs}
      <div class="project-head">
        <h1>${project.name}</h1>
        <code class="muted">${project.projectId}</code>
      </div>
      <nav class="section-nav" aria-label="Project sections">
        <ul>
          ${sections.map(
            (s) => html`<li>
              <a href="${projectHref(project.projectId, s.id)}" aria-current=${s.id === r.section ? "page" : nothing}>${s.label}</a>
            </li>`,
          )}
        </ul>
      </nav>
      ${this.renderSection(project, r.section, r.itemId)}`;
  }

  private renderSection(project: Project, section: string, itemId?: string) {
    switch (section) {
      case "clients":
        return html`<ap-clients .project=${project}></ap-clients>`;
      case "configuration":
        return html`<ap-configuration .project=${project}></ap-configuration>`;
      case "requests":
        return html`<ap-requests .project=${project} .family=${itemId ?? "erasures"}></ap-requests>`;
      case "identities":
        return html`<ap-identities .project=${project} .identityId=${itemId ?? ""}></ap-identities>`;
      case "webhooks":
        return html`<ap-webhooks .project=${project}></ap-webhooks>`;
      case "scanner":
        return html`<ap-scanner .project=${project}></ap-scanner>`;
      case "blocking":
        return html`<ap-blocking .project=${project}></ap-blocking>`;
      case "settings":
        return html`<ap-settings .project=${project}></ap-settings>`;
      case "wording":
        return html`<ap-wording .project=${project}></ap-wording>`;
      case "tcf":
        return html`<ap-tcf .project=${project}></ap-tcf>`;
      case "sms":
        return html`<ap-sms .project=${project}></ap-sms>`;
      case "analytics":
        return html`<ap-analytics .project=${project}></ap-analytics>`;
      default:
        return html`<ap-overview .project=${project}></ap-overview>`;
    }
  }
}
