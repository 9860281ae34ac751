// Mounts the Svelte page (SveltePage.svelte, compiled by frameworks.test.ts's bundler with svelte/compiler).
import { mount } from "svelte";
import SveltePage from "./SveltePage.svelte";

mount(SveltePage, { target: document.getElementById("root")! });
