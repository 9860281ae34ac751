import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64, base64url, fromBase64, fromBase64url, fromHex, hex } from "../../worker/lib/crypto";

/** RFC 4648 from the bytes' binary string, as btoa writes it (§4), and §5 without padding. */
const referenceBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const referenceBase64url = (bytes: Uint8Array) => referenceBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const referenceHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

describe("the encodings of worker/lib/crypto.ts", () => {
  it("write RFC 4648 base64 (§4), base64url without padding (§5) and lower-case hex, for any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3_000 }), (bytes) => {
        expect(base64(bytes)).toBe(referenceBase64(bytes));
        expect(base64url(bytes)).toBe(referenceBase64url(bytes));
        expect(hex(bytes)).toBe(referenceHex(bytes));
        expect(hex(bytes.buffer)).toBe(referenceHex(bytes));
      }),
      { numRuns: 500 },
    );
  });

  it("read back what they write, base64url with or without padding", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(fromBase64(base64(bytes))).toEqual(bytes);
        expect(fromBase64url(base64url(bytes))).toEqual(bytes);
        expect(fromBase64url(referenceBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_"))).toEqual(bytes);
        expect(fromHex(hex(bytes))).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });

  it("refuse what is not their encoding", () => {
    expect(() => fromBase64url("a+b/")).toThrow(SyntaxError);
    expect(() => fromBase64("a-b_")).toThrow(SyntaxError);
    expect(() => fromBase64url("abcde")).toThrow(SyntaxError);
    expect(() => fromHex("abc")).toThrow(SyntaxError);
    expect(() => fromHex("zz")).toThrow(SyntaxError);
  });
});
