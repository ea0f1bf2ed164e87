// Small DOM helpers for the shell's views: elements built from text only (never markup from data), for a
// given document so the views run under node's tests with a stand-in document too.

// el(doc, 'button', { class, text, onclick, 'aria-label': … }, children)
export function makeEl(doc) {
  return function el(tag, props = {}, children = []) {
    const node = doc.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (v === undefined || v === null) continue;  // no attribute (a class of undefined would read "undefined")
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else if (v !== false) node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of [].concat(children)) if (c !== null && c !== undefined) node.append(c);
    return node;
  };
}

// Looks elements up by id once per call site; a missing element is a bug in index.html, reported by name.
export function makeById(doc) {
  return (id) => {
    const node = doc.getElementById(id);
    if (!node) throw new Error(`#${id} is missing from the page`);
    return node;
  };
}

// Writes a node's text only when it differs: writing the same text still replaces the text node, and the
// browser then lays out that line again.
export function setText(node, text) {
  const t = String(text);
  if (node.textContent !== t) node.textContent = t;
}

// The same for an attribute: written only when its value changes (each write restyles the element).
export function setAttr(node, name, value) {
  const v = String(value);
  if (node.getAttribute(name) !== v) node.setAttribute(name, v);
}

// Makes `node`'s children the same as `fresh`'s, keeping the nodes already there (and with them focus,
// scroll position and the browser's layout of what did not change) and writing only the attributes and
// text that differ. A dragged value that changes a few numbers then costs the layout of those numbers, not
// of the whole list or chart. Listeners are not carried over: views that morph listen on the container.
export function morphChildren(node, fresh) {
  const want = [...fresh.childNodes];
  for (let i = 0; i < want.length; i++) {
    const o = node.childNodes[i], n = want[i];
    if (!o) node.append(n);
    else if (o.nodeType === n.nodeType && o.nodeName === n.nodeName && o.namespaceURI === n.namespaceURI) morphNode(o, n);
    else node.replaceChild(n, o);
  }
  while (node.childNodes.length > want.length) node.lastChild.remove();
}

function morphNode(o, n) {
  if (o.nodeType !== 1) {
    if (o.data !== n.data) o.data = n.data;
    return;
  }
  for (const a of [...o.attributes]) if (!n.hasAttribute(a.name)) o.removeAttribute(a.name);
  for (const a of n.attributes) setAttr(o, a.name, a.value);
  morphChildren(o, n);
}

// Fills a <select> with the app's choices ({key, label}, as the catalog lists them), once per list: the
// menus' entries are the app's, never the page's.
export function fillSelect(select, choices) {
  const list = Array.isArray(choices) ? choices : [];
  const want = list.map((c) => `${c.key}\t${c.label}`).join('\n');
  if (select.dataset.choices === want) return;
  const doc = select.ownerDocument;
  select.replaceChildren(...list.map((c) => {
    const o = doc.createElement('option');
    o.value = c.key;
    o.textContent = c.label || c.key;
    return o;
  }));
  select.dataset.choices = want;
}
