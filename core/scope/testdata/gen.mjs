// Regenerates the JavaScript ground-truth tables in this folder.
// Run from this folder with Node 20 or newer: node gen.mjs
// The Go tests only read the JSON files; Node is not needed to run them.
import { writeFileSync } from "node:fs";
import { posix } from "node:path";

const meta = {
  generator: "core/scope/testdata/gen.mjs",
  node: process.versions.node,
  unicode: process.versions.unicode,
  icu: process.versions.icu,
};

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

let seed = 0x5eed1234;
const rand = (n) => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 8) % n;
};

// Every path of up to four segments drawn from a small alphabet, with and
// without leading "./", "/" and trailing "/", plus hand-picked oddities.
const segments = ["a", "b", ".", "..", "", "...", " ", ".a"];
const paths = new Set([
  "", ".", "..", "/", "//", "///", "./", "../", ".//", ".//a", "./.", "././a", "a//b///c", "a/./b/./", "a/..",
  "a/../", "a/../..", "x/../y", "./src/app/", "src//app", "src/z", " sp", "z/**", "a\\b", "/abs", "a/b/../../..",
  "\u00e9/../e\u0301", "src/\ud83e\udd8a/..", "...", ".../..", "a/.../b", "//a//", "./../a", "a/b/",
]);
const build = (n, prefix) => {
  if (n === 0) return;
  for (const s of segments) {
    const p = prefix === null ? s : prefix + "/" + s;
    for (const lead of ["", "./", "/"]) paths.add(lead + p);
    paths.add(p + "/");
    build(n - 1, p);
  }
};
build(3, null);
const normalized = [...paths].map((p) => [p, posix.normalize(p)]);
write("posix_normalize.json", { cases: normalized });

// The contract's steps for one scope (§7), on Node's path.posix:
// [raw, normalised or null, refusal ("shape" | "root") or null].
const pipeline = (raw) => {
  if (raw.length === 0 || raw.length > 500 || raw.includes("\0") || raw.includes("\\") || raw.startsWith("/")) {
    return [raw, null, "shape"];
  }
  const out = posix.normalize(raw.startsWith("./") ? raw.slice(2) : raw).replace(/\/$/, "");
  if (out === "" || out === "." || out === ".." || out.startsWith("../")) return [raw, null, "root"];
  return [raw, out, null];
};
write("scope_pipeline.json", { cases: [...paths].map(pipeline) });

// Keys used by the conflict check: NFC, then JavaScript lower-casing.
const keyOf = (s) => s.normalize("NFC").toLowerCase();
const keyPool = [
  "src/app", "SRC/App", "src/Foo.ts", "caf\u00e9", "cafe\u0301", "CAFE\u0301", "\u0130stanbul", "\u212a/x",
  "\u039f\u0394\u039f\u03a3/x", "\u03bf\u03b4\u03bf\u03c2/x", "\u03a3\u03a3", "\u1e9e/\u00df", "\u1f88", "\u01c5/x",
  "\u2160", "\ud801\udc00", "a\u0345\u03a3", "\u0391\u0301\u03a3", "\u00c5", "\u212b", "A\u030a", "\u1100\u1161",
  "\u0958", "\u2126", "\u03a9", "\u1e0a\u0323", "\u1e0c\u0307", "q\u0307\u0323", "z/**",
];
write("keys.json", { cases: keyPool.map((s) => [s, keyOf(s)]) });

// NFC of every decomposable code point's canonical decomposition, and of
// every code point that NFC changes (singletons and composition exclusions).
// Hangul syllables are algorithmic; a stride of them is enough.
const nfc = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  if (cp >= 0xac00 && cp <= 0xd7a3 && (cp - 0xac00) % 97 !== 0) continue;
  const s = String.fromCodePoint(cp);
  const d = s.normalize("NFD");
  if (d !== s) nfc.push([d, d.normalize("NFC")]);
  const c = s.normalize("NFC");
  if (c !== s) nfc.push([s, c]);
}
write("nfc.json", { cases: nfc });

// Conflict pairs for seeded random scope lists, by the contract's rule.
const conflictPool = [
  "src", "src/app", "src/application", "src/app/x", "SRC/APP", "src/app ", " src/app", "z/**", "z/x", "z",
  "caf\u00e9", "cafe\u0301/menu", "\u039f\u0394\u039f\u03a3", "\u03bf\u03b4\u03bf\u03c2/\u03b1", "\u0130", "i\u0307/x",
  "i", "\u212a", "k/y", "docs/readme.md", "docs", "docs-old", "a/b/c", "A/B", "a.b", "a", "\u1e9e", "\u00df/x",
];
const conflicts = (left, right) => {
  const pairs = [];
  for (const a of left) {
    const ka = keyOf(a);
    for (const b of right) {
      const kb = keyOf(b);
      if (ka === kb || ka.startsWith(kb + "/") || kb.startsWith(ka + "/")) pairs.push([a, b]);
    }
  }
  return pairs;
};
const pick = () => {
  const n = rand(5);
  const out = [];
  for (let i = 0; i < n; i++) out.push(conflictPool[rand(conflictPool.length)]);
  return out;
};
const conflictCases = [];
for (let i = 0; i < 300; i++) {
  const left = pick();
  const right = pick();
  conflictCases.push({ left, right, pairs: conflicts(left, right) });
}
write("conflicts.json", { cases: conflictCases });
