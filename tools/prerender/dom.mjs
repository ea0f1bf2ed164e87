// A small document for the build's prerender: parses the page's own well-formed markup (web/index.html's
// body), offers the DOM calls the page's view modules make (web/lib/dom.mjs, *-view.mjs), and writes the
// result back as HTML. It runs no script and lays nothing out; boxes measure zero.

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(s) {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}
const escText = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

class Text {
  constructor(doc, data) { this.ownerDocument = doc; this.nodeType = 3; this.nodeName = '#text'; this.namespaceURI = null; this.parentNode = null; this.data = String(data); }
  get parentElement() { return this.parentNode; }
  get textContent() { return this.data; }
  set textContent(v) { this.data = String(v); }
  remove() { if (this.parentNode) this.parentNode.removeChild(this); }
  get html() { return escText(this.data); }
}

class ClassList {
  constructor(node) { this.node = node; }
  get list() { return (this.node.getAttribute('class') || '').split(/\s+/).filter(Boolean); }
  contains(c) { return this.list.includes(c); }
  add(c) { if (!this.contains(c)) this.node.setAttribute('class', [...this.list, c].join(' ')); }
  remove(c) { if (this.contains(c)) this.node.setAttribute('class', this.list.filter((x) => x !== c).join(' ')); }
  toggle(c, on = !this.contains(c)) { if (on) this.add(c); else this.remove(c); return on; }
}

// Simple selectors as the views write them: tag, .class, #id, [attr], [attr="v"], joined by descendant spaces.
function compound(sel) {
  const out = { tag: null, id: null, classes: [], attrs: [] };
  const re = /([a-zA-Z][a-zA-Z0-9-]*)|#([\w-]+)|\.([\w-]+)|\[([\w-]+)(?:="([^"]*)")?\]/g;
  for (let m; (m = re.exec(sel));) {
    if (m[1]) out.tag = m[1].toLowerCase();
    else if (m[2]) out.id = m[2];
    else if (m[3]) out.classes.push(m[3]);
    else out.attrs.push([m[4], m[5]]);
  }
  return out;
}
function matches(node, c) {
  if (c.tag && node.localName !== c.tag) return false;
  if (c.id && node.getAttribute('id') !== c.id) return false;
  for (const k of c.classes) if (!node.classList.contains(k)) return false;
  for (const [k, v] of c.attrs) { const have = node.getAttribute(k); if (have === null || (v !== undefined && have !== v)) return false; }
  return true;
}

// Properties the views set that the HTML keeps as attributes (a boolean one is there or not).
const BOOLEAN = ['hidden', 'disabled', 'open', 'selected'];
const STRING = { title: 'title', max: 'max', min: 'min', type: 'type', href: 'href' };

