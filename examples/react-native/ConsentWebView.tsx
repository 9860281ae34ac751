import { forwardRef, useImperativeHandle, useRef } from "react";
import { WebView, type WebViewMessageEvent } from "react-native-webview";
import { consentPage, settings, showPreferencesScript, type BridgeMessage, type ConsentState } from "./consent";

export type ConsentWebViewHandle = {
  /** Opens the preferences (a "Privacy choices" item in the app's settings). */
  showPreferences(): void;
};

type Props = {
  identityId: string;
  token: string;
  language: string;
  /** Every state the widget announces: the first one, each change, and a dismissal (nothing changed). */
  onState(state: ConsentState): void;
  /** Nothing could be read or saved: nothing is allowed (fail closed); offer to try again later. */
  onError(error: { status: number; message: string }): void;
};

/**
 * The widget in a webview, talking to the app through react-native-webview's bridge: the page carries the user's
 * token, the app hears every state the widget posts, and can reopen the preferences.
 */
export const ConsentWebView = forwardRef<ConsentWebViewHandle, Props>(function ConsentWebView(
  { identityId, token, language, onState, onError },
  ref,
) {
  const web = useRef<WebView>(null);
  useImperativeHandle(ref, () => ({
    showPreferences: () => web.current?.injectJavaScript(showPreferencesScript),
  }));
  const onMessage = (event: WebViewMessageEvent) => {
    const message = JSON.parse(event.nativeEvent.data) as BridgeMessage;
    if (message.type === "assent-error") onError(message.error);
    else onState(message.state);
  };
  return (
    <WebView
      ref={web}
      // The page's origin is the base URL; an injected token works from any origin, so no web client needs it.
      source={{ html: consentPage(language, { identityId, token }), baseUrl: settings.assent }}
      // Anything else (the policy links in the banner) opens in the system browser, not in this webview.
      originWhitelist={[settings.assent]}
      onMessage={onMessage}
      // The banner sits at the bottom of the page; the webview's own background lets the app show through.
      style={{ backgroundColor: "transparent" }}
    />
  );
});
