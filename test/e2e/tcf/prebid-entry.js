// Prebid.js with its TCF consent module (prebid.js from npm, modules/consentManagementTcf), as a publisher's build has
// it; test/e2e/tcf.test.ts bundles it with Vite, offline. The page configures it through `pbjs.que`; `window.prebidConsent`
// is what the module resolved (the consent every bid request carries), read from Prebid's own consent handler.
import pbjs from "prebid.js";
import "prebid.js/modules/consentManagementTcf";
import { gdprDataHandler } from "../../../node_modules/prebid.js/dist/src/src/consentHandler.js";

window.prebidConsent = () => gdprDataHandler.promise.then(() => gdprDataHandler.getConsentData());
pbjs.processQueue();
