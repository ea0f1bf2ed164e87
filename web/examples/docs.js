// Example host-page script: drives the first embed with postMessage commands and shows its step events.
// Host pages may copy this pattern; only messages from the embed's own window are read.
const frame = document.getElementById('embed-flash');
const log = document.getElementById('flash-log');
let next = 1;

function send(cmd, fields = {}) {
  frame.contentWindow.postMessage({ tierscope: 'command', cmd, id: next++, ...fields }, new URL(frame.src, location.href).origin);
}

window.addEventListener('message', (e) => {
  if (e.source !== frame.contentWindow || !e.data || typeof e.data !== 'object') return;
  const { tierscope: kind, state } = e.data;
  if ((kind === 'event' || kind === 'reply') && state) {
    log.textContent = `${state.playing ? 'playing' : 'paused'} · ${state.path} · step ${state.step} of steps 0–${state.steps - 1}`;  // numbered as links and the embed number steps
  }
  if (kind === 'reply' && e.data.ok === false) log.textContent = e.data.errors.map((x) => x.message).join('; ');
});

document.getElementById('flash-play').addEventListener('click', () => send('play'));
document.getElementById('flash-pause').addEventListener('click', () => send('pause'));
document.getElementById('flash-next').addEventListener('click', () => send('step', { delta: 1 }));
