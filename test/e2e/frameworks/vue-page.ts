// A Vue page using @assent/vue (bundled by frameworks.test.ts): the component, useConsent and useAssent, with
// controls the test uses to change a setting and take the component out.
import { createApp, defineComponent, h, ref } from "vue";
import { AssentConsent, useAssent, useConsent } from "../../../packages/vue/src/index.js";
import { pageSettings, record } from "./page-settings.js";

const { project, provider } = pageSettings();

const Shop = defineComponent({
  setup() {
    const marketing = useConsent("marketing");
    const state = useAssent();
    const lang = ref("en");
    const shown = ref(true);
    return () =>
      h("main", [
        h("p", { id: "marketing" }, String(marketing.value)),
        h("p", { id: "identity" }, state.value?.identityId ?? "unknown"),
        h("button", { id: "swedish", onClick: () => (lang.value = "sv") }, "Svenska"),
        h("button", { id: "remove", onClick: () => (shown.value = false) }, "Remove"),
        shown.value
          ? h(AssentConsent, {
              project,
              lang: lang.value,
              regime: "opt-in",
              application: "vue-shop",
              internalReference: "order-8",
              tokenProvider: provider ? () => provider() : undefined,
              onReady: (state) => record(`ready ${state.consents.marketing}`),
              onChange: (state) => record(`change ${state.consents.marketing}`),
              onError: (failure) => record(`error ${failure.status}`),
              onDismiss: () => record("dismiss"),
            })
          : null,
      ]);
  },
});

createApp(Shop).mount("#root");
