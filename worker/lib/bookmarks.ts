/**
 * `Assent-Bookmark`, sealed. A D1 bookmark is the database's position (`00000085-0000024c-…`, hex fields that grow
 * with every write): handed out as it is, two answers tell a caller how many writes all projects on that database
 * made in between. The header carries it encrypted (AES-256-GCM, a fresh IV each time, under a key derived with HKDF
 * from `WEBHOOK_SECRETS_KEY`), so it round-trips unchanged and reveals nothing; a sealed bookmark cannot be altered or
 * made up either. During a rotation of that secret, bookmarks sealed under `WEBHOOK_SECRETS_KEY_PREVIOUS` still open.
 */
import type { Env } from "../env";
import { base64url, derivedAesKey, fromBase64url } from "./crypto";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const version = "b1.";

/** What a sealed bookmark looks like: the version, then the IV and the ciphertext in base64url (D1's are under 100 bytes). */
export const sealedBookmarkPattern = /^b1\.[A-Za-z0-9_-]{40,400}$/;
/** What D1 bookmarks look like: hex fields; nothing else reaches D1. */
const d1BookmarkPattern = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{1,64}$/i;

const bookmarkKey = (master: string) => derivedAesKey(master, "d1-bookmarks/v1");

type BookmarkKeys = Pick<Env, "WEBHOOK_SECRETS_KEY" | "WEBHOOK_SECRETS_KEY_PREVIOUS">;

/** The bookmark sealed for the header, or undefined where the deployment has no key (bookmarks then stay inside). */
export async function sealBookmark(env: BookmarkKeys, bookmark: string): Promise<string | undefined> {
  if (!env.WEBHOOK_SECRETS_KEY?.trim()) return undefined;
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await bookmarkKey(env.WEBHOOK_SECRETS_KEY), encoder.encode(bookmark)));
  const joined = new Uint8Array(iv.length + sealed.length);
  joined.set(iv);
  joined.set(sealed, iv.length);
  return version + base64url(joined);
}

/** The D1 bookmark a header sealed, or undefined when it is not one this service sealed (altered, made up, another key). */
export async function openBookmark(env: BookmarkKeys, header: string): Promise<string | undefined> {
  if (!sealedBookmarkPattern.test(header)) return undefined;
  for (const master of [env.WEBHOOK_SECRETS_KEY, env.WEBHOOK_SECRETS_KEY_PREVIOUS]) {
    if (!master?.trim()) continue;
    try {
      const joined = fromBase64url(header.slice(version.length));
      const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: joined.slice(0, 12) }, await bookmarkKey(master), joined.slice(12));
      const bookmark = decoder.decode(plain);
      if (d1BookmarkPattern.test(bookmark)) return bookmark;
    } catch {
      // Not base64url, or not sealed under this key: the next key, if any.
    }
  }
  return undefined;
}
