// The demo page's own style and scripts, served from the Worker as files so the page needs no inline code.

export const demoStyles = `
:root { color-scheme: light; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111827; background: #f3f4f6; }
body { margin: 0; }
.bar { display: flex; align-items: center; gap: 1rem; padding: .75rem 1.5rem; background: #fff; border-bottom: 1px solid #e5e7eb; }
.brand { font-weight: 700; font-size: 1.1rem; }
.spacer { flex: 1; }
button, select { font: inherit; }
#privacy-settings { border: 2px solid #0f766e; color: #0f766e; background: #fff; border-radius: 8px; padding: .35rem .8rem; font-weight: 600; cursor: pointer; }
main { max-width: 56rem; margin: 0 auto; padding: 2rem 1.5rem; }
h1 { font-size: 2rem; line-height: 1.2; margin: .5rem 0 1rem; }
.lead { font-size: 1.1rem; color: #374151; }
pre { background: #111827; color: #e5e7eb; padding: 1rem; border-radius: 10px; overflow-x: auto; font-size: .85rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 1rem; margin: 1.5rem 0; }
.card { background: #fff; border: 1px solid #e5e7eb; border-radius: 12px; padding: 1rem 1.25rem; }
.card h2 { font-size: 1.1rem; margin-top: 0; }
#state { list-style: none; padding: 0; margin: 0; }
#state li { display: flex; justify-content: space-between; padding: .3rem 0; border-bottom: 1px solid #f3f4f6; }
.muted { color: #4b5563; }
.pill { display: inline-block; padding: .1rem .6rem; border-radius: 999px; font-size: .9rem; }
.on { background: #ecfdf5; color: #065f46; }
.off { background: #f3f4f6; color: #374151; }
.regimes { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; padding: .5rem 1.5rem; background: #fff; border-bottom: 1px solid #e5e7eb; }
.regimes a { color: #0f766e; padding: .2rem .7rem; border-radius: 999px; border: 1px solid #99f6e4; text-decoration: none; }
.regimes a[aria-current] { background: #0f766e; color: #fff; border-color: #0f766e; font-weight: 600; }
#new-visitor { margin-inline-start: auto; border: 1px solid #d1d5db; background: #fff; border-radius: 8px; padding: .2rem .7rem; cursor: pointer; }
`;

/**
 * The page's own script. It asks `window.assent` (defined before the element upgrades) rather than listening for
 * `assent-ready` itself: a returning visitor's stored decision is announced while the widget's script starts, which
 * may be before this script runs.
 */
export const demoScript = `
const widget = document.querySelector("assent-consent");
const list = document.getElementById("state");
const language = document.getElementById("lang");
const show = (state) => {
  // Before the first answer a new visitor has no identity yet: nothing to show.
  if (!list || !state || !state.identityId) return;
  list.replaceChildren(...Object.entries(state.consents).map(([purpose, allowed]) => {
    const item = document.createElement("li");
    const name = document.createElement("span");
    name.textContent = purpose;
    const badge = document.createElement("span");
    badge.className = "pill " + (allowed ? "on" : "off");
    badge.textContent = allowed ? "allowed" : "not allowed";
    item.append(name, badge);
    return item;
  }));
  document.getElementById("regime").textContent = "Regime: " + state.regime + ".";
  document.getElementById("identity").textContent = "Visitor identity: " + state.identityId;
};
const unreachable = () => {
  if (list) list.innerHTML = "<li>The privacy service is unreachable; nothing is allowed.</li>";
};
document.getElementById("new-visitor")?.addEventListener("click", () => {
  for (const storage of [localStorage, sessionStorage]) {
    for (const key of Object.keys(storage)) if (key.startsWith("assent:")) storage.removeItem(key);
  }
  location.reload();
});
if (widget) {
  customElements.whenDefined("assent-consent").then(() => {
    const assent = window.assent;
    assent.on("change", show);
    assent.on("error", unreachable);
    assent.ready.then(show);
  });
  document.getElementById("privacy-settings").addEventListener("click", () => widget.show());
  language.value = (navigator.language || "en").slice(0, 2);
  if (!language.value) language.value = "en";
  widget.lang = language.value;
  language.addEventListener("change", () => { widget.lang = language.value; });
}
`;

export const gatedScript = `
const note = document.getElementById("gated");
if (note) { note.textContent = "Ran: the purpose is approved"; note.className = "pill on"; }
`;
