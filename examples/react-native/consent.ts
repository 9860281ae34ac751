/**
 * What the widget posts through `window.ReactNativeWebView.postMessage` (widget/src/bridge.ts, docs/widget.md
 * "Mobile webviews"), JSON text: a state on ready, change and dismiss; a failure on error.
 */
export type ConsentState = {
  identityId: string;
  /** Per purpose referenceId: may it be used now. */
  consents: Record<string, boolean>;
  /** Per Google Consent Mode type: what the app's Google SDKs (Firebase consent, say) should be told. */
  consentMode: Record<string, "granted" | "denied">;
  purposes: { referenceId: string; version: string; status: "approved" | "denied" }[];
  regime: "opt-in" | "opt-out" | "notice";
  receipt?: string;
};

export type BridgeMessage =
  | { type: "assent-ready" | "assent-change" | "assent-dismiss"; state: ConsentState }
  | { type: "assent-error"; error: { status: number; message: string } };

/** Your Assent service, the project, and your backend's route that mints the signed-in user's Assent token. */
export const settings = {
  assent: "https://consent.example.com",
  project: "prj_replace_me",
  tokenRoute: "https://shop.example/api/assent-token",
};

/**
 * The signed-in user's identity-scoped token, minted by your backend with a backend client (docs/security.md,
 * "Browser tokens", flow 1): the app never holds a client secret.
 */
export async function fetchAssentToken(session: string): Promise<{ identityId: string; token: string }> {
  const answer = await fetch(settings.tokenRoute, { headers: { authorization: `Bearer ${session}` } });
  if (!answer.ok) throw new Error(`Assent token: ${answer.status}`);
  return answer.json();
}

/**
 * The page the webview loads: the user's token first, then the classic build (a page from an HTML string cannot
 * load module scripts) and the element, marked as an app's consent. The token is written into the page rather than
 * injected with `injectedJavaScriptBeforeContentLoaded`, which react-native-webview documents as unreliable on
 * Android; the widget reads `window.AssentNative` when its element connects.
 */
export const consentPage = (language: string, auth: { identityId: string; token: string }) => `<!doctype html>
<html lang="${language}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <script>window.AssentNative = ${JSON.stringify(auth).replace(/</g, "\\u003c")};</script>
  <script src="${settings.assent}/widget/assent.classic.js"></script>
</head>
<body>
  <assent-consent project="${settings.project}" api="${settings.assent}" collection-method="app-webview" application="shop-app"></assent-consent>
</body>
</html>`;

/** Opens the preferences, evaluated in the webview (a "Privacy choices" item in the app's settings). */
export const showPreferencesScript = "window.assent.show(); true;";
