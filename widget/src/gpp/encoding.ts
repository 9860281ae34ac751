/**
 * The GPP string (IAB Global Privacy Platform, "Consent String Specification" v1): a header section listing the
 * section ids, then each section, joined by `~`. A section is its core segment and, where the section has one, the
 * GPC subsection, joined by `.`. Every segment is a bit string written most significant bit first and encoded in
 * base64url without padding (the bits padded with zeros to whole bytes).
 */
import { gppSections, type GppSectionName } from "./sections";

/** A section's field values by name: 2-bit integers, lists of them, and `Gpc`. Absent fields are 0 (not applicable). */
export type SectionValues = Record<string, number | number[] | boolean>;

const bits = (value: number, width: number) => value.toString(2).padStart(width, "0");

/** Fibonacci coding (Zeckendorf, least significant first, ended by an extra 1), as the header's section ids use. */
function fibonacci(value: number) {
  const fibs = [1, 2];
  while (fibs[fibs.length - 1] + fibs[fibs.length - 2] <= value) fibs.push(fibs[fibs.length - 1] + fibs[fibs.length - 2]);
  let rest = value;
  const out = fibs.map(() => "0");
  for (let i = fibs.length - 1; i >= 0; i--) {
    if (fibs[i] <= rest) {
      rest -= fibs[i];
      out[i] = "1";
    }
  }
  return out.join("").replace(/0+$/, "") + "1";
}

/** Ascending ids as a count of runs, each a single id or a range, every number an offset from the previous one. */
function fibonacciRange(ids: number[]) {
  const runs: number[][] = [];
  for (const id of ids) {
    const run = runs[runs.length - 1];
    if (run && run[run.length - 1] + 1 === id) run.push(id);
    else runs.push([id]);
  }
  let offset = 0;
  let out = bits(runs.length, 12);
  for (const run of runs) {
    const [first, last] = [run[0], run[run.length - 1]];
    if (run.length === 1) out += "0" + fibonacci(first - offset);
    else out += "1" + fibonacci(first - offset) + fibonacci(last - first);
    offset = last;
  }
  return out;
}

export function base64url(bitString: string) {
  const bytes = bitString.padEnd(Math.ceil(bitString.length / 8) * 8, "0").match(/.{8}/g) ?? [];
  return btoa(bytes.map((byte) => String.fromCharCode(parseInt(byte, 2))).join("")).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** One section's string: the core segment, and the GPC subsection (type 1, then the signal) where the section has it. */
export function sectionString(name: GppSectionName, values: SectionValues) {
  const { version, gpc, fields } = gppSections[name];
  let core = bits(version, 6);
  for (const [field, width, count] of fields) {
    const value = values[field] ?? 0;
    core += count ? Array.from({ length: count }, (_, i) => bits((value as number[])[i] ?? 0, width)).join("") : bits(value as number, width);
  }
  return base64url(core) + (gpc ? "." + base64url("01" + (values.Gpc ? "1" : "0")) : "");
}

/** The whole GPP string for the sections given, in the order of their ids. */
export function gppString(sections: Partial<Record<GppSectionName, SectionValues>>) {
  const names = (Object.keys(sections) as GppSectionName[]).sort((a, b) => gppSections[a].id - gppSections[b].id);
  const header = base64url(bits(3, 6) + bits(1, 6) + fibonacciRange(names.map((name) => gppSections[name].id)));
  return [header, ...names.map((name) => sectionString(name, sections[name]!))].join("~");
}
