// The one-time code's own words: the email's body and the SMS are in the visitor's language (Accept-Language, with the
// widget's negotiation), as the subject and the page are; English for a language the widget does not ship. Read from
// the captured email outbox and the hub's SMS outbox (no provider: outbox only), as a person would receive them.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { admin, call, ok } from "./helpers";
import { centerTenant, freshAddress, uniqueEmail, uniquePhone } from "./privacy-center-helpers";

const codeFrom = (projectId: string, body: object, language: string) =>
  call("POST", `/browser/v1/projects/${projectId}/privacy-center/codes`, {
    body,
    headers: { "cf-connecting-ip": freshAddress(), "accept-language": language },
  });

async function emailIn(language: string) {
  const tenant = await centerTenant();
  const address = uniqueEmail();
  ok(await codeFrom(tenant.projectId, { channel: "email", address }, language), 202);
  return vi.waitFor(
    async () => {
      const { items } = ok(await admin("GET", `/projects/${tenant.projectId}/email-outbox?to=${encodeURIComponent(address)}`)) as {
        items: { subject: string; text: string }[];
      };
      expect(items).toHaveLength(1);
      return items[0];
    },
    { timeout: 10_000, interval: 50 },
  );
}

async function smsIn(language: string) {
  const tenant = await centerTenant();
  ok(await codeFrom(tenant.projectId, { channel: "sms", address: uniquePhone() }, language), 202);
  return vi.waitFor(
    async () => {
      const row = await env.DB.prepare("SELECT text, encoding AS dcs, segments, status FROM sms_messages WHERE project_id = ?")
        .bind(tenant.projectId)
        .first<{ text: string; dcs: string; segments: number; status: string }>();
      expect(row?.status).toBe("outbox_only");
      return row!;
    },
    { timeout: 10_000, interval: 50 },
  );
}

describe("the code's email, in the visitor's language", () => {
  it("is Swedish for a Swedish visitor: the code first, then how long it lasts and what to do if unasked", async () => {
    const mail = await emailIn("sv-SE, sv;q=0.9, en;q=0.5");
    expect(mail.subject).toMatch(/^Integritetscenter · /);
    expect(mail.text).toMatch(/^\d{6} är din kod till integritetscentret för .+\. Den gäller i 10 minuter\.\n\nOm du inte har bett om koden kan du bortse från det här meddelandet\.$/);
  });

  it("is Arabic, right to left, for an Arabic visitor", async () => {
    const mail = await emailIn("ar");
    expect(mail.text).toMatch(/^\d{6} هو رمزك لمركز الخصوصية لدى .+\. وهو صالح لمدة 10 دقائق\.\n\nإذا لم تطلب هذا الرمز، فتجاهل هذه الرسالة\.$/);
  });

  it("is English for a language the widget does not ship", async () => {
    const mail = await emailIn("kl");
    expect(mail.text).toMatch(/^\d{6} is your code for the privacy center of .+\. It is valid for 10 minutes\.\n\nIf you did not ask for it, ignore this message\.$/);
  });
});

describe("the code's SMS, in the visitor's language", () => {
  it("is Swedish for a Swedish visitor, the code first, in GSM-7 (Swedish letters are in its alphabet)", async () => {
    const sms = await smsIn("sv");
    expect(sms.text).toMatch(/^\d{6} är din kod till integritetscentret för .+\. Den gäller i 10 minuter\.$/);
    expect(sms).toMatchObject({ dcs: "gsm", segments: 1 });
  });

  it("is Arabic for an Arabic visitor, the code first, in UCS-2 and at most two segments", async () => {
    const sms = await smsIn("ar");
    expect(sms.text).toMatch(/^\d{6} هو رمزك لمركز الخصوصية لدى .+\. وهو صالح لمدة 10 دقائق\.$/);
    expect(sms.dcs).toBe("ucs");
    expect(sms.segments).toBeLessThanOrEqual(2);
  });

  it("is English for a language the widget does not ship", async () => {
    const sms = await smsIn("kl");
    expect(sms.text).toMatch(/^\d{6} is your code for the privacy center of .+\. It is valid for 10 minutes\.$/);
  });
});
