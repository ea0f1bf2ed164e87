// The canvas's toolbar for the keyboard: real buttons for its panels (Scenario, Modes, Card, Figures and the
// key list), reached by Tab just before the canvas and shown over its top edge while one has focus, so a
// keyboard or screen-reader user needs no letter keys. Also Esc, which closes the charts from inside them.

const PANELS = ['scenario', 'modes', 'card', 'figures', 'help'];

export function createCanvasTools({ S, $, refresh }) {
  const group = () => $('canvas-tools');
  const panelNames = { scenario: 'Scenario', modes: 'CSA2 modes', card: 'Card check', figures: 'Figures', help: 'Keys and gestures' };

  // aria-pressed follows the app's open panels (the key list is not a panel of the state: it toggles).
  function sync() {
    const open = new Set((S.state && S.state.panels) || []);
    for (const b of group().querySelectorAll('button[data-panel]')) {
      if (b.dataset.panel !== 'help') b.setAttribute('aria-pressed', open.has(b.dataset.panel) ? 'true' : 'false');
    }
  }

  function activate(key) {
    if (!S.ready || !PANELS.includes(key)) return;
    const r = S.bridge.openPanel(key);
    if (!r.ok) return;
    refresh();
    sync();
    // The panel has the keys now: the canvas takes focus (with its ring: this came from the keyboard or a
    // reader) and the page says where the keys go.
    $('canvas').focus({ preventScroll: true });
    $('announce').textContent = `${panelNames[key]} panel open in the canvas: arrow keys move through it, Escape returns to the schematic and then closes the panels.`;
  }

  function wire() {
    group().addEventListener('click', (e) => {
      const b = e.target.closest('button[data-panel]');
      if (b) activate(b.dataset.panel);
    });
    group().addEventListener('focusin', sync);
    // Esc inside the charts closes them and gives focus back to the button that opened them.
    $('charts').addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || e.defaultPrevented || $('charts').hidden) return;
      e.preventDefault();
      $('charts-close').click();
    });
  }

  return { sync, wire };
}
