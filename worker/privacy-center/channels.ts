import { z } from "@hono/zod-openapi";
import { sendEmail } from "../email/outbox";
import type { Committer } from "../events/commit";
import { sendThroughOutbox } from "../hub/outbox";
import { defaultRoute } from "../hub/sms-routes";
import { codeEmailText, codeSms, codeSubject, type CodeMessage } from "./code-message";
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
};

export const channelRules: Record<Channel, ChannelRules> = {
  email: {
    address: z
      .email({ error: "Must be an email address (name@domain)." })
      .max(254)
      .transform((value) => value.toLowerCase()),
    defaultAliasType: "urn:svc:email",
    label: "email",
    deliver: ({ env, db }, message) =>
      sendEmail(env, db, { projectId: message.projectId, to: message.to, subject: codeSubject(message), text: codeEmailText(message) }),
  },
  sms: {
    address: z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, "Must be a phone number in E.164 form: + then the country code and number, 7 to 15 digits."),
    defaultAliasType: "urn:svc:phone",
    label: "SMS",
    async deliver(committer, message) {
      // The hub's default route: its provider, failover and delivery reports (docs/hub.md); the text goes once handed off.
      await sendThroughOutbox(committer, { projectId: message.projectId, clientId: "privacy-center" }, [
        { receiver: message.to, sender: "Privacy", ...codeSms(message), provider: defaultRoute, secret: true },
      ]);
    },
  },
};
