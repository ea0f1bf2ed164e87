// Small DOM helpers for the shell's views: elements built from text only (never markup from data), for a
// given document so the views run under node's tests with a stand-in document too.

// el(doc, 'button', { class, text, onclick, 'aria-label': … }, children)
export function makeEl(doc) {
  return function el(tag, props = {}, children = []) {
    const node = doc.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? '' : String(v));
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
