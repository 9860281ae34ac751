/** The vendored ATP list (test/fixtures/tcf) read as text (Vite's `?raw`). */
declare module "*.csv?raw" {
  const text: string;
  export default text;
}
