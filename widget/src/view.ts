/**
 * What the element hands its layers (banner, preferences) to render: its state, its actions, and the rendering
 * helpers. The preferences layer takes lit-html and the helpers from here rather than importing them, so its chunk
 * imports nothing from the entry, which a page may have loaded under its stable or its hashed name.
 */
import { html, nothing } from "lit/html.js";
import type { Choices } from "./consent";
import { fill, pick } from "./i18n";
import type { Strings } from "../../shared/i18n/strings";
import type { ButtonStyle, Configuration, Policies, PrescribedLink, Purpose, RegimeName, Translation } from "../../shared/browser/types";

/** What the element knows when it renders: brought up to date on each render. */
export type ViewState = {
  t: Strings;
  language: string;
  dir: string;
  /** The controller's name, or the words for "this site" when it is not known. */
  controller: string;
  config?: Configuration;
  regime: RegimeName;
  gpc: boolean;
  gpcApplied: boolean;
  prescribed: PrescribedLink[];
  /** The first layer's button style of the visitor's banner variant; absent, the widget's own. */
  buttons?: ButtonStyle;
  failed: boolean;
  busy: boolean;
  /** The visitor chose while the API was down; the choice waits on this device. */
  pending: boolean;
  choices: Choices;
  objected: Record<string, boolean>;
  receipt?: string;
  /** What an optional part adds to a layer, below its notes (the TCF chunk's purposes and vendors), when one does. */
  section?(view: View, layer: "banner" | "dialog"): unknown;
};

export type View = ViewState & {
  lit: { html: typeof html; nothing: typeof nothing };
  fill: typeof fill;
  /** A configuration text in the visitor's language (see `pick`). */
  text(texts?: Translation[]): string;
  links(policies?: Policies): unknown;
  /** The first layer's frame (banner.ts) around other content. */
  frame(content: unknown): unknown;
  /** The notes both layers show above their choices: `view.notices(view)` (see `notices`). */
  notices: typeof notices;
  answered(purpose: Purpose): boolean;
  acceptAll(): void;
  rejectAll(): void;
  customize(): void;
  acknowledge(): void;
  dismiss(): void;
  retry(): void;
  save(): void;
  toggle(key: string, on: boolean): void;
  object(purpose: Purpose): void;
  closePreferences(): void;
};

/**
 * Only web links: a policy URL that does not start with http:// or https:// (javascript:, data:, anything the
 * service's URL check would not have let through) is left out, never rendered. (`target=_blank` implies `noopener`
 * in every browser the widget runs in.)
 */
const web = (url?: string) => /^https?:\/\//i.test(url ?? "");


/** A Policies key and the words for its link. */
const policyLinks = { privacy: "privacyPolicy", terms: "terms", cookie: "cookiePolicy" } as const;

export const links = (view: View, policies: Policies = {}) =>
  Object.entries(policyLinks).map(([key, words]) => {
    const url = policies[key as keyof Policies];
    return web(url) ? html` <a part="link" href=${url!} target="_blank">${view.t[words]}</a>` : nothing;
  });

/**
 * What both layers say above their choices: the browser's Global Privacy Control (honoured, or only noted where
 * consent is asked anyway), a choice waiting on this device while the service is down, and a failure with its retry.
 */
export const notices = (view: View) => {
  const { t } = view;
  return [
    ...[view.gpcApplied ? t.gpcApplied : view.gpc && view.regime === "opt-in" ? t.gpc : "", view.pending ? t.offline : ""]
      .filter(Boolean)
      .map((note) => html`<p class="note" part="notice">${note}</p>`),
    view.failed
      ? html`<p class="note error" part="notice" role="alert">${t.serviceDown} <button class="link" @click=${view.retry}>${t.retry}</button></p>`
      : nothing,
  ];
};

/** The helpers part of a View. */
export const helpers: Pick<View, "lit" | "fill" | "text" | "notices"> = { lit: { html, nothing }, fill, text: pick, notices };
