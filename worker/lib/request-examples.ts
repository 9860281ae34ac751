/**
 * An example request body for every operation that takes one, by operationId, as the OpenAPI document shows them
 * (`npm run lint` checks each against its schema; test/api/openapi-document.test.ts fails for a body without one).
 * One value serves every media type of the body unless `"<operationId> <media type>"` names its own. The router
 * (worker/auth/router.ts) attaches them, so a new route needs only a row here.
 */
const identityId = "idn_01JDQ6Z8X4K9M2N7P3R5T8V1W6";
const purposeId = "pur_01JDQ70B2C3D4E5F6G7H8J9K0M";
const dataGroupId = "dg_01JDQ71N2P3Q4R5S6T7V8W9X0Y";
const controllerId = "pty_01JDQ72A1B2C3D4E5F6G7H8J9K";
const processorId = "pty_01JDQ73M1N2P3Q4R5S6T7V8W9X";
const requested = "2026-11-22T10:15:30.123+01:00";
const meta = { context: { collectionMethod: "web-dialog", application: "shop-web", language: "en" } };
const projectInput = {
  name: "Demo Shop",
  controller: { name: "Demo Shop AB", email: "privacy@shop.example", address: "Storgatan 1, 111 22 Stockholm" },
  policies: { privacy: "https://shop.example/privacy", cookie: "https://shop.example/cookies" },
  jurisdiction: "SE",
  defaultLanguage: "en",
};
const purposeInput = {
  referenceId: "newsletter",
  name: "Newsletter",
  description: [{ language: "en", text: "We e-mail you our offers once a week." }],
  legalGround: "consent",
  dataGroups: [dataGroupId],
  controllers: [controllerId],
  processors: [processorId],
  recipients: [],
  consentMode: ["ad_user_data", "ad_personalization"],
};
const partyInput = {
  referenceId: "mailer",
  type: "company",
  details: { name: "Mailer Ltd", email: "dpo@mailer.example", policies: { privacy: "https://mailer.example/privacy" } },
};
const dataGroupInput = { referenceId: "email", name: "E-mail address", description: [{ language: "en", text: "Your e-mail address." }] };
const webhookInput = {
  url: "https://shop.example/hooks/assent",
  events: ["permission.created", "permission_state.changed"],
  description: "CRM sync",
};
const billingAccount = { tscid: "TSC-0042", assets: [{ id: "asset-1", display_name: "Mobile subscription" }] };

