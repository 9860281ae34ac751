// A real OpenID Connect provider for the single sign-on tests (the `oidc-provider` package, run in Node on a free
// port): discovery, an authorization endpoint with its own login page, PKCE, the token endpoint and signed ID tokens
// with a JWKS. Its login page accepts any address (the account is the address typed); an address starting with
// `unverified` gets `email_verified: false`. Consent is granted at once, so the flow is: the provider's login page,
// then back to the caller's redirect URI. Any redirect URI ending in Assent's callback path is accepted, whatever
// port the service under test runs on.
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import Provider from "oidc-provider";
import { ssoClient } from "./client";

export { ssoClient };


export type RunningProvider = { issuer: string; close: () => Promise<void> };

export async function startSsoProvider(): Promise<RunningProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: ssoClient.clientId,
        client_secret: ssoClient.clientSecret,
        redirect_uris: ["http://assent.test/portal/api/sso/callback"],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, email: id, email_verified: !id.startsWith("unverified"), name: id.split("@")[0] }),
    }),
    // Consent is the organization's business, not this test's: every scope asked for is granted.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
  });
  provider.Client.prototype.redirectUriAllowed = (uri: string) => new URL(uri).pathname === "/portal/api/sso/callback";
  server.on("request", provider.callback());
  return { issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
