// The component's type for TypeScript (tsc cannot read .svelte files); its props are the ones the component declares.
import type { Component } from "svelte";
import type { AssentConsentComponentProps } from "./props.js";

declare const AssentConsent: Component<AssentConsentComponentProps>;
export default AssentConsent;
