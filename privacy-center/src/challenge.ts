/**
 * Cloudflare Turnstile in the privacy center: when the service answers 403 `challenge_required` (an address or
 * client under attack, docs/security.md#challenges), the page renders Turnstile with the deployment's site key and
 * repeats the call with its token. Turnstile's script loads only then, from the one origin the page's CSP allows.
 */
import type { RequestFailed } from "../../shared/browser/session";

const turnstileScript = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

type Turnstile = { render(container: HTMLElement, options: { sitekey: string; callback(token: string): void; "error-callback"(): void }): string };

let loading: Promise<Turnstile> | undefined;

/** Turnstile's API, its script added to the document once. */
function turnstile(): Promise<Turnstile> {
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = turnstileScript;
    script.async = true;
    script.onload = () => resolve((window as unknown as { turnstile: Turnstile }).turnstile);
    script.onerror = () => {
      loading = undefined;
      reject(new Error("The challenge could not be loaded."));
    };
    document.head.append(script);
  });
  return loading;
}

/** The site key a failed call asks a challenge with (the problem's own, else the page's), or undefined for any other failure. */
export function challengeAsked(error: unknown, pageSiteKey: string): string | undefined {
  const { status, code, challenge } = error as RequestFailed;
  if (status !== 403 || (code !== "challenge_required" && code !== "challenge_failed")) return undefined;
  const asked = (challenge as { siteKey?: unknown } | undefined)?.siteKey;
  return typeof asked === "string" && asked ? asked : pageSiteKey || undefined;
}

/** Renders Turnstile into `container` and answers the token once the person has passed it. */
export async function solveChallenge(container: HTMLElement, siteKey: string): Promise<string> {
  const api = await turnstile();
  container.replaceChildren();
  return new Promise((resolve, reject) => {
    api.render(container, { sitekey: siteKey, callback: resolve, "error-callback": () => reject(new Error("The challenge failed; try again.")) });
  });
}
