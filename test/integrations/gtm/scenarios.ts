/**
 * Tag Manager's template test API, as the TESTS section's scenarios use it (developers.google.com/tag-platform/
 * tag-manager/templates/tests): `mock`, `runCode`, `assertApi`, `assertThat`, `fail`. As in Tag Manager's
 * editor, a scripts loads nothing there: an unmocked `injectScript` calls neither callback.
 */
import { isDeepStrictEqual } from "node:util";
import { runTemplate, unsupportedSyntax, type Run } from "./sandbox";
import type { Permissions, Scenario } from "./template-file";

export function runScenario(scenario: Scenario, code: string, permissions: Permissions): void {
  const problems = unsupportedSyntax(scenario.code);
  if (problems.length) throw new SyntaxError(`Scenario "${scenario.name}" uses ${problems.join(", ")}, which the sandbox lacks.`);
  const mocks: Record<string, (...args: unknown[]) => unknown> = {};
  let run: Run | undefined;
  const ran = () => run ?? fail("assertApi before runCode");
  const fail = (message = "failed"): never => {
    throw new Error(`${scenario.name}: ${message}`);
  };
  const assertApi = (name: string) => {
    const calls = () => (name === "gtmOnSuccess" || name === "gtmOnFailure" ? (ran().outcome === (name === "gtmOnSuccess" ? "success" : "failure") ? [[]] : []) : ran().calls.filter((c) => c.api === name).map((c) => c.args));
    return {
      wasCalled: () => void (calls().length || fail(`${name} was not called`)),
      wasNotCalled: () => void (calls().length && fail(`${name} was called`)),
      wasCalledWith: (...args: unknown[]) => void (calls().some((c) => isDeepStrictEqual(c, args)) || fail(`${name} was not called with ${JSON.stringify(args)}: ${JSON.stringify(calls())}`)),
      wasNotCalledWith: (...args: unknown[]) => void (calls().some((c) => isDeepStrictEqual(c, args)) && fail(`${name} was called with ${JSON.stringify(args)}`)),
    };
  };
  const assertThat = (actual: unknown, message?: string) => {
    const check = (ok: boolean, what: string) => void (ok || fail(message ?? `expected ${JSON.stringify(actual)} ${what}`));
    return {
      isEqualTo: (expected: unknown) => check(isDeepStrictEqual(actual, expected), `to equal ${JSON.stringify(expected)}`),
      isNotEqualTo: (expected: unknown) => check(!isDeepStrictEqual(actual, expected), `not to equal ${JSON.stringify(expected)}`),
      isDefined: () => check(actual !== undefined, "to be defined"),
      isUndefined: () => check(actual === undefined, "to be undefined"),
      isTrue: () => check(actual === true, "to be true"),
      isFalse: () => check(actual === false, "to be false"),
      contains: (item: unknown) => check(typeof actual === "string" ? actual.includes(String(item)) : Array.isArray(actual) && actual.some((a) => isDeepStrictEqual(a, item)), `to contain ${JSON.stringify(item)}`),
      hasLength: (length: number) => check((actual as unknown[] | string)?.length === length, `to have length ${length}`),
    };
  };
  const mock = (name: string, implementation: (...args: unknown[]) => unknown) => void (mocks[name] = implementation);
  const runCode = (data: Record<string, unknown>) => {
    run = runTemplate(code, permissions, data, { page: { window: {}, loadScript: () => {} }, mocks });
  };
  new Function("mock", "runCode", "assertApi", "assertThat", "fail", scenario.code)(mock, runCode, assertApi, assertThat, fail);
}
