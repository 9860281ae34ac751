// Compile-time checks (npm run typecheck): what @assent/element says the element takes and tells is what the
// widget (widget/src) defines. A change on either side that the other lacks fails the type check here.
import type { AssentConsentProps, ConsentState, Failure, RegimeName, TokenProvider } from "@assent/element";
import type { TokenProvider as WidgetTokenProvider } from "../../shared/browser/session";
import type { AssentConsent } from "../../widget/src/assent-consent";
import type { Failure as WidgetFailure } from "../../widget/src/controller";
import type { ConsentState as WidgetConsentState, RegimeName as WidgetRegimeName } from "../../shared/browser/types";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(verdict: Same<A, B>) => verdict;

/** The settings that are properties of the element; `consent-mode` is an attribute only. */
type ElementSettings = Exclude<keyof AssentConsentProps, "consentMode">;

export const checks = [
  same<ConsentState, WidgetConsentState>(true),
  same<Failure, WidgetFailure>(true),
  same<RegimeName, WidgetRegimeName>(true),
  same<TokenProvider, WidgetTokenProvider>(true),
  same<Required<Pick<AssentConsentProps, ElementSettings>>, Required<Pick<AssentConsent, ElementSettings>>>(true),
];
