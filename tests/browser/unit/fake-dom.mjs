// A small stand-in document for node's tests of the page's views: elements with text, attributes,
// classes, dataset, children, events and simple selectors (tag, #id, .class, [attr], [attr="v"], and
// descendants). Only what the views use; it renders nothing.

class ClassList {
  constructor(node) { this.node = node; }
  get list() { return this.node.className.split(/\s+/).filter(Boolean); }
  contains(c) { return this.list.includes(c); }
  add(c) { if (!this.contains(c)) this.node.className = [...this.list, c].join(' '); }
  remove(c) { this.node.className = this.list.filter((x) => x !== c).join(' '); }
  toggle(c, on = !this.contains(c)) { if (on) this.add(c); else this.remove(c); return on; }
}

function parseCompound(sel) {
  const out = { tag: null, id: null, classes: [], attrs: [] };
  const re = /([a-zA-Z][a-zA-Z0-9-]*)|#([\w-]+)|\.([\w-]+)|\[([\w-]+)(?:="([^"]*)")?\]/g;
  let m;
  while ((m = re.exec(sel))) {
    if (m[1]) out.tag = m[1].toLowerCase();
    else if (m[2]) out.id = m[2];
    else if (m[3]) out.classes.push(m[3]);
    else out.attrs.push([m[4], m[5]]);
  }
  return out;
}

function matchesCompound(node, c) {
  if (c.tag && node.tagName.toLowerCase() !== c.tag) return false;
  if (c.id && node.id !== c.id) return false;
  for (const k of c.classes) if (!node.classList.contains(k)) return false;
  for (const [k, v] of c.attrs) {
    const have = node.getAttribute(k);
    if (have === null || (v !== undefined && have !== v)) return false;
  }
  return true;
}

// A text node: what a string child becomes, so views that update text in place (dom.mjs morphChildren) can.
export class FakeText {
  constructor(data) { this.nodeType = 3; this.nodeName = '#text'; this.namespaceURI = null; this.data = String(data); this.parentElement = null; }
  get textContent() { return this.data; }
  remove() { if (this.parentElement) { this.parentElement.nodes = this.parentElement.nodes.filter((c) => c !== this); this.parentElement = null; } }
}

