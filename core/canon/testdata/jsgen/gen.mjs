// Regenerates ../js-numbers.json and ../js-canonical.json from a JavaScript
// engine, as independent expectations for the Go tests:
//
//   node gen.mjs
//
// Canonical form is computed here from its definition (recursively rebuild
// objects from their keys in default Array.prototype.sort order, then
// JSON.stringify). The random source is seeded, so output is reproducible.
import { writeFileSync } from "node:fs";

let seed = 0x2545f491;
function rand() {
  // xorshift32
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];
const int = (n) => Math.floor(rand() * n);

function sortValue(v) {
  if (Array.isArray(v)) return v.map(sortValue);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortValue(v[k])]));
  }
  return v;
}
const canonical = (v) => JSON.stringify(sortValue(v));

function bitsHex(x) {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  return dv.getBigUint64(0).toString(16).padStart(16, "0");
}

function randomDouble() {
  const dv = new DataView(new ArrayBuffer(8));
  for (;;) {
    dv.setUint32(0, int(4294967296));
    dv.setUint32(4, int(4294967296));
    const x = dv.getFloat64(0);
    if (Number.isFinite(x)) return x;
  }
}

function numbers() {
  const xs = [];
  for (let i = 0; i < 800; i++) xs.push(randomDouble());
  for (let i = 0; i < 300; i++) xs.push((rand() - 0.5) * 10 ** (int(60) - 30));
  for (let i = 0; i < 200; i++) xs.push(Math.round(rand() * 10 ** int(22)) * (rand() < 0.5 ? -1 : 1));
  for (let i = 0; i < 200; i++) xs.push(Number(`${int(1000)}.${int(1000)}e${int(640) - 330}`));
  for (let e = -330; e <= 310; e++) {
    const p = Number(`1e${e}`);
    xs.push(p, p * (1 + Number.EPSILON), p * (1 - Number.EPSILON / 2));
  }
  for (let e = -1074; e <= 1023; e += 7) xs.push(2 ** e);
  xs.push(Number.MIN_VALUE, Number.MAX_VALUE, 2 ** -1022, 2 ** 53, 2 ** 53 + 2, 2 ** 63, 2 ** 64, 0.1 + 0.2);
  return xs.map((x) => ({ bits: bitsHex(x), json: JSON.stringify(x) }));
}

const keyPool = [
  "a", "b", "z", "Z", "A", "_", "", "ab", "abc", "a\u0000", "\u00e9", "\u00c9", "e",
  "0", "1", "2", "9", "10", "01", "-1", "1.5", " 1", "4294967294", "4294967295", "99999999999",
  "\uff21", "\ud835\udcb3", "\ue000", "\ud83d\ude00", "\uffff", "\ufeff", "__proto__", "constructor",
  "\u2028", "caf\u00e9", "\ud800", "\udc00", "\udbff", "x\ud800y", "\"q\"", "back\\slash", "tab\t",
];
const stringPool = [
  "plain", "", "say \"hi\"", "a\\b", "/path/to", "<script>&amp;</script>", "\u0000\u0001\u001f\u007f",
  "\b\f\n\r\t", "\u0080\u009f", "\u2028\u2029", "\ud83d\ude00", "\ud800", "\udc00x", "\udc00\ud800",
  "end\udbff", "\udbff\udfff", "\ufeff\uffff", "\u65e5\u672c\u8a9e", "\u000b\u000e",
];

// encodeString writes a JSON string literal for s choosing escapes at random,
// so that inputs cover every escape form JSON.parse accepts.
function encodeString(s) {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    const ch = s[i];
    const hex = u.toString(16).padStart(4, "0");
    const forced = u < 0x20 || ch === '"' || ch === "\\" || (u >= 0xd800 && u <= 0xdfff);
    if (forced || rand() < 0.15) {
      const shortForm = { '"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" }[ch];
      if (shortForm && rand() < 0.6) out += shortForm;
      else out += "\\u" + (rand() < 0.5 ? hex : hex.toUpperCase());
    } else if (u >= 0xd800 && u <= 0xdbff && i + 1 < s.length) {
      out += s.slice(i, i + 2);
      i++;
    } else {
      out += ch;
    }
  }
  return out + '"';
}

const numberTexts = [
  "0", "-0", "1", "-1", "1.0", "1E2", "1e+2", "1e-2", "0.10", "100e-2", "12345678901234567890",
  "1.00000000000000011", "1e-400", "2e308", "-2e308", "1e21", "999999999999999999999", "0.000001",
  "0.0000001", "123.456e-7", "9007199254740993", "5e-324", "4.9e-324", "1.7976931348623157e308",
];

function ws() {
  return rand() < 0.2 ? pick([" ", "\n", "\t", "\r\n ", "  "]) : "";
}

function randomText(depth) {
  const r = rand();
  if (depth > 3 || r < 0.35) {
    const s = rand();
    if (s < 0.3) return encodeString(pick(stringPool));
    if (s < 0.6) return rand() < 0.5 ? pick(numberTexts) : JSON.stringify(randomDouble());
    if (s < 0.7) return String(int(100000));
    return pick(["true", "false", "null"]);
  }
  if (r < 0.6) {
    const n = int(5);
    const items = [];
    for (let i = 0; i < n; i++) items.push(ws() + randomText(depth + 1) + ws());
    return "[" + items.join(",") + "]";
  }
  const n = int(7);
  const members = [];
  for (let i = 0; i < n; i++) {
    members.push(ws() + encodeString(pick(keyPool)) + ws() + ":" + ws() + randomText(depth + 1) + ws());
  }
  return "{" + members.join(",") + "}";
}

function canonicalCases() {
  const cases = [];
  for (let i = 0; i < 300; i++) {
    const input = ws() + randomText(0) + ws();
    cases.push({ input, canonical: canonical(JSON.parse(input)) });
  }
  return cases;
}

const header = {
  generated_with: `node ${process.version}`,
  note: "generated by testdata/jsgen/gen.mjs; do not edit by hand",
};
// writeLines writes {header..., name: [one element per line]}.
function writeLines(file, name, items) {
  const head = JSON.stringify(header).slice(0, -1);
  const body = items.map((x) => JSON.stringify(x)).join(",\n");
  writeFileSync(new URL(file, import.meta.url), `${head},"${name}":[\n${body}\n]}\n`);
}
writeLines("../js-numbers.json", "numbers", numbers());
writeLines("../js-canonical.json", "cases", canonicalCases());
