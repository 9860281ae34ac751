import { z } from "@hono/zod-openapi";
import { sendEmail } from "../email/outbox";
import { normalAlias } from "../identities/normalise";
import type { Committer } from "../events/commit";
import { sendThroughOutbox, type NewSms } from "../hub/outbox";
import { defaultRoute } from "../hub/sms-routes";
import { codeEmailText, codeSms, codeSubject, warningSms, warningSubject, warningText, type CodeMessage, type Warning } from "./code-message";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import type { JurisdictionRules } from "../jurisdictions/rules";
import { admitSms, phoneCountry, smsCountries } from "./phones";
import type { Settings } from "./settings";
import type { Channel } from "./table";

/**
 * The two channels as data: how an address is checked and written, the alias type it is looked up under by default,
 * and how a code reaches it. Nothing outside this table branches on the channel.
 */
export type ChannelRules = {
  /** Checks and normalises an address (lower-case email; E.164 phone number). */
  address: z.ZodType<string>;
  defaultAliasType: string;
  /** How the verification record and the portal name it ("verified by email"). */
  label: string;
  deliver(committer: Committer, message: CodeMessage): Promise<void>;
  /** What else a code to this address needs (the SMS's country and the project's daily cap); throws if refused. */
  admit?(c: Context<AppEnv>, projectId: string, address: string, project: { settings: Settings; rules: JurisdictionRules | null }): Promise<void>;
  /** Tells the address it is being tried (worker/privacy-center/guard.ts). */
  warn(committer: Committer, warning: Warning): Promise<void>;
};

/** The hub's default route: its provider, failover and delivery reports (docs/hub.md). */
const smsThroughHub = (committer: Committer, projectId: string, to: string, sms: Pick<NewSms, "text" | "dcs" | "segments">, secret: boolean) =>
  sendThroughOutbox(committer, { projectId, clientId: "privacy-center" }, [{ receiver: to, sender: "Privacy", ...sms, provider: defaultRoute, secret }]);

export const channelRules: Record<Channel, ChannelRules> = {
  email: {
    address: z
      .email({ error: "Must be an email address (name@domain)." })
      .max(254)
      .transform((value) => normalAlias("urn:svc:email", value)),
    defaultAliasType: "urn:svc:email",
    label: "email",
    deliver: ({ env, db }, message) =>
      sendEmail(env, db, { projectId: message.projectId, to: message.to, subject: codeSubject(message), text: codeEmailText(message) }),
    warn: ({ env, db }, warning) => sendEmail(env, db, { projectId: warning.projectId, to: warning.to, subject: warningSubject(warning), text: warningText(warning) }),
  },
  sms: {
    address: z
      .string()
      .transform((value) => normalAlias("urn:svc:phone", value))
      .pipe(z.string().regex(/^\+[1-9]\d{6,14}$/, "Must be a phone number in E.164 form: + then the country code and number, 7 to 15 digits."))
      .superRefine((value, ctx) => {
        const found = phoneCountry(value);
        if ("refused" in found) ctx.addIssue({ code: "custom", message: found.refused });
      }),
    defaultAliasType: "urn:svc:phone",
    label: "SMS",
    admit: (c, projectId, address, { settings, rules }) =>
      admitSms(c, projectId, (phoneCountry(address) as { country: string }).country, smsCountries(settings.smsCountries, rules)),
    // A code's text goes once handed off (secret); the warning holds nothing secret.
    deliver: async (committer, message) => void (await smsThroughHub(committer, message.projectId, message.to, codeSms(message), true)),
    warn: async (committer, warning) => void (await smsThroughHub(committer, warning.projectId, warning.to, warningSms(warning), false)),
  },
};
