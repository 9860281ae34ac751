/** Documentation read as text (Vite's `?raw`), for tests that hold a documented table to the code's. */
declare module "*.md?raw" {
  const text: string;
  export default text;
}
