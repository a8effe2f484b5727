// I-9 on the page: text a model reads but a person cannot see, made visible. The page shows each
// run of hidden characters of a memory's text (its body, name and description, an index line, a
// version's text) as the model is shown it: `[hidden: U+202E]`, `[hidden: 3 × U+200B]`,
// `[hidden: 11 tag characters]`, `[hidden: 5 invisible characters]` — never the characters
// themselves, which would render as nothing or turn the text around on screen.
//
// What is hidden is memory_core.hidden_text's rule, ported (tests/browser/
// test_i9_hidden_text_shown.py holds the port to it on fixed and random texts): tag characters (a subdivision flag's
// excepted), bidirectional controls (a direction mark alone on a right-to-left line excepted),
// invisible characters (a zero-width space alone between two Thai, Lao, Myanmar or Khmer letters,
// joiners inside an emoji or a word of a script that needs them, a variation selector after a
// character that takes it, a byte order mark at the start excepted), soft hyphens but inside a
// hyphenated word of letters in prose, and control characters other than tab and line feed.

import { REGISTERED_BASES } from "./variation-sequences.js";

// Letters, marks, numbers and decimal digits as the service's Unicode data has them (served by
// it: memory_api.page_unicode), not the browser's \p{L} and \p{M}: a mark of a Unicode version
// the service does not know yet is no mark here either, so both judge each character alike.
// Should that module not load (a proxy's error page, a service restarting), the page judges by
// the browser's own classes, which differ only for characters of the newest Unicode versions,
// rather than stay on "Loading…".
const BROWSER_CLASSES = { L: String.raw`\p{L}`, M: String.raw`\p{M}`, N: String.raw`\p{N}`, ND: String.raw`\p{Nd}` };
const { L, M, N, ND } = await import("./unicode-classes.js").catch(() => BROWSER_CLASSES);
const cls = (body) => new RegExp(body, "u");

const CANDIDATE =
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\u{13430}-\u{1343f}\u{1bca0}-\u{1bca3}\u{1d159}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]/u;
const ALWAYS =
  /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u115f\u1160\u17b4\u17b5\u200e\u200f\u202a-\u202e\u2060-\u206f\u3164\uffa0\ufff0-\ufffb\u{1d159}\u{1d173}-\u{1d17a}\u{e0080}-\u{e00ff}\u{e01f0}-\u{e0fff}]/u;
const LONGEST_LEGITIMATE_RUN = 8; // a subdivision flag's tags and cancel tag
const BIDI = new Set([..."\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"]);
const ZWNJ = "\u200c";
const ZWJ = "\u200d";
const BLACK_FLAG = "\u{1f3f4}";
const FLAG_TAG = /^[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]$/u;
const CANCEL_TAG = "\u{e007f}";
const KEYCAP = "\u20e3";
const SOFT_HYPHEN = "\u00ad";
const GRAPHEME_JOINER = "\u034f";
const BRAILLE_BLANK = "\u2800";
const ZWSP = "\u200b";
const MONGOLIAN_VOWEL_SEPARATOR = "\u180e";
const ZWSP_SCRIPTS = /^[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u19e0-\u19ff]$/u;
const MONGOLIAN = /^[\u1800-\u18af]$/u;
const DUPLOYAN = /^[\u{1bc00}-\u{1bc9f}]$/u;
// Egyptian hieroglyphs (their Unicode 15 modifiers, 16's Extended-A): what a format control
// U+13430–U+1343F lays out into a quadrat (named by code point: Unicode 15's are not Cf to
// the service's Unicode 14 data).
const EGYPTIAN = /^[\u{13000}-\u{1342f}\u{13440}-\u{1345f}\u{13460}-\u{143ff}]$/u;
const BRAILLE_PATTERN = /^[\u2801-\u28ff]$/u;
const JOINING_SCRIPTS =
  /^[\u0600-\u08ff\u0900-\u0dff\u0f00-\u109f\u1780-\u18af\ua8e0-\ua8ff\ufb50-\ufdff\ufe70-\ufefe]$/u;