export class FakeNode {
  constructor(doc, tag) {
    this.ownerDocument = doc;
    this.tagName = tag.toUpperCase();
    this.nodeType = 1;
    this.nodeName = this.tagName;
    this.localName = tag.toLowerCase();
    this.namespaceURI = null;
    this.nodes = [];                 // every child: elements and text
    this.parentElement = null;
    this.attrs = new Map();
    this.listeners = new Map();
    this.className = '';
    this.classList = new ClassList(this);
    this.dataset = {};
    this.style = {};
    this.hidden = false;
    this.disabled = false;
    this.value = '';
    this.tabIndex = -1;
    this.offsetTop = 0; this.offsetHeight = 0; this.scrollTop = 0; this.clientHeight = 0;
    this.options = [];
  }
  get id() { return this.attrs.get('id') || ''; }
  set id(v) { this.setAttribute('id', v); }
  get children() { return this.nodes.filter((c) => c instanceof FakeNode); }
  get childNodes() { return this.nodes; }
  get lastChild() { return this.nodes[this.nodes.length - 1] || null; }
  get firstElementChild() { return this.children[0] || null; }
  get lastElementChild() { const c = this.children; return c[c.length - 1] || null; }
  get textContent() { return this.nodes.map((c) => c.textContent).join(''); }
  set textContent(v) { this.nodes.forEach((c) => { c.parentElement = null; }); const t = String(v); this.nodes = t ? [new FakeText(t)] : []; }
  get attributes() { return [...(this.className ? [['class', this.className]] : []), ...this.attrs].map(([name, value]) => ({ name, value })); }
  hasAttribute(k) { return this.getAttribute(k) !== null; }
  setAttribute(k, v) {
    v = String(v);
    this.attrs.set(k, v);
    if (k.startsWith('data-')) this.dataset[k.slice(5).replace(/-([a-z])/g, (_, c) => c.toUpperCase())] = v;
    if (k === 'class') this.className = v;
    if (k === 'value') this.value = v;
  }
  getAttribute(k) { return k === 'class' ? this.className || null : this.attrs.has(k) ? this.attrs.get(k) : null; }
  removeAttribute(k) {
    this.attrs.delete(k);
    if (k === 'class') this.className = '';
    if (k.startsWith('data-')) delete this.dataset[k.slice(5).replace(/-([a-z])/g, (_, c) => c.toUpperCase())];
  }
  append(...nodes) {
    for (const n of nodes) {
      const node = n instanceof FakeNode || n instanceof FakeText ? n : new FakeText(n);
      node.remove();
      node.parentElement = this;
      this.nodes.push(node);
      if (this.tagName === 'SELECT' && n instanceof FakeNode) this.options = this.children.filter((c) => c instanceof FakeNode);
    }
  }
  appendChild(n) { this.append(n); return n; }
  insertBefore(n, ref) { n.remove(); n.parentElement = this; const i = this.nodes.indexOf(ref); this.nodes.splice(i < 0 ? this.nodes.length : i, 0, n); }
  replaceChild(n, old) { this.insertBefore(n, old); old.remove(); return old; }
  replaceChildren(...nodes) { this.textContent = ''; this.append(...nodes); }
  remove() {
    if (!this.parentElement) return;
    const p = this.parentElement;
    p.nodes = p.nodes.filter((c) => c !== this);
    if (p.tagName === 'SELECT') p.options = p.children.filter((c) => c instanceof FakeNode);
    this.parentElement = null;
  }
  addEventListener(type, fn) { if (!this.listeners.has(type)) this.listeners.set(type, []); this.listeners.get(type).push(fn); }
  dispatch(type, props = {}) {
    // Events bubble up to the ancestors (views listen on a list for its rows), unless stopped.
    let stopped = false;
    const ev = { type, target: this, defaultPrevented: false, preventDefault() { this.defaultPrevented = true; }, stopPropagation() { stopped = true; }, ...props };
    for (let n = this; n && !stopped; n = n.parentElement) for (const fn of (n.listeners && n.listeners.get(type)) || []) fn(ev);
    return ev;
  }
  click() { this.dispatch('click'); }
  focus() { this.ownerDocument.activeElement = this; }
  select() {}
  scrollIntoView() {}
  // Boxes from the stand-in offsets: the views read positions this way (a page lays them out for real).
  getBoundingClientRect() { return { top: this.offsetTop, left: 0, width: 0, height: this.offsetHeight, bottom: this.offsetTop + this.offsetHeight, right: 0 }; }
  showModal() { this.open = true; }
  close() { this.open = false; }
  matches(sel) { return sel.split(',').some((s) => !s.includes(':') && matchesCompound(this, parseCompound(s.trim()))); }
  closest(sel) { for (let n = this; n; n = n.parentElement) if (n.matches(sel)) return n; return null; }
  *descendants() { for (const c of this.children) if (c instanceof FakeNode) { yield c; yield* c.descendants(); } }
  querySelectorAll(sel) {
    const steps = sel.trim().split(/\s+/).map(parseCompound);
    const out = [];
    for (const n of this.descendants()) {
      if (!matchesCompound(n, steps[steps.length - 1])) continue;
      let i = steps.length - 2, p = n.parentElement;
      while (i >= 0 && p && p !== this.parentElement) { if (matchesCompound(p, steps[i])) i--; p = p.parentElement; }
      if (i < 0) out.push(n);
    }
    return out;
  }
  querySelector(sel) { return this.querySelectorAll(sel)[0] || null; }
}

export class FakeDocument {
  constructor() {
    this.documentElement = new FakeNode(this, 'html');
    this.head = new FakeNode(this, 'head');
    this.body = new FakeNode(this, 'body');
    this.documentElement.append(this.head, this.body);
    this.activeElement = this.body;
    this.listeners = new Map();
  }
  createElement(tag) { return new FakeNode(this, tag); }
  createTextNode(text) { return new FakeText(text); }
  createElementNS(ns, tag) { const n = new FakeNode(this, tag); n.namespaceURI = ns; return n; }
  getElementById(id) { for (const n of this.documentElement.descendants()) if (n.id === id) return n; return null; }
  querySelectorAll(sel) { return this.documentElement.querySelectorAll(sel); }
  addEventListener(type, fn) { FakeNode.prototype.addEventListener.call(this, type, fn); }
}

// A document holding elements with these ids (tag "div" unless given as "id:tag"), all in <body>.
export function pageWith(ids) {
  const doc = new FakeDocument();
  for (const spec of ids) {
    const [id, tag = 'div'] = spec.split(':');
    const node = doc.createElement(tag);
    node.id = id;
    doc.body.append(node);
  }
  return doc;
}

// A window for the views: timers run only when the test asks, nothing else.
export function fakeWindow(doc) {
  const timers = new Map();
  let next = 0;
  return {
    document: doc, timers,
    setTimeout: (fn) => { timers.set(++next, fn); return next; },
    clearTimeout: (id) => { timers.delete(id); },
    runTimers() { while (timers.size) { const [id, fn] = timers.entries().next().value; timers.delete(id); fn(); } },
    matchMedia: () => ({ matches: false }),
    performance: { now: () => Date.now() },
    requestAnimationFrame: (fn) => fn(),
    location: { hash: '', href: 'http://127.0.0.1/', pathname: '/', search: '' },
    console,
  };
}