export const requestExamples: Record<string, unknown> = {
  issueToken: { grant_type: "client_credentials", client_id: "cli_01JDQ74X1Y2Z3A4B5C6D7E8F9G", client_secret: "s3cr3t-from-the-portal", scope: "config:read identities:create" },
  createClient: { name: "Shop website", type: "web", allowedOrigins: ["https://shop.example"] },
  updateClient: { name: "Shop website", allowedOrigins: ["https://shop.example", "https://www.shop.example"], scopes: null },
  createProject: projectInput,
  updateProject: projectInput,
  updatePrivacyMetadata: projectInput,
  createIdentity: { referenceId: "customer-42", aliases: [{ type: "urn:svc:email", identifier: "anna@mail.example" }] },
  updateIdentity: { referenceId: "customer-42", aliases: [] },
  createParty: partyInput,
  updateParty: partyInput,
  createDataGroup: dataGroupInput,
  updateDataGroup: dataGroupInput,
  createPurpose: purposeInput,
  updatePurpose: { ...purposeInput, requireNewConsent: false },
  putUiStrings: { strings: { acceptAll: "Accept everything", noticeOptIn: "{c} asks for your consent to the purposes under Customize." } },
  createPermission: {
    identityId,
    requested,
    meta,
    request: { purposes: [{ purposeId, status: "approved", dataGroups: [{ dataGroupId, status: "approved" }] }] },
  },
  updatePermissionStatus: { permissionStatus: "completed" },
  createObjection: { identityId, requested, meta, request: { purposes: [{ purposeId }] } },
  updateObjectionStatus: { status: "completed" },
  createErasureRequest: { identityId, requested, request: { dataGroups: [dataGroupId] } },
  updateErasureRequestStatus: { status: "in_progress" },
  createAccessRequest: { identityId, requested, request: { format: "json" } },
  updateAccessRequestStatus: { status: "completed" },
  sendDcpSms: {
    outboundSMSMessageRequest: {
      address: ["tel:+46701234567"],
      senderAddress: "tel:+46700000000",
      senderName: "DemoShop",
      outboundSMSTextMessage: { message: "Your order has shipped." },
    },
  },
  sendSms: { genericSMSMessagePayload: { receiver: "+46701234567", sender: "DemoShop", message: "Your code is 123456" } },
  upsertBillingAccount: billingAccount,
  importBillingAccounts: [{ billingAccount: "1000123456", ...billingAccount }],
  "importBillingAccounts application/x-ndjson": `${JSON.stringify({ billingAccount: "1000123456", ...billingAccount })}\n`,
  upsertSmsProviderUser: { password: "correct horse battery staple" },
  receiveSmsDeliveryReport: { MessageSid: "SM0123456789abcdef0123456789abcdef", MessageStatus: "delivered" },
  createWebhook: webhookInput,
  updateWebhook: webhookInput,
  rotateWebhookSecret: { gracePeriodSeconds: 3600 },
  mintVisitorToken: { visitorKey: "avk_0n3Yc2m1bq2k3X4v5w6x7y8z9A0B1C2D3E4F5G6H7I8" },
  createBannerExperiment: {
    name: "Shorter notice",
    variants: [
      { name: "control", weight: 1, layout: { rejectAll: "first-layer", accept: "primary", reject: "primary", preChecked: [] }, wording: {} },
      {
        name: "short-wording",
        weight: 1,
        layout: { rejectAll: "first-layer", accept: "primary", reject: "primary", preChecked: [] },
        wording: { en: { noticeOptIn: "We and our partners use cookies to measure and improve the shop. Your choice." } },
      },
    ],
  },
  countBannerEvents: { regime: "opt-in", language: "en", path: "/shop", events: [{ event: "banner_shown" }, { event: "customised", granted: [purposeId], refused: [] }] },
  bootstrapWidget: { visitorKey: "avk_0n3Yc2m1bq2k3X4v5w6x7y8z9A0B1C2D3E4F5G6H7I8", languages: ["sv-SE", "en"] },
  updateJurisdictionRules: { rules: [{ area: "US-CA", regime: "opt-out" }, { area: "US", regime: "notice" }], rest: "opt-in" },
  updateBlockingList: {
    enabled: true,
    entries: [
      { host: "connect.facebook.net", purpose: "marketing", source: "catalogue", vendor: "meta-pixel" },
      { host: "*.hotjar.com", purpose: "analytics", source: "scan" },
      { host: "pixel.partner.example", purpose: "marketing", source: "manual" },
    ],
  },
  updateConsentModeSettings: { enabled: true, waitForUpdate: 500, urlPassthrough: false, adsDataRedaction: true },
  markScanEssential: { reason: "The shop's session: the cart and the checkout need it." },
  updateGppSettings: { mspaCoveredTransaction: true, mspaMode: "opt-out-option" },
  updateAnalyticsSettings: { enabled: false },
  updateTcfSettings: {
    enabled: true,
    cmpId: 300,
    cmpVersion: 1,
    vendors: [755, 10],
    publisherRestrictions: [{ purpose: 2, type: "require-consent", vendors: [755] }],
    publisherPurposes: { consent: [1], legitimateInterest: [7] },
    acProviders: [89],
  },
  signIn: { link: "sil_secret-from-the-links-fragment" },
  requestSignInLink: { email: "dpo@shop.example" },
  inviteMember: { email: "dpo@shop.example", role: "request_handler", projectRoles: [{ projectId: "prj_01JD0000000000000000000000", role: "viewer" }] },
  registerPasskey: {
    name: "Work laptop",
    response: {
      id: "Y3JlZGVudGlhbC1pZA",
      rawId: "Y3JlZGVudGlhbC1pZA",
      type: "public-key",
      clientExtensionResults: {},
      response: { clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0", attestationObject: "o2NmbXRkbm9uZQ", transports: ["internal"] },
    },
  },
  signInWithPasskey: {
    response: {
      id: "Y3JlZGVudGlhbC1pZA",
      rawId: "Y3JlZGVudGlhbC1pZA",
      type: "public-key",
      clientExtensionResults: {},
      response: { clientDataJSON: "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0", authenticatorData: "SZYN5YgOjGh0NBcPZHZgW4", signature: "MEUCIQ" },
    },
  },
  createApiToken: { name: "Deploy pipeline", scopes: ["projects:read", "config:write"], expiresInDays: 90 },
  updateMember: { role: "editor" },
  bootstrap: { email: "owner@shop.example" },
  createOrganization: { name: "Client: Bakery", ownerEmail: "owner@bakery.example" },
  putSsoConfiguration: {
    issuer: "https://shop.okta.example",
    clientId: "0oa1b2c3d4e5f6g7h8i9",
    clientSecret: "the-client-secret-from-the-provider",
    domains: ["shop.example"],
    defaultRole: "viewer",
  },
  startSsoSignIn: { email: "dpo@shop.example" },
  requestPrivacyCenterCode: { channel: "email", address: "anna@mail.example" },
  verifyPrivacyCenterCode: { channel: "email", address: "anna@mail.example", code: "493817" },
  filePrivacyCenterRequest: { kind: "objection", purposes: [purposeId] },
  updatePrivacyCenterSettings: {
    channels: { email: { aliasType: "urn:svc:email" }, sms: { aliasType: "urn:svc:phone" } },
    retentionDays: 90,
    theme: { "--assent-accent": "#0b6e4f" },
  },
  createScan: { origin: "https://shop.example" },
  updateScanSchedule: { schedule: "daily" },
};

/** The example of one media type of an operation's body, if there is one. */
export const requestExample = (operationId: string, mediaType: string) =>
  requestExamples[`${operationId} ${mediaType}`] ?? requestExamples[operationId];
