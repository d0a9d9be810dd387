// Regenerates the JavaScript ground-truth tables in this folder.
// Run from this folder with Node 20 or newer: node gen.mjs
// The Go tests only read the JSON files; Node is not needed to run them.
import { writeFileSync } from "node:fs";

const meta = {
  generator: "core/normalize/testdata/gen.mjs",
  node: process.versions.node,
  unicode: process.versions.unicode,
  icu: process.versions.icu,
};

function* codePoints() {
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue; // lone surrogates are out of scope
    yield cp;
  }
}

function toRanges(cps) {
  const ranges = [];
  for (const cp of cps) {
    const last = ranges[ranges.length - 1];
    if (last && last[1] + 1 === cp) last[1] = cp;
    else ranges.push([cp, cp]);
  }
  return ranges;
}

// One array element per line keeps the tables reviewable in a diff.
function write(name, body) {
  const parts = Object.entries({ meta, ...body }).map(([key, value]) => {
    const text = Array.isArray(value)
      ? "[\n" + value.map((item) => "  " + JSON.stringify(item)).join(",\n") + "\n ]"
      : JSON.stringify(value);
    return " " + JSON.stringify(key) + ": " + text;
  });
  writeFileSync(new URL(name, import.meta.url), "{\n" + parts.join(",\n") + "\n}\n");
}

// Code points that String.prototype.trim removes.
const trimmed = [];
for (const cp of codePoints()) {
  if (String.fromCodePoint(cp).trim() === "") trimmed.push(cp);
}
write("js_trim.json", { trimmed });

// Every code point that String.prototype.toLowerCase changes when it stands
// alone, as [code point, ...its lower-case code points].
const lower = [];
for (const cp of codePoints()) {
  const s = String.fromCodePoint(cp);
  const l = s.toLowerCase();
  if (l !== s) lower.push([cp, ...[...l].map((c) => c.codePointAt(0))]);
}
write("js_lower.json", { lower });

// How the engine's final-sigma rule sees each code point: "cased" letters
// make a sigma final (before it) or not final (after it); "ignorable" ones
// are skipped while looking; every other code point ends the look.
const SIGMA = "\u03a3";
const finalSigma = (s) => s.toLowerCase().endsWith("\u03c2");
const cased = [];
const ignorable = [];
const inconsistent = [];
for (const cp of codePoints()) {
  const x = String.fromCodePoint(cp);
  const isCased = finalSigma(x + SIGMA);
  const passes = finalSigma("A" + x + SIGMA);
  if (isCased) cased.push(cp);
  else if (passes) ignorable.push(cp);
  // After the sigma: only a cased code point keeps it from being final.
  const afterIsFinal = ("A" + SIGMA + x).toLowerCase()[1] === "\u03c2";
  if (afterIsFinal === isCased) inconsistent.push(cp);
}
if (inconsistent.length > 0) {
  console.error("final-sigma classes disagree before/after for", inconsistent.length, "code points");
}
write("js_sigma_classes.json", { cased: toRanges(cased), ignorable: toRanges(ignorable) });

// Whole strings: hand-picked cases plus seeded random mixes around sigma.
const picked = [
  "", "ABC", "Hello World", "\u03a3", "A\u03a3", "\u0391\u03a3", "A\u03a3\u03a3", "A\u03a3B",
  "\u02b0\u03a3", "A\u03a3\u02b0", "\u0345\u03a3", "A\u0345\u03a3", "A\u03a3\u0345", "A'\u03a3", "A\u03a3'",
  "A\u03a3.b", "A\u03a3:b", "A.\u03a3", "A \u03a3", "\u0130", "I\u0130i", "\u212a", "\u1e9e", "\u00df",
  "\u0130\u03a3", "\u03a3\u0130", "\ud801\udc00\u03a3", "\ud835\udc00\u03a3", "1\u03a3", "\u03a3\u03a3\u03a3",
  "\u039f\u0394\u03a5\u03a3\u03a3\u0395\u03a5\u03a3", "src/\u03a3/x", "A\u00ad\u03a3", "A\u0300\u03a3 b",
];
const pool = [
  "\u03a3", "A", "a", "\u02b0", "\u0345", "'", ".", ":", " ", "\u0130", "1", "\u00ad", "\ud801\udc00",
  "\ud835\udc00", "\u0300", "/", "\u212a", "\u1f88", "\u01c5", "\u2160", "\u24b6", "\u00b7", "\u2019",
];
let seed = 0x2545f491;
const rand = (n) => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 8) % n;
};
const strings = new Set(picked);
while (strings.size < picked.length + 400) {
  let s = "";
  const len = 1 + rand(6);
  for (let i = 0; i < len; i++) s += pool[rand(pool.length)];
  strings.add(s);
}
write("js_lower_strings.json", { cases: [...strings].map((s) => [s, s.toLowerCase()]) });

// Default Array.prototype.sort order (UTF-16 code units) of a seeded mix of
// strings, with duplicates, around the places where it differs from code
// point order (U+E000..U+FFFF against supplementary code points).
const sortPool = [
  "", "a", "A", "b", "ab", "a/b", "a-b", "a.b", "\u00e9", "e\u0301", "\uff5e", "\ufffd", "\ue000",
  "\ud83d\ude00", "\ud800\udc00", "\udbff\udfff", "\u10ff", "z", "\ud83d\ude00a", "\uff5ea", "src/app",
  "src/app/x", "src/application", "SRC/app", "\u03a3", "\u0130",
];
const sortInput = [];
for (let i = 0; i < 120; i++) {
  const n = 1 + rand(3);
  let s = "";
  for (let j = 0; j < n; j++) s += sortPool[rand(sortPool.length)];
  sortInput.push(s);
}
write("js_sort.json", { input: sortInput, sorted: [...new Set(sortInput)].sort() });
