"use client";

import { useConsent } from "@assent/react";
import Script from "next/script";

/**
 * A tag that needs consent is rendered only once its purpose is approved (here the purpose with referenceId
 * "analytics"): `useConsent` is undefined until the widget knows, then true or false, and follows every change.
 */
export function Analytics() {
  const analytics = useConsent("analytics");
  if (!analytics) return <p>Analytics: {analytics === undefined ? "waiting for the widget" : "off"}</p>;
  return (
    <>
      <p>Analytics: on</p>
      <Script src="https://analytics.example/tag.js" strategy="afterInteractive" />
    </>
  );
}
