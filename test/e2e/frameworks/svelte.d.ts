// The test's own Svelte page, for TypeScript (which cannot read .svelte files): a component without props.
declare module "*.svelte" {
  import type { Component } from "svelte";
  const component: Component<Record<string, never>>;
  export default component;
}
