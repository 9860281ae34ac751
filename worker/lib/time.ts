/** Current time as ISO 8601 UTC with milliseconds: the one timestamp format the API returns. */
export const now = (): string => new Date().toISOString();
