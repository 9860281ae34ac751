import { useEffect, useRef, useState } from "react";
import { Button, SafeAreaView, Text, View } from "react-native";
import { fetchAssentToken, type ConsentState } from "./consent";
import { ConsentWebView, type ConsentWebViewHandle } from "./ConsentWebView";

/** Stands in for the app's sign-in: the session its backend knows the user by. */
const session = "signed-in-session";

export function App() {
  const [auth, setAuth] = useState<{ identityId: string; token: string }>();
  const [state, setState] = useState<ConsentState>();
  const [failed, setFailed] = useState(false);
  const consent = useRef<ConsentWebViewHandle>(null);

  useEffect(() => {
    fetchAssentToken(session).then(setAuth, () => setFailed(true));
  }, []);

  // The app's own SDKs follow the same decision as the web: start analytics only when it may be used.
  const analytics = state?.consents.analytics === true;
  useEffect(() => {
    if (analytics) startAnalytics();
  }, [analytics]);

  return (
    <SafeAreaView style={{ flex: 1 }}>
      <View style={{ padding: 16, gap: 8 }}>
        <Text>Analytics: {state ? (analytics ? "on" : "off") : failed ? "off (Assent unreachable)" : "waiting"}</Text>
        <Button title="Privacy choices" onPress={() => consent.current?.showPreferences()} disabled={!auth} />
      </View>
      {auth && (
        <ConsentWebView
          ref={consent}
          identityId={auth.identityId}
          token={auth.token}
          language="en"
          onState={setState}
          onError={() => setFailed(true)}
        />
      )}
    </SafeAreaView>
  );
}

function startAnalytics() {
  // Your analytics SDK's start call.
}
