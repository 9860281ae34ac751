/**
 * The opt-in hold of network calls (`data-hold-network` on the blocker's tag; docs/blocking.md#network-calls):
 * `fetch`, `XMLHttpRequest` and `navigator.sendBeacon` to a listed URL wait until its purposes are allowed, then go
 * out as they were made. Off by default: a page's own code awaiting such a call waits as long (for ever, when the
 * visitor refuses), which only the site can judge safe.
 */
type Waiting = { purposes: string[]; send(): void };

/** Starts holding; returns what sends the calls that may go now. */
export function holdNetwork(purposesOf: (url: string) => string[], allowed: (purpose: string) => boolean): () => void {
  let waiting: Waiting[] = [];
  const blocked = (url: unknown) => {
    const purposes = purposesOf(String(url));
    return purposes.length > 0 && !purposes.every(allowed) ? purposes : undefined;
  };
  /** Runs `send` now, or once `url` may be reached. */
  const later = (url: unknown, send: () => void) => {
    const purposes = blocked(url);
    if (purposes) waiting.push({ purposes, send });
    else send();
  };

  const fetch = window.fetch;
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    return new Promise<Response>((resolve, reject) => later(input instanceof Request ? input.url : input, () => fetch.call(window, input, init).then(resolve, reject)));
  };
  const beacon = navigator.sendBeacon;
  // The beacon is queued (true: it will be sent), as the browser itself queues one.
  navigator.sendBeacon = function (url, data) {
    if (!blocked(url)) return beacon.call(navigator, url, data);
    later(url, () => beacon.call(navigator, url, data));
    return true;
  };
  const xhr = XMLHttpRequest.prototype;
  const open = xhr.open;
  const send = xhr.send;
  const urls = new WeakMap<XMLHttpRequest, unknown>();
  xhr.open = function (this: XMLHttpRequest, ...args: unknown[]) {
    urls.set(this, args[1]);
    return (open as (...args: unknown[]) => void).apply(this, args);
  };
  xhr.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    later(urls.get(this), () => send.call(this, body));
  };

  return () => {
    const ready = waiting.filter((call) => call.purposes.every(allowed));
    waiting = waiting.filter((call) => !ready.includes(call));
    for (const call of ready) call.send();
  };
}
