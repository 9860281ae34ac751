/** How an operator proved who they are; every audit entry names it. `admin-token` is the break-glass credential. */
export const credentialKinds = ["admin-token", "email-link", "passkey", "sso", "personal-token"] as const;
export type CredentialKind = (typeof credentialKinds)[number];
