// `npm run scan -- <url> …` (docs/scanner.md): the scanner's CLI, TypeScript that Node 22 runs as it is (type
// stripping; its relative imports name their `.ts` files, as Node requires).
import { main } from "../scanner/cli.ts";

process.exitCode = await main(process.argv.slice(2));
