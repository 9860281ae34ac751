/**
 * Which methods the app's routes serve on a path: a known path asked with another method is 405 with `Allow`
 * (RFC 9110 §15.5.6), not 404. GET routes answer HEAD too (Hono runs the GET handler without the body).
 */
export function allowedMethods(routes: readonly { method: string; path: string }[]): (pathname: string) => string[] {
  const patterns = routes
    .filter((route) => route.method !== "ALL")
    .map((route) => ({
      method: route.method,
      pattern: new RegExp(
        `^${route.path
          .split("/")
          .map((part) => (part.startsWith(":") ? "[^/]+" : part === "*" ? ".*" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
          .join("/")}/?$`,
      ),
    }));
  return (pathname) => {
    const methods = new Set(patterns.filter(({ pattern }) => pattern.test(pathname)).map(({ method }) => method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods];
  };
}
