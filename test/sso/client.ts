/** The client Assent is registered as at the local test provider (test/sso/provider.ts); imported by workerd tests too. */
export const ssoClient = { clientId: "assent-portal", clientSecret: "test-sso-client-secret-of-some-length" };
