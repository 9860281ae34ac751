/**
 * The one way the Worker logs (docs/operations-data.md#logs): one object per line, which Workers Logs and Logpush
 * keep as JSON fields. A line holds only the fields below: what happened and where, never who. Identity ids,
 * aliases, reference ids, IP addresses, bodies and tokens have no field here, and free text (an error's message) is
 * masked for the shapes of personal data before it is written.
 */
export type LogFields = {
  /** Cloudflare's ray id, or one the Worker made; answered in `X-Request-Id`. */
  requestId?: string;
  method?: string;
  /** The route's pattern (`/privacy/v2/projects/:project_id/identities/:identityId`), never the path. */
  route?: string | null;
  projectId?: string;
  status?: number;
  durationMs?: number;
  /** The problem's stable `code` (RFC 9457), or the failure's own. */
  code?: string;
  /** A cron job's name, or a background step (`dispatch`, `redelivery`). */
  job?: string;
  /** A binding: the D1 database or the KV namespace concerned. */
  binding?: string;
  /** A storage operation (`get`, `put`, …) and the kind of key it touched (worker/lib/kv.ts). */
  operation?: string;
  keyPrefix?: string;
  /** A webhook delivery: operator data, names no data subject. */
  deliveryId?: string;
  /** An alert rule of the operator's counters (worker/ops). */
  rule?: string;
  /** How many rows a job changed, and how many it had to leave (e.g. secrets neither key reads). */
  count?: number;
  skipped?: number;
};

type Level = "info" | "warn" | "error";

/** E-mail addresses, IP addresses and phone numbers in free text, each with what replaces it. */
const masks: [RegExp, string][] = [
  [/[\w.%+-]+@[\w-]+(\.[\w-]+)+/g, "[e-mail]"],
  [/\b(?:\d{1,3}\.){3}\d{1,3}\b/g, "[address]"],
  [/\b[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}\b/gi, "[address]"],
  [/\+?\d[\d ()-]{6,}\d/g, "[number]"],
  [/\bidn_[0-9A-Z]{26}\b/g, "[identity]"],
];

/** `text` cut to 300 characters with personal data's shapes masked. */
export const masked = (text: string) => masks.reduce((out, [shape, mask]) => out.replace(shape, mask), text.slice(0, 300));

/**
 * An error as a log line takes it: its name and first message line, masked, and its cause's (a query error wraps
 * the database's own, which says what went wrong); never its stack.
 */
export function describeError(error: unknown): { error: string; message: string } {
  const { name, message } = error instanceof Error ? error : { name: typeof error, message: String(error) };
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message.split("\n")[0]}` : "";
  return { error: name, message: masked(message.split("\n")[0] + cause) };
}

function write(level: Level, event: string, fields: LogFields & Partial<ReturnType<typeof describeError>>) {
  const line = { level, event, ...fields };
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

export const logger = {
  info: (event: string, fields: LogFields = {}) => write("info", event, fields),
  warn: (event: string, fields: LogFields = {}, error?: unknown) => write("warn", event, { ...fields, ...(error === undefined ? {} : describeError(error)) }),
  error: (event: string, fields: LogFields = {}, error?: unknown) => write("error", event, { ...fields, ...(error === undefined ? {} : describeError(error)) }),
};
