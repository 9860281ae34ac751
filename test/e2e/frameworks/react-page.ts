// A React page using @assent/react (bundled by frameworks.test.ts): the component, useConsent and useAssent, with
// controls the test uses to change a setting and take the component out. Strict mode, as React's dev builds run.
import { createElement as h, StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import { AssentConsent, useAssent, useConsent } from "../../../packages/react/src/index.js";
import { pageSettings, record } from "./page-settings.js";

const { project, provider } = pageSettings();

function Shop() {
  const marketing = useConsent("marketing");
  const state = useAssent();
  const [lang, setLang] = useState("en");
  const [shown, setShown] = useState(true);
  return h(
    "main",
    null,
    h("p", { id: "marketing" }, String(marketing)),
    h("p", { id: "identity" }, state?.identityId ?? "unknown"),
    h("button", { id: "swedish", onClick: () => setLang("sv") }, "Svenska"),
    h("button", { id: "remove", onClick: () => setShown(false) }, "Remove"),
    shown &&
      h(AssentConsent, {
        project,
        lang,
        regime: "opt-in",
        application: "react-shop",
        internalReference: "order-7",
        // A new closure at every render, as pages write it.
        tokenProvider: provider ? () => provider() : undefined,
        onReady: (state) => record(`ready ${state.consents.marketing}`),
        onChange: (state) => record(`change ${state.consents.marketing}`),
        onError: (failure) => record(`error ${failure.status}`),
        onDismiss: () => record("dismiss"),
      }),
  );
}

createRoot(document.getElementById("root")!).render(h(StrictMode, null, h(Shop)));
