import type { Schemas } from "../api/operations";

/**
 * What the Worker inlines into a project's blocking.js (worker/blocking/script.ts) and the page-side blocker
 * (widget/src/blocking/) starts from: no fetch stands between the page's first `<script>` and holding things back.
 */
export type BlockingScriptConfig = {
  /** The service's origin: where the widget's stored decision is keyed (widget/src/store.ts) and words are fetched. */
  api: string;
  project: string;
  /** The project's list (empty when blocking is switched off), each host pattern with its purpose and vendor. */
  entries: { host: string; purpose: string; vendor: string | null }[];
  /**
   * The project's Google Consent Mode settings with its region-scoped defaults, as the bootstrap serves them; absent
   * while Consent Mode is off. The blocker pushes them (and a returning visitor's stored update) before anything it
   * holds can run, which a module script (the widget) cannot do.
   */
  consentMode?: Schemas["Bootstrap"]["consentMode"];
};
