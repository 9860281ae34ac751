import { z } from "@hono/zod-openapi";
import { sendEmail } from "../email/outbox";
import type { Committer } from "../events/commit";
import { chooseDcs, segmentCount } from "../hub/encoding";
import { sendThroughOutbox } from "../hub/outbox";
import { defaultRoute } from "../hub/sms-routes";
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

/** A code to send, with the words of the visitor's language (`wordsIn`). */
type CodeMessage = { projectId: string; to: string; code: string; projectName: string; strings: Record<string, string> };

/** Names what the mail is without the code: subjects show in notifications and mail lists, and providers keep them. */
const codeSubject = ({ projectName, strings }: CodeMessage) => `${strings.heading} · ${projectName}: ${strings.code}`;

const codeText = (code: string, projectName: string) =>
  `${code} is your code for the privacy center of ${projectName}. It is valid for 10 minutes. If you did not ask for it, ignore this message.`;

export const channelRules: Record<Channel, ChannelRules> = {
  email: {
    address: z
      .email({ error: "Must be an email address (name@domain)." })
      .max(254)
      .transform((value) => value.toLowerCase()),
    defaultAliasType: "urn:svc:email",
    label: "email",
    deliver: ({ env, db }, message) =>
      sendEmail(env, db, { projectId: message.projectId, to: message.to, subject: codeSubject(message), text: codeText(message.code, message.projectName) }),
  },
  sms: {
    address: z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, "Must be a phone number in E.164 form: + then the country code and number, 7 to 15 digits."),
    defaultAliasType: "urn:svc:phone",
    label: "SMS",
    async deliver(committer, { projectId, to, code, projectName }) {
      const text = codeText(code, projectName);
      const dcs = chooseDcs(text);
      // The hub's default route: its provider, failover and delivery reports (docs/hub.md); the text goes once handed off.
      await sendThroughOutbox(committer, { projectId, clientId: "privacy-center" }, [
        { receiver: to, sender: "Privacy", text, dcs, segments: segmentCount(text, dcs), provider: defaultRoute, secret: true },
      ]);
    },
  },
};
