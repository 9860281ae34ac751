// The React and Vue wrappers rendered on the server, as Next.js and Nuxt render them before hydration: no DOM, so
// the component is its empty host and the hooks answer undefined ("not known yet"), never a decision.
import { createElement, Fragment } from "react";
import { renderToString } from "react-dom/server";
import { createSSRApp, defineComponent, h } from "vue";
import { renderToString as renderVue } from "vue/server-renderer";
import { describe, expect, it } from "vitest";
import * as react from "../../packages/react/src/index";
import * as vue from "../../packages/vue/src/index";

describe("on the server", () => {
  it("React: <AssentConsent> is an empty display: contents span, useConsent and useAssent are undefined", () => {
    function Page() {
      const marketing = react.useConsent("marketing");
      const state = react.useAssent();
      return createElement(
        Fragment,
        null,
        createElement("p", null, `${marketing}/${state}`),
        createElement(react.AssentConsent, { project: "prj_1", lang: "sv", onChange: () => {} }),
      );
    }
    expect(renderToString(createElement(Page))).toBe('<p>undefined/undefined</p><span style="display:contents"></span>');
  });

  it("Vue: <AssentConsent> is an empty display: contents span, useConsent and useAssent are undefined", async () => {
    const Page = defineComponent({
      setup() {
        const marketing = vue.useConsent("marketing");
        const state = vue.useAssent();
        return () => [h("p", `${marketing.value}/${state.value}`), h(vue.AssentConsent, { project: "prj_1", lang: "sv" })];
      },
    });
    expect(await renderVue(createSSRApp(Page))).toBe('<!--[--><p>undefined/undefined</p><span style="display:contents;"></span><!--]-->');
  });
});
