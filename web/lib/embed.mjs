// The embed's side of the page: the postMessage API for the parent window (docs/embedding.md), and an
// embed that starts when it scrolls into view, pauses when it leaves and gives its WebGL context back when
// far away (a docs page may hold many).
import { parseOrigins, senderAllowed, parseCommand, reply, event as embedEvent } from './messages.mjs';

export function createEmbed({ S, $, win, api, refresh, start }) {
  const origins = parseOrigins(win.location.search);

  function postEvent(name) {
    if (!S.framed || !S.ready) return;
    const msg = embedEvent(name, api.state());
    for (const target of origins.length ? origins : ['*']) win.parent.postMessage(msg, target);
  }

  function onMessage(ev) {
    if (!S.framed || !senderAllowed(ev, { parent: win.parent, origins })) return;
    const cmd = parseCommand(ev.data);
    if (!cmd) return;
    const answer = (r) => ev.source.postMessage(reply(cmd.id, r), ev.origin === 'null' ? '*' : ev.origin);
    if (!cmd.ok) { answer({ ok: false, errors: cmd.errors }); return; }
    const a = cmd.args;
    let r;
    switch (cmd.cmd) {
      case 'play': r = api.play(a.path); break;
      case 'pause': r = api.pause(); break;
      case 'seek': r = api.seek(a.step); break;
      case 'step': r = api.stepBy(a.delta); break;
      case 'setParam': r = api.setParam(a.key, a.value); break;
      case 'setSpeed': r = api.setSpeed(a.speed); break;
      default: r = S.ready ? { ok: true, errors: [] } : api.notReady('getState');
    }
    answer({ ...r, state: api.state() || undefined });
  }

  // Full pages start at once; an embed starts within 200 px of the viewport.
  function startWhenVisible() {
    if (!S.embed || typeof win.IntersectionObserver !== 'function') { start(); return; }
    $('loading-title').textContent = 'Loads when visible…';
    let started = false, resumeOnShow = false;
    new win.IntersectionObserver((entries) => {
      const visible = entries.some((e) => e.isIntersecting);
      if (visible && !started) { started = true; $('loading-title').textContent = 'Loading the model…'; start(); }
      if (!S.ready) return;
      if (!visible && S.state && S.state.playing) { resumeOnShow = true; S.bridge.pause(); refresh(); }
      if (visible && resumeOnShow) { resumeOnShow = false; S.bridge.play(); refresh(); }
    }, { rootMargin: '200px' }).observe($('canvas-frame'));
    // Beyond about two screens the frame gives its WebGL context back, so a long docs page stays under the
    // browser's limit of live contexts; the app rebuilds its GL objects on return.
    let lose = null;
    new win.IntersectionObserver((entries) => {
      const near = entries.some((e) => e.isIntersecting);
      if (!S.ready) return;
      if (!near && !lose) {
        const gl = $('canvas').getContext('webgl2');
        const ext = gl && gl.getExtension('WEBGL_lose_context');
        if (ext && !gl.isContextLost()) { lose = ext; S.quietLoss = true; ext.loseContext(); }
      } else if (near && lose) {
        const ext = lose;
        lose = null;
        ext.restoreContext();
      }
    }, { rootMargin: '200% 0px' }).observe($('canvas-frame'));
  }

  function wire() { win.addEventListener('message', onMessage); }

  return { postEvent, startWhenVisible, wire };
}
