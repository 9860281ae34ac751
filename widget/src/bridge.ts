import type { ConsentState } from "./types";

type Native = {
  webkit?: { messageHandlers?: { assent?: { postMessage(message: unknown): void } } };
  AssentAndroid?: { postMessage(json: string): void };
  ReactNativeWebView?: { postMessage(json: string): void };
};

/** Posts the state to the app around a webview, when there is one: iOS (WKWebView), Android, React Native. */
export function tellNative(type: "assent-ready" | "assent-change", state: ConsentState): void {
  const native = window as unknown as Native;
  const message = { type, state };
  const json = JSON.stringify(message);
  for (const post of [
    () => native.webkit?.messageHandlers?.assent?.postMessage(message),
    () => native.AssentAndroid?.postMessage(json),
    () => native.ReactNativeWebView?.postMessage(json),
  ]) {
    try {
      post();
    } catch {
      // A broken bridge must not break the page.
    }
  }
}