class Element {
  constructor(doc, tag) {
    this.ownerDocument = doc; this.nodeType = 1; this.localName = tag.toLowerCase(); this.nodeName = this.localName.toUpperCase();
    this.tagName = this.nodeName; this.namespaceURI = null; this.parentNode = null; this.childNodes = []; this.attrs = new Map();
    this.classList = new ClassList(this); this.style = {}; this.scrollTop = 0; this.offsetHeight = 0; this.clientHeight = 0;
    this.dataset = new Proxy({}, {
      get: (_, k) => this.getAttribute('data-' + String(k).replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())) ?? undefined,
      set: (_, k, v) => { this.setAttribute('data-' + String(k).replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()), v); return true; },
    });
  }
  get parentElement() { return this.parentNode; }
  get id() { return this.getAttribute('id') || ''; }
  get className() { return this.getAttribute('class') || ''; }
  set className(v) { this.setAttribute('class', v); }
  get attributes() { return [...this.attrs].map(([name, value]) => ({ name, value })); }
  getAttribute(k) { return this.attrs.has(k) ? this.attrs.get(k) : null; }
  setAttribute(k, v) { this.attrs.set(k, String(v)); }
  hasAttribute(k) { return this.attrs.has(k); }
  removeAttribute(k) { this.attrs.delete(k); }
  get tabIndex() { const t = this.getAttribute('tabindex'); return t === null ? (this.localName === 'button' ? 0 : -1) : Number(t); }
  set tabIndex(v) { this.setAttribute('tabindex', String(v)); }
  get children() { return this.childNodes.filter((c) => c.nodeType === 1); }
  get firstElementChild() { return this.children[0] || null; }
  get lastChild() { return this.childNodes[this.childNodes.length - 1] || null; }
  get options() { return this.querySelectorAll('option'); }
  // A select's value is its selected option's; an input's is its value attribute (what the HTML ships).
  get value() {
    if (this.localName !== 'select') return this.getAttribute('value') ?? '';
    const o = this.options;
    const on = o.find((x) => x.hasAttribute('selected')) || o[0];
    return on ? on.getAttribute('value') ?? on.textContent : '';
  }
  set value(v) {
    if (this.localName !== 'select') { this.setAttribute('value', v); return; }
    for (const o of this.options) { if ((o.getAttribute('value') ?? o.textContent) === String(v)) o.setAttribute('selected', ''); else o.removeAttribute('selected'); }
  }
  get textContent() { return this.childNodes.map((c) => c.textContent).join(''); }
  set textContent(v) { this.replaceChildren(...(String(v) ? [String(v)] : [])); }
  adopt(n) { const node = typeof n === 'string' ? new Text(this.ownerDocument, n) : n; node.remove(); node.parentNode = this; return node; }
  append(...nodes) { for (const n of nodes) this.childNodes.push(this.adopt(n)); }
  appendChild(n) { this.append(n); return n; }
  insertBefore(n, ref) { const node = this.adopt(n); const i = ref ? this.childNodes.indexOf(ref) : -1; this.childNodes.splice(i < 0 ? this.childNodes.length : i, 0, node); return node; }
  replaceChild(n, old) { this.insertBefore(n, old); old.remove(); return old; }
  removeChild(n) { const i = this.childNodes.indexOf(n); if (i >= 0) this.childNodes.splice(i, 1); n.parentNode = null; return n; }
  replaceChildren(...nodes) { for (const c of [...this.childNodes]) this.removeChild(c); this.append(...nodes); }
  remove() { if (this.parentNode) this.parentNode.removeChild(this); }
  addEventListener() {}
  focus() {}
  scrollIntoView() {}
  getBoundingClientRect() { return { top: 0, left: 0, width: 0, height: 0, bottom: 0, right: 0 }; }
  matches(sel) { return sel.split(',').some((s) => matches(this, compound(s.trim()))); }
  closest(sel) { for (let n = this; n && n.nodeType === 1; n = n.parentNode) if (n.matches(sel)) return n; return null; }
  *descendants() { for (const c of this.children) { yield c; yield* c.descendants(); } }
  querySelectorAll(sel) {
    const steps = sel.trim().split(/\s+/).map(compound);
    const out = [];
    for (const n of this.descendants()) {
      if (!matches(n, steps[steps.length - 1])) continue;
      let i = steps.length - 2;
      for (let p = n.parentNode; i >= 0 && p && p !== this; p = p.parentNode) if (matches(p, steps[i])) i--;
      if (i < 0) out.push(n);
    }
    return out;
  }
  querySelector(sel) { return this.querySelectorAll(sel)[0] || null; }
  get html() {
    const attrs = [...this.attrs].map(([k, v]) => (v === '' ? ` ${k}` : ` ${k}="${escAttr(v)}"`)).join('');
    if (VOID.has(this.localName)) return `<${this.localName}${attrs}>`;
    return `<${this.localName}${attrs}>${this.innerHTML}</${this.localName}>`;
  }
  get innerHTML() { return this.childNodes.map((c) => c.html).join(''); }
}
for (const k of BOOLEAN) {
  Object.defineProperty(Element.prototype, k, {
    get() { return this.hasAttribute(k); },
    set(on) { if (on) this.setAttribute(k, ''); else this.removeAttribute(k); },
  });
}
for (const [k, a] of Object.entries(STRING)) {
  Object.defineProperty(Element.prototype, k, { get() { return this.getAttribute(a) || ''; }, set(v) { this.setAttribute(a, v); } });
}

// Reads markup into `root`'s children: tags, attributes (quoted either way, or bare), text and comments.
// The page's markup is written by hand and well formed; a close tag that matches nothing open is an error.
function parseInto(doc, root, html) {
  const stack = [root];
  const re = /<!--[\s\S]*?-->|<\/([a-zA-Z][\w-]*)\s*>|<([a-zA-Z][\w-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*\/?>|[^<]+|</g;
  for (let m; (m = re.exec(html));) {
    const top = stack[stack.length - 1];
    if (m[0].startsWith('<!--')) continue;  // comments are for the source's readers
    if (m[1]) {
      const tag = m[1].toLowerCase();
      const at = stack.map((n) => n.localName).lastIndexOf(tag);
      if (at < 1) throw new Error(`the page's markup closes <${tag}> that is not open (at character ${m.index})`);
      stack.length = at;
    } else if (m[2]) {
      const el = doc.createElement(m[2]);
      const are = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
      for (let a; (a = are.exec(m[3]));) el.setAttribute(a[1].toLowerCase(), decodeEntities(a[2] ?? a[3] ?? a[4] ?? ''));
      top.append(el);
      if (!VOID.has(el.localName) && !m[0].endsWith('/>')) stack.push(el);
    } else {
      top.append(new Text(doc, decodeEntities(m[0])));
    }
  }
}

export class Document {
  constructor() { this.documentElement = this.createElement('html'); this.body = this.createElement('body'); this.documentElement.append(this.body); this.title = ''; }
  createElement(tag) { return new Element(this, tag); }
  createElementNS(ns, tag) { const n = new Element(this, tag); n.namespaceURI = ns; return n; }
  createTextNode(text) { return new Text(this, text); }
  getElementById(id) { for (const n of this.documentElement.descendants()) if (n.getAttribute('id') === id) return n; return null; }
  querySelectorAll(sel) { return this.documentElement.querySelectorAll(sel); }
  querySelector(sel) { return this.documentElement.querySelector(sel); }
  addEventListener() {}
}

// A page's body as a document: `bodyHtml` is what sits between <body …> and </body>; the body's own
// attributes come as a map.
export function documentFromBody(bodyHtml, bodyAttrs = []) {
  const doc = new Document();
  for (const [k, v] of bodyAttrs) doc.body.setAttribute(k, v);
  parseInto(doc, doc.body, bodyHtml);
  return doc;
}
