import { parsePhoneNumberFromString, type NumberType } from "libphonenumber-js/max";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { logger } from "../lib/logger";
import { newId } from "../lib/ids";
import { areaGroups, defaultRules, type JurisdictionRules } from "../jurisdictions/rules";
import { capOf, countToday } from "../limits/daily";
import { opsWebhookConfigured, sendOpsEvent } from "../ops/notify";

/**
 * What the privacy center sends a code SMS to (issue 37, finding 3: SMS pumping). Codes cost the operator money per
 * message, more to premium and shared-cost ranges, whose revenue a pumper shares; so a number must be valid for its
 * country (libphonenumber's full metadata), of a type that receives SMS (mobile, or a range that may be either),
 * in a country the project allows, and within the project's daily cap of code SMS.
 */
const smsTypes: readonly NumberType[] = ["MOBILE", "FIXED_LINE_OR_MOBILE"];

/** The number's country, or why it cannot have a code (a message for `errors[].message`). */
export function phoneCountry(number: string): { country: string } | { refused: string } {
  const parsed = parsePhoneNumberFromString(number);
  if (!parsed?.isValid() || !parsed.country) return { refused: "Not a phone number of any country (E.164: + then the country code and number)." };
  const type = parsed.getType();
  if (!type || !smsTypes.includes(type)) {
    return { refused: `A ${type ? type.toLowerCase().replace(/_/g, "-") : "non-mobile"} number cannot receive a code; give a mobile number.` };
  }
  return { country: parsed.country };
}

/**
 * The countries a project sends codes to: those its privacy-center settings list, else those its jurisdiction rules
 * name (groups such as EEA expanded, a subdivision counting as its country), else the recommended preset's.
 */
export function smsCountries(listed: readonly string[] | undefined, rules: JurisdictionRules | null): Set<string> {
  if (listed) return new Set(listed);
  const named = (given: JurisdictionRules) => given.rules.flatMap(({ area }) => areaGroups[area] ?? [area.slice(0, 2)]);
  const fromRules = named(rules ?? defaultRules);
  return new Set(fromRules.length > 0 ? fromRules : named(defaultRules));
}

/**
 * Refuses a code SMS to a country the project does not allow (422 `country_not_allowed`), and past the project's
 * daily cap (429 `sms_cap_reached`); the SMS that reaches the cap alerts the operator (`ops.alert`, once a day).
 */
export async function admitSms(c: Context<AppEnv>, projectId: string, country: string, allowed: Set<string>): Promise<void> {
  if (!allowed.has(country)) {
    throw new ApiError(422, "country_not_allowed", `This project does not send codes to numbers of ${country}.`, { members: { allowed: [...allowed].sort() } });
  }
  const cap = capOf(c.env, "sms-per-project");
  const sent = await countToday(c.var.db, "sms-per-project", projectId);
  if (sent === cap && opsWebhookConfigured(c.env)) {
    const event = { id: newId("evt"), type: "ops.alert" as const, created: new Date().toISOString(), data: { rule: "sms_daily_cap", projectId, cap } };
    c.executionCtx.waitUntil(sendOpsEvent(c.env, event).catch((error) => logger.error("ops_alert_failed", { projectId, rule: "sms_daily_cap" }, error)));
  }
  if (sent > cap) {
    throw new ApiError(429, "sms_cap_reached", `This project has sent its ${cap} code SMS for today; try email, or again tomorrow (UTC).`, {
      headers: { "Retry-After": String(secondsToMidnight()) },
    });
  }
}

const secondsToMidnight = () => {
  const now = new Date();
  return Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000);
};
