import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64url } from "../../worker/lib/crypto";

/** RFC 4648 §5 without padding, from the bytes' binary string. */
const referenceBase64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

describe("base64url", () => {
  it("base64url writes RFC 4648 §5 without padding, for any bytes", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 3_000 }), (bytes) => {
      expect(base64url(bytes)).toBe(referenceBase64url(bytes));
    }), { numRuns: 500 });
  });
});
