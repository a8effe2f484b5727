// The page's own additions to markdown-it (a plugin): [[name]] links, GFM "www." autolinks,
// heading levels under the viewer's title, table alignment as classes and images as links; and
// nothing an agent reads renders as nothing (I-9): a link reference definition (`[//]: # (…)`,
// the usual "Markdown comment") is shown as written, a link without text shows its target.
// Everything else is plain CommonMark + GFM as markdown-it and its task-list plugin parse it.

// `[[name\|label]]`: the escaped `|` a Markdown table's cell writes (Obsidian's own help does)
const WIKI_LINK = /^\[\[([^[\]\n|]+?)\\?(?:\|([^[\]\n]+))?\]\]/;
const OPEN_BRACKET = 0x5b;
const WWW_TAIL = /^[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)+(?:[/?#][^\s<>]*)?/u;
const TRAILING_PUNCTUATION = /[?!.,:*_~'"]+$/;

/** `[[name]]` / `[[name|label]]` → a `wikilink` token (meta.name, content = label). */
function wikiLinkRule(state, silent) {
  if (state.src.charCodeAt(state.pos) !== OPEN_BRACKET) return false;
  if (state.src.charCodeAt(state.pos + 1) !== OPEN_BRACKET) return false;
  // Inside a link's label a button could not live in an <a>: leave the brackets as text.
  if (state.linkLevel > 0) return false;
  const match = WIKI_LINK.exec(state.src.slice(state.pos));
  if (!match || !match[1].trim()) return false;
  if (!silent) {
    const token = state.push("wikilink", "", 0);
    token.meta = { name: match[1].trim() };
    token.content = (match[2] ?? match[1]).trim();
  }
  state.pos += match[0].length;
  return true;
}

/**
 * Length of the GFM "www." autolink after the prefix at `pos` (0: none): a domain with at least
 * one more dot and an optional path, without trailing punctuation or an unbalanced ")".
 */
function wwwLinkLength(text, pos) {
  let link = WWW_TAIL.exec(text.slice(pos))?.[0] ?? "";
  for (let before = null; link !== before; ) {
    before = link;
    link = link.replace(TRAILING_PUNCTUATION, "");
    const opened = link.split("(").length;
    if (link.endsWith(")") && link.split(")").length > opened) link = link.slice(0, -1);
  }
  return link.length;
}

/**
 * markdown-it's `reference` block rule, wrapped: a definition still defines its label (so
 * `[text][label]` links), and is also shown as written, in a `definition` token — CommonMark
 * renders it as nothing, yet an agent opening the file reads it (I-9).
 */
function shownDefinitions(reference) {
  return (state, startLine, endLine, silent) => {
    if (!reference(state, startLine, endLine, silent)) return false;
    if (!silent) {
      const token = state.push("definition", "", 0);
      token.content = state.getLines(startLine, state.line, state.blkIndent, false).trimEnd();
      token.map = [startLine, state.line];
    }
    return true;
  };
}

/** A link with no text (`[](https://x "…")`) would be an empty, invisible link: it shows its
 * target instead. */
function visibleLinks(state) {
  for (const block of state.tokens) {
    const children = block.type === "inline" ? block.children ?? [] : [];
    for (let at = children.length - 2; at >= 0; at -= 1) {
      if (children[at].type === "link_open" && children[at + 1].type === "link_close") {
        const text = new state.Token("text", "", 0);
        text.content = children[at].attrGet("href") ?? "";
        children.splice(at + 1, 0, text);
      }
    }
  }
}

/**
 * Bodies sit under the viewer's own h2, so `#` becomes h3 (and so on, h6 at most); table cells'
 * `style="text-align:…"` becomes a class, because the page's CSP allows no inline styles.
 */
function adjustRule(state) {
  for (const token of state.tokens) {
    if (token.type === "heading_open" || token.type === "heading_close") {
      token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 2)}`;
    } else if (token.type === "th_open" || token.type === "td_open") {
      const style = token.attrGet("style");
      const align = style && /text-align:\s*(left|center|right)/.exec(style);
      token.attrs = align ? [["class", `align-${align[1]}`]] : null;
    }
  }
}

/**
 * The function of the rule `name` in `ruler` (a markdown-it `Ruler`), by its public API only:
 * the one function its default chain holds while the rule is enabled and not while disabled.
 * Throws when the rule is missing or disabled (markdown-it's own "invalid rule name" error);
 * either way the rule is left enabled or disabled as it was.
 */
function ruleNamed(ruler, name) {
  const withIt = ruler.getRules("");
  ruler.disable(name);
  const without = new Set(ruler.getRules(""));
  const found = withIt.filter((fn) => !without.has(fn));
  if (found.length > 0) ruler.enable(name); // it was enabled: put back (disabled: left so)
  if (found.length !== 1) throw new Error(`markdown-it: no enabled rule ${name}`);
  return found[0];
}

/**
 * Register the page's rules on `md` (use as `md.use(pageRules)`). Wiki links render as
 * `<span class="wikilink" data-wikilink="name">label</span>`, images as
 * `<a class="image-link" href="src">alt</a>` — never fetched: a remote image in a note would tell
 * its server who reads the note, and the CSP blocks it anyway. `markdown.js` turns both into
 * buttons or links after sanitizing.
 */
export function pageRules(md) {
  const escape = md.utils.escapeHtml;
  // GFM autolinks: a scheme, an e-mail address or "www.". linkify-it's fuzzy links would also
  // link file names (notes.md: .md is a country domain; memory.py), so they are off and "www."
  // is a schema of its own.
  md.linkify.set({ fuzzyLink: false });
  md.linkify.add("www.", {
    validate: (text, pos) => wwwLinkLength(text, pos),
    normalize: (match) => {
      match.url = `http://${match.url}`;
    },
  });
  md.inline.ruler.before("link", "wikilink", wikiLinkRule);
  md.renderer.rules.wikilink = (tokens, index) => {
    const token = tokens[index];
    const name = escape(token.meta.name);
    return `<span class="wikilink" data-wikilink="${name}">${escape(token.content)}</span>`;
  };
  md.renderer.rules.image = (tokens, index, options, env, self) => {
    const token = tokens[index];
    const alt = self.renderInlineAsText(token.children, options, env) || token.attrGet("src");
    return `<a class="image-link" href="${escape(token.attrGet("src"))}">${escape(alt)}</a>`;
  };
  md.block.ruler.at("reference", shownDefinitions(ruleNamed(md.block.ruler, "reference")));
  md.renderer.rules.definition = (tokens, index) =>
    `<p class="md-definition">${escape(tokens[index].content)}</p>\n`;
  md.core.ruler.push("page_adjust", adjustRule);
  md.core.ruler.push("visible_links", visibleLinks);
}
