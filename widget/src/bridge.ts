type Native = {
  webkit?: { messageHandlers?: { assent?: { postMessage(message: unknown): void } } };
  AssentAndroid?: { postMessage(json: string): void };
  ReactNativeWebView?: { postMessage(json: string): void };
};

export type BridgeMessage =
  | { type: "assent-ready" | "assent-change"; state: unknown }
  | { type: "assent-error"; error: { status: number; message: string } }
  | { type: "assent-dismiss"; state: unknown };

/** Posts to the app around a webview, when there is one: iOS (WKWebView), Android, React Native. */
export function tellNative(message: BridgeMessage): void {
  const native = window as unknown as Native;
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
