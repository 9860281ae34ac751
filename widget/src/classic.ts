/**
 * The classic build's entry: the widget, and its own element when the script's URL names a project
 * (`assent.classic.js?project=prj_…&lang=fi`). A Google Tag Manager template can load a script but not write
 * markup (integrations/gtm), so the element comes from the URL there; a page that has its own element keeps it.
 * Only the classic build carries this, since Tag Manager injects classic scripts: the module's eager budget is untouched.
 */
import "./index";
import { scriptUrl } from "./i18n";

const query = new URL(scriptUrl).searchParams;
if (query.get("project") && !document.querySelector("assent-consent")) {
  const element = document.createElement("assent-consent");
  for (const name of ["project", "api", "lang"]) {
    const value = query.get(name);
    if (value) element.setAttribute(name, value);
  }
  // Injected from <head> before the parser reached <body>: wait for it.
  const place = () => document.body.append(element);
  if (document.body) place();
  else document.addEventListener("DOMContentLoaded", place, { once: true });
}
