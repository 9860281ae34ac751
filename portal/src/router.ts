// Client-side routes under /portal/. The Worker answers every such path with the same shell.

export const sections = [
  { id: "overview", label: "Overview" },
  { id: "analytics", label: "Analytics" },
  { id: "clients", label: "Clients" },
  { id: "configuration", label: "Configuration" },
  { id: "wording", label: "Wording" },
  { id: "requests", label: "Requests" },
  { id: "identities", label: "Identities" },
  { id: "webhooks", label: "Webhooks" },
  { id: "scanner", label: "Scanner" },
  { id: "blocking", label: "Blocking" },
  { id: "tcf", label: "TCF" },
  { id: "sms", label: "SMS" },
  { id: "settings", label: "Settings" },
] as const;
export type Section = (typeof sections)[number]["id"];

/** The organization's own pages, beside its projects. */
export const organizationPages = [
  { id: "members", label: "Members" },
  { id: "audit", label: "Audit trail" },
] as const;
export type OrganizationPage = (typeof organizationPages)[number]["id"];

export type Route =
  | { page: "projects" }
  | { [P in OrganizationPage]: { page: P } }[OrganizationPage]
  | { page: "account" }
  | { page: "project"; projectId: string; section: Section; itemId?: string }
  | { page: "not-found" };

export const base = "/portal";

export function parseRoute(pathname: string): Route {
  const rest = pathname.startsWith(base) ? pathname.slice(base.length) : pathname;
  const parts = rest.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { page: "projects" };
  const organizationPage = organizationPages.find((p) => p.id === parts[0]);
  if (organizationPage && parts.length === 1) return { page: organizationPage.id };
  if (parts.length === 1 && parts[0] === "account") return { page: "account" };
  if (parts[0] !== "projects" || parts.length < 2) return { page: "not-found" };
  const section = (parts[2] ?? "overview") as Section;
  if (!sections.some((s) => s.id === section) || parts.length > 4) return { page: "not-found" };
  return { page: "project", projectId: parts[1], section, itemId: parts[3] };
}

export const projectHref = (projectId: string, section: Section = "overview", itemId?: string) =>
  `${base}/projects/${encodeURIComponent(projectId)}${section === "overview" && !itemId ? "" : `/${section}`}${
    itemId ? `/${encodeURIComponent(itemId)}` : ""
  }`;

export const accountHref = `${base}/account`;

export const navigateEvent = "assent-navigate";

/** Pushes a new route; the shell listens and re-renders. */
export function navigate(href: string, replace = false) {
  if (replace) history.replaceState(null, "", href);
  else history.pushState(null, "", href);
  window.dispatchEvent(new Event(navigateEvent));
}
