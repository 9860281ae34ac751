// What the framework pages share: their settings from the test (the project in the query; a token the test
// injects, when the page is to use a tokenProvider) and the record of what the component's callbacks heard.
type TestWindow = { __heard?: string[]; __token?: string };

export function pageSettings() {
  const query = new URLSearchParams(location.search);
  const w = window as TestWindow;
  return {
    project: query.get("project")!,
    provider: query.has("provider") ? () => w.__token! : undefined,
  };
}

export function record(heard: string) {
  const w = window as TestWindow;
  (w.__heard ??= []).push(heard);
}
