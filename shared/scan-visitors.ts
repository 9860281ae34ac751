/** Alias type under which a widget visitor's key is stored (its SHA-256): the key itself never leaves the browser. */
export const visitorAliasType = "urn:svc:assent-visitor";

/** An identity a page running Assent announced during a scan's visit (`assent-ready`, `assent-change`). */
export type ScanVisitor = { project: string; identityId: string };

type IdentityFacts = { referenceId: string | null; aliases: { type: string }[]; created: string };

/**
 * Whether an identity is one a scan's own visit made: the widget's first-visit identity, created since the scan
 * started, with no reference and no alias but the visitor's own. A page can name any identity in its events, so this
 * rule, not the page, decides what a scan removes.
 */
export const madeByScan = (identity: IdentityFacts, scanStarted: string) =>
  identity.created >= scanStarted &&
  identity.referenceId === null &&
  identity.aliases.length > 0 &&
  identity.aliases.every((alias) => alias.type === visitorAliasType);
