// The admin SMS blacklist stores senders only (issue 37, finding 8): a name or a phone number valid for its country;
// NUL bytes, control characters and numbers of no country are 400 and stored nowhere.
import { describe, expect, it } from "vitest";
import { admin, expectProblem, ok } from "./helpers";

describe("the SMS sender blacklist", () => {
  it("refuses keys that are neither a sender name nor a valid phone number", async () => {
    for (const sender of ["%00abc", "abc%00", "%0A", "+123", "+88234567890123", "<script>"]) {
      expectProblem(await admin("PUT", `/sms/blacklist/${sender}`), 400, "validation_failed");
    }
    const listed = ok(await admin("GET", "/sms/blacklist")) as unknown as { items: { sender: string }[] };
    expect(listed.items.map((item) => item.sender).filter((sender) => /[\0\n<]|^\+(123|882)/.test(sender))).toEqual([]);
    ok(await admin("PUT", "/sms/blacklist/%2B46701234567"), 201);
    ok(await admin("PUT", `/sms/blacklist/Acme-${crypto.randomUUID().slice(0, 4)}`), 201);
  });
});
