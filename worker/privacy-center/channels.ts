import { z } from "@hono/zod-openapi";
import { sendEmail } from "../email/outbox";
import { normalAlias } from "../identities/normalise";
import type { Committer } from "../events/commit";
import { sendThroughOutbox, type NewSms } from "../hub/outbox";
import { defaultRoute } from "../hub/sms-routes";
import { codeEmailText, codeSms, codeSubject, warningSms, warningSubject, warningText, type CodeMessage, type Warning } from "./code-message";
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
      .regex(/^\+[1-9]\d{6,14}$/, "Must be a phone number in E.164 form: + then the country code and number, 7 to 15 digits."),
    defaultAliasType: "urn:svc:phone",
    label: "SMS",
    // A code's text goes once handed off (secret); the warning holds nothing secret.
    deliver: async (committer, message) => void (await smsThroughHub(committer, message.projectId, message.to, codeSms(message), true)),
    warn: async (committer, warning) => void (await smsThroughHub(committer, warning.projectId, warning.to, warningSms(warning), false)),
  },
};