const RIGHT_TO_LEFT =
  /[\u0590-\u061b\u061d-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
const DIRECTION_MARK = new Set(["\u061c", "\u200e", "\u200f"]);
const LETTER = cls(`^[${L}]$`);
const LETTER_OR_MARK = cls(`^[${L}${M}]$`);
const MARK = cls(`^[${M}]$`);
const LETTER_OR_NUMBER = cls(`^[${L}${N}]$`);
const DIGIT_OR_UNDERSCORE = cls(`[${ND}_]`);
// memory_core's approximation of Extended_Pictographic, range for range
const EMOJI =
  /^[\u00a9\u00ae\u203c\u2049\u2122\u2139\u2190-\u21ff\u2300-\u23ff\u24c2\u25a0-\u27bf\u2900-\u297f\u2b00-\u2bff\u3030\u303d\u3297-\u3299\u{1f000}-\u{1ffff}]$/u;
// memory_core's bases of ideographic variation sequences (CJK ideographs), range for range
const IDEOGRAPH = /^[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{3ffff}]$/u;
const WORD_CHAR = cls(`^[${L}${N}_\\u00ad\\u0300-\\u036f]$`);
const LONGEST_HYPHENATED_WORD = 64;

const isCandidate = (char) => Boolean(char) && CANDIDATE.test(char);
const isLetter = (char, orMark = false) => Boolean(char) && (orMark ? LETTER_OR_MARK : LETTER).test(char);
const isVariationSelector = (char) => {
  const point = char.codePointAt(0);
  return (point >= 0xfe00 && point <= 0xfe0f) || (point >= 0xe0100 && point <= 0xe01ef);
};

const isIdeographicSelector = (char) => {
  const point = char.codePointAt(0);
  return point >= 0xe0100 && point <= 0xe01ef;
};

/** Whether `base` followed by the selector `selector` (U+FE00–U+FE0F) is a sequence Unicode
 * registers (variation-sequences.js, generated from memory_core's Unicode files). */
function registeredSequence(base, selector) {
  const point = base.codePointAt(0);
  return (REGISTERED_BASES.get(selector) || []).some(([first, last]) => first <= point && point <= last);
}

/** Whether the variation selector `chars[at]` (at > 0) ends a registered sequence, or an
 * ideographic one the rule lets stand: after a CJK ideograph whose previous ideograph carries
 * none. */
function takesVariation(chars, at) {
  const point = chars[at].codePointAt(0);
  if (point < 0xe0100) return registeredSequence(chars[at - 1], point);
  return IDEOGRAPH.test(chars[at - 1]) && !(at >= 2 && isIdeographicSelector(chars[at - 2]));
}

function emojiBefore(chars, at) {
  let position = at - 1;
  if (position >= 0 && (isVariationSelector(chars[position]) || chars[position] === KEYCAP)) {
    position -= 1;
  }
  return position >= 0 && EMOJI.test(chars[position]);
}

function scriptLetter(char) {
  return isLetter(char, true) && JOINING_SCRIPTS.test(char);
}

/** Whether a combining grapheme joiner between `before` and `after` keeps a mark from its
 * letter, or blocks the canonical reordering of two marks (the mark before has a higher nonzero
 * combining class than the mark after, so NFD would swap them); after another hidden character
 * or anywhere else it keeps nothing apart (hidden_text._joiner_in_its_place). */
function joinerInItsPlace(before, after) {
  if (!before || !after || CANDIDATE.test(before) || CANDIDATE.test(after)) return false;
  if (!MARK.test(after)) return false;
  if (isLetter(before)) return true;
  const nfd = (text) => text.normalize("NFD");
  return MARK.test(before) && nfd(before + after) !== nfd(before) + nfd(after);
}

/** Whether `char`, legitimate only beside certain neighbours, stands where it belongs; null
 * for another character. */
function inItsPlace(char, before, after) {
  const point = char.codePointAt(0);
  if (char === GRAPHEME_JOINER) return joinerInItsPlace(before, after);
  if (point >= 0x180b && point <= 0x180f) {
    const mongolianBefore = isLetter(before) && MONGOLIAN.test(before);
    if (char !== MONGOLIAN_VOWEL_SEPARATOR) return mongolianBefore;
    return mongolianBefore && isLetter(after) && MONGOLIAN.test(after);
  }
  if (point >= 0x1bca0 && point <= 0x1bca3) return Boolean(before) && DUPLOYAN.test(before);
  if (point >= 0x13430 && point <= 0x1343f) return [before, after].some((near) => EGYPTIAN.test(near));
  if (char === "\r") return after === "\n";
  if (char === ZWSP) {
    return [before, after].every((near) => isLetter(near, true) && ZWSP_SCRIPTS.test(near));
  }
  return null;
}

function hyphenated(word) {
  const rest = word.slice(1).join("");
  if (word.length > LONGEST_HYPHENATED_WORD || DIGIT_OR_UNDERSCORE.test(word.join(""))) return false;
  if (rest.toLowerCase() !== rest) return false;
  return word.every(
    (char, at) =>
      char !== SOFT_HYPHEN ||
      (at > 0 && at < word.length - 1 && isLetter(word[at - 1], true) && isLetter(word[at + 1])),
  );
}

// memory_core's prose rule for a hyphenated word, pattern for pattern (hidden_text._in_prose)
const SPACES = "\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000";
// words joined by a hyphen, en or em dash or slash; emphasis; a possessive 's
const PROSE_BEFORE = cls(String.raw`^[(\["'«„“‘‚‹¿¡*_~]*(?:[${L}${M}]+[-–—/])*$`);
const PROSE_AFTER = cls(String.raw`^(?:[-–—/][${L}${M}]+)*(?:['’]s)?[.,;:!?)"'»“”’›…*_~]*(?:\](?:[(\[].*)?)?$`);
const LINE_START = new RegExp(`^[${SPACES}]*(?:[-*+>][${SPACES}]+)*$`, "u");
const SPACE = new RegExp(`^[${SPACES}]$`, "u");
const TOKEN_LIMIT = 256;

/** Whether the word `chars[start..end)` stands in prose, where a soft hyphen is a hyphenation
 * point: not in a code span, a path, an address, a link target or a key starting a line. */
function inProse(chars, start, end) {
  const window = Math.max(0, start - TOKEN_LIMIT);
  let found = -1;
  for (let at = start - 1; at >= window; at -= 1) {
    if (chars[at] === "\n") {
      found = at;
      break;
    }
  }
  const lineStart = found !== -1 || window === 0 ? found + 1 : window;
  let tokenStart = start;
  while (tokenStart > lineStart && !SPACE.test(chars[tokenStart - 1])) tokenStart -= 1;
  let tokenEnd = end;
  const limit = Math.min(chars.length, end + TOKEN_LIMIT);
  while (tokenEnd < limit && !SPACE.test(chars[tokenEnd])) tokenEnd += 1;
  const before = chars.slice(tokenStart, start).join("");
  const after = chars.slice(end, tokenEnd).join("");
  if (!PROSE_BEFORE.test(before) || !PROSE_AFTER.test(after)) return false;
  let ticks = 0;
  for (let at = lineStart; at < start; at += 1) if (chars[at] === "`") ticks += 1;
  if (ticks % 2 === 1) return false;
  const keyed = after.startsWith(":") && !before && (found !== -1 || window === 0);
  return !(keyed && LINE_START.test(chars.slice(lineStart, tokenStart).join("")));
}

/** The positions of the soft hyphens that are hyphenation points, and of the direction marks
 * alone on a line holding right-to-left letters. */
function inPlacePositions(chars) {
  const places = new Set();
  let judged = 0;
  chars.forEach((char, at) => {
    if (char !== SOFT_HYPHEN || at < judged) return;
    let start = at;
    while (start > 0 && WORD_CHAR.test(chars[start - 1])) start -= 1;
    let end = at + 1;
    while (end < chars.length && WORD_CHAR.test(chars[end])) end += 1;
    while (start < at && chars[start] === "_") start += 1; // emphasis: _Donau\u00addampf_
    while (end > at + 1 && chars[end - 1] === "_") end -= 1;
    if (hyphenated(chars.slice(start, end)) && inProse(chars, start, end)) {
      for (let i = start; i < end; i += 1) if (chars[i] === SOFT_HYPHEN) places.add(i);
    }
    judged = end;
  });
  let lineStart = 0;
  for (let at = 0; at <= chars.length; at += 1) {
    if (at < chars.length && chars[at] !== "\n") continue;
    const line = chars.slice(lineStart, at);
    if (line.some((char) => DIRECTION_MARK.has(char)) && RIGHT_TO_LEFT.test(line.join(""))) {
      line.forEach((char, i) => {
        const where = lineStart + i;
        if (!DIRECTION_MARK.has(char)) return;
        if (!isCandidate(chars[where - 1]) && !isCandidate(chars[where + 1])) places.add(where);
      });
    }
    lineStart = at + 1;
  }
  return places;
}

function isHidden(chars, at, flags, textStart, inPlace) {
  const char = chars[at];
  if (flags.has(at) || inPlace.has(at)) return false;
  if (ALWAYS.test(char)) return true;
  const point = char.codePointAt(0);
  if (point >= 0xe0000 && point <= 0xe007f) {
    if (at > 0 && chars[at - 1] === BLACK_FLAG) {
      let end = at;
      while (end < chars.length && end - at < 7 && FLAG_TAG.test(chars[end])) end += 1;
      if (end - at >= 2 && chars[end] === CANCEL_TAG) {
        for (let i = at; i <= end; i += 1) flags.add(i);
        return false;
      }
    }
    return true;
  }
  if (char === SOFT_HYPHEN) return true;
  const before = at > 0 ? chars[at - 1] : "";
  const after = at + 1 < chars.length ? chars[at + 1] : "";
  const placed = inItsPlace(char, before, after);
  if (placed !== null) return !placed;
  if (char === ZWJ && emojiBefore(chars, at) && after && EMOJI.test(after)) return false;
  if (char === ZWJ || char === ZWNJ) {
    const wordEnd = !after || !(LETTER_OR_NUMBER.test(after) || isCandidate(after));
    return !(at > 0 && scriptLetter(before) && (wordEnd || scriptLetter(after)));
  }
  if (isVariationSelector(char)) return at === 0 || isCandidate(before) || !takesVariation(chars, at);
  return !(char === "\ufeff" && at === 0 && textStart);
}

/** `[start, end)` of each run of hidden characters in `chars` (an array of code points). */
function hiddenRuns(chars, textStart) {
  const runs = [];
  const flags = new Set();
  const inPlace = inPlacePositions(chars);
  let at = 0;
  while (at < chars.length) {
    if (!isCandidate(chars[at])) {
      at += 1;
      continue;
    }
    let end = at;
    while (end < chars.length && isCandidate(chars[end])) end += 1;
    const blanks = chars.slice(at, end).every((char) => char === BRAILLE_BLANK);
    if (blanks && (BRAILLE_PATTERN.test(chars[at - 1] ?? "") || BRAILLE_PATTERN.test(chars[end] ?? ""))) {
      at = end;
      continue;
    }
    if (end - at > LONGEST_LEGITIMATE_RUN) {
      runs.push([at, end]);
      at = end;
      continue;
    }
    for (let i = at; i < end; i += 1) {
      if (!isHidden(chars, i, flags, textStart, inPlace)) continue;
      const last = runs[runs.length - 1];
      if (last && last[1] === i) last[1] = i + 1;
      else runs.push([i, i + 1]);
    }
    at = end;
  }
  return runs;
}

function kind(char) {
  const point = char.codePointAt(0);
  if (point >= 0xe0000 && point <= 0xe007f) return "tag";
  if (isVariationSelector(char)) return "variation";
  if (point <= 0x1f || (point >= 0x7f && point <= 0x9f)) return "control";
  return BIDI.has(char) ? "bidirectional" : "invisible";
}

const hex = (char) => `U+${char.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

/** The visible mark of one run (`run`: its code points), as the model is shown it. */
export function hiddenMark(run) {
  const kinds = new Set(run.map(kind));
  if (kinds.size === 1 && (kinds.has("tag") || kinds.has("variation"))) {
    const name = kinds.has("tag") ? "tag character" : "variation selector";
    return `[hidden: ${run.length} ${name}${run.length === 1 ? "" : "s"}]`;
  }
  if (run.length === 1) return `[hidden: ${hex(run[0])}]`;
  if (new Set(run).size === 1) return `[hidden: ${run.length} × ${hex(run[0])}]`;
  return `[hidden: ${run.length} invisible characters]`;
}

/**
 * `text` split into what shows as it is (strings) and each run of hidden characters, or of a
 * stack's combining characters past {@link STACK_LIMIT} ({mark, run, title?}); a single string
 * when nothing is hidden or cut. `textStart`: `text` begins a text (a byte order mark at its
 * start is one).
 */
export function splitHidden(text, { textStart = false } = {}) {
  const value = String(text ?? "");
  const parts = CANDIDATE.test(value) ? hiddenParts(value, textStart) : [value];
  if (!STACKED.test(value)) return parts;
  return parts.flatMap((part) => (typeof part === "string" ? stackParts(part) : [part]));
}

function hiddenParts(value, textStart) {
  const chars = Array.from(value);
  const parts = [];
  let shown = 0;
  for (const [start, end] of hiddenRuns(chars, textStart)) {
    if (start > shown) parts.push(chars.slice(shown, start).join(""));
    const run = chars.slice(start, end);
    parts.push({ mark: hiddenMark(run), run });
    shown = end;
  }
  if (shown < chars.length) parts.push(chars.slice(shown).join(""));
  return parts;
}

// W-5: a stack of combining characters on one base (marks, skin tone modifiers: whatever joins
// the character before it into one grapheme) is laid out by the browser in time growing with
// its height squared: 30,000 acute accents on one letter took Chromium 8 s, 10,000 skin tone
// modifiers 14 s, and the 300,000 a memory file under its 1 MiB cap holds froze the page for
// minutes. No text anyone writes stacks more than 30 (Unicode's stream-safe limit, UAX #15),
// so the page shows a stack's first 30 and then a mark naming how many more there are; the
// file is unchanged and the model reads it as it is.
export const STACK_LIMIT = 30;
// What joins the character before it into one grapheme (UAX #29 GB9, GB9a) counts in a stack:
// Grapheme_Extend, skin tones, a zero width joiner (`ក` + (U+17C6 U+200D) × N is one
// grapheme), and spacing marks: every Mc and Thai and Lao AM (U+0E33, U+0EB3, letters that
// join as marks do): `ก` + U+0E33 × 20,000 took Chromium 2.8 s, as a stack of accents does.
const STACK_CHAR = String.raw`[\p{Grapheme_Extend}\p{Mc}\p{Emoji_Modifier}\u200d\u0e33\u0eb3]`;
const STACKED = new RegExp(`${STACK_CHAR}{${STACK_LIMIT + 1},}`, "u");
const STACKS = new RegExp(STACKED.source, "gu");
const STACK_TITLE =
  `Combining characters stacked on one character: the page shows the first ${STACK_LIMIT}; ` +
  "the file holds them all, and a model reads them all";

/** The mark shown for `count` combining characters cut from a stack; a field's mark also
 * carries its `token` ({@link fieldText}). */
export function stackMark(count, token = "") {
  const noun = count === 1 ? "character" : "characters";
  return `[stacked: ${count.toLocaleString("en")} more combining ${noun}${token && ` · ${token}`}]`;
}

/** `text` (no hidden run in it) split at each stack past {@link STACK_LIMIT}. */
function stackParts(text) {
  const parts = [];
  let shown = 0;
  for (const match of text.matchAll(STACKS)) {
    const chars = Array.from(match[0]);
    const kept = match.index + chars.slice(0, STACK_LIMIT).join("").length;
    parts.push(text.slice(shown, kept));
    const run = chars.slice(STACK_LIMIT);
    parts.push({ mark: stackMark(run.length), run, title: STACK_TITLE });
    shown = match.index + match[0].length;
  }
  if (shown < text.length) parts.push(text.slice(shown));
  return parts;
}

/**
 * `text` for a field a person may edit (W-5): `shown`, each stack cut at {@link STACK_LIMIT}
 * with its mark (a textarea lays a stack out in time growing with its height squared, as any
 * element does; hidden runs stay as `text` has them), and `whole(value)`: the field's `value`
 * with each mark's exact text given back the characters it stands for.
 *
 * Each mark carries a token of its own, random and new at each call (`[stacked: 2,970 more
 * combining characters · k3f9q]`), and only that exact text counts: a mark the person deleted
 * gives nothing back, one they edited is their text, and text like a mark without this call's
 * token (one the memory holds, one from another fill) is sent as it reads. So undo, typing next
 * to a mark, an input method or select-all need no following. A mark copied and pasted in the
 * field gives its stack back where it was pasted: the person moved or doubled it on purpose.
 * The value as prefilled (unedited, or edited back) is `text` as given, each CR LF and CR (a
 * textarea gives them back as LF) included.
 */
export function fieldText(text) {
  const value = String(text ?? "");
  const parts = STACKED.test(value) ? stackParts(value) : [value];
  const runs = new Map(); // each mark's text, with its token, to the characters it stands for
  let shown = "";
  for (const part of parts) {
    if (typeof part === "string") {
      shown += part.replace(/\r\n?/g, "\n");
      continue;
    }
    let mark;
    do mark = stackMark(part.run.length, markToken());
    while (runs.has(mark) || value.includes(mark));
    runs.set(mark, part.run.join(""));
    shown += mark;
  }
  const whole = (edited) => {
    if (edited === shown) return value;
    let out = edited;
    for (const [mark, run] of runs) out = out.replaceAll(mark, () => run);
    return out;
  };
  return { shown, whole };
}

const TOKEN_LETTERS = "abcdefghijkmnpqrstuvwxyz23456789"; // 32: no l, o, 0 or 1 to misread

/** Five letters drawn at random (25 bits) for a field's mark. */
function markToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(5));
  return Array.from(bytes, (byte) => TOKEN_LETTERS[byte % 32]).join("");
}

/** `text` with each run of hidden characters shown as its mark (memory_core's show_hidden), as
 * the model is shown it; stacks stay whole. For text the page hands on (a prompt copied or sent
 * as a draft, a requirement prefilled into a field: what the agent saves) and for telling
 * whether text holds hidden characters; never for showing text, which {@link showHidden} is. */
export function markHidden(text, { textStart = false } = {}) {
  const value = String(text ?? "");
  if (!CANDIDATE.test(value)) return value;
  return hiddenParts(value, textStart)
    .map((part) => (typeof part === "string" ? part : part.mark))
    .join("");
}

/** `text` as the page shows it: each run of hidden characters as its mark ({@link markHidden})
 * and each stack cut at {@link STACK_LIMIT} with its mark. Only for showing: a stack's mark is
 * no part of what the file holds. */
export function showHidden(text, options) {
  return splitHidden(text, options)
    .map((part) => (typeof part === "string" ? part : part.mark))
    .join("");
}

const HIDDEN_TITLE = "Hidden characters: a model reads them, a screen shows nothing (I-9)";

/** The nodes that show `text` with each hidden run as a visible, styled mark (a <span
 * class="hidden-mark">; its title says the model reads characters a person cannot see, or
 * that a stack was cut). */
export function hiddenTextNodes(text, options) {
  return splitHidden(text, options).map((part) => {
    if (typeof part === "string") return document.createTextNode(part);
    const span = document.createElement("span");
    span.className = "hidden-mark";
    span.title = part.title ?? HIDDEN_TITLE;
    span.textContent = part.mark;
    return span;
  });
}

/** Show each hidden run (and each stack cut at {@link STACK_LIMIT}) in the text under `root`
 * (rendered Markdown, a list) as its mark; returns `root`. Text nodes are looked at one by one. */
export function revealHidden(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (CANDIDATE.test(node.data) || STACKED.test(node.data)) found.push(node);
  }
  for (const node of found) {
    const nodes = hiddenTextNodes(node.data);
    if (nodes.length !== 1 || nodes[0].data !== node.data) node.replaceWith(...nodes);
  }
  return root;
}
