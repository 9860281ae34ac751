import { call } from "./helpers";
import { siteOrigin } from "./bootstrap-fixture";

export const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
export const desktop = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/142.0 Safari/537.36";

export type Report = {
  regime?: string;
  language?: string;
  path?: string;
  variant?: string;
  events: { event: string; granted?: string[]; refused?: string[] }[];
};

/** The widget's beacon: text/plain JSON from the page's origin, no credential. */
export const countEvents = (projectId: string, report: Report | string, headers: Record<string, string> = {}) =>
  call("POST", `/browser/v1/projects/${projectId}/analytics/events`, {
    rawBody: typeof report === "string" ? report : JSON.stringify({ regime: "opt-in", language: "en", path: "/", ...report }),
    headers: { "content-type": "text/plain;charset=UTF-8", origin: siteOrigin, "user-agent": desktop, ...headers },
  });

