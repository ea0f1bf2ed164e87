// Bring your own model: a config.json dropped on the page, chosen as a file or pasted into a dialog goes to
// the app's reader (hf/hf_config.h) with the file's name; the header, canvas, ledger and share link
// follow. What the reader assumed or ignored, and why it refused, are shown as notices and in the dialog.
import { refusalNotice, notesNotice } from './notices.mjs';
import { argError, fail } from './api.mjs';

export const MAX_CONFIG_BYTES = 256 * 1024;  // the app's limit (model::kMaxConfigBytes)
const WHAT_TO_DO = "choose a model's config.json (the JSON file with its model_type, hidden_size, …) or paste its text, then Load";

export function createConfigImport({ S, $, doc, notices, api }) {
  const result = () => $('config-result');
  // The file chosen in the dialog, kept after the input is cleared (so choosing the same file again reads
  // it again), and which of file and text the reader touched last: Load reads that one.
  let chosen = null;
  let last = '';

  // Loads text through the public API (which checks it, then reads it in the worker) and says what happened.
  async function load(text, name = '') {
    result().textContent = 'Reading…';
    return report(await api.loadConfig(text, name));
  }

  function report(r) {
    const reasons = S.catalog && S.catalog.errorCodes;
    if (r.ok) {
      const model = S.state ? (S.state.presetLabel || '').split(' · ')[0] : '';
      result().textContent = `Loaded ${model}.` + (r.notes.length ? ` ${r.notes.length} note${r.notes.length === 1 ? '' : 's'} above the canvas.` : '');
      // The notes apply while this model is loaded.
      const preset = S.state && S.state.preset;
      notices.show(notesNotice(r.notes, model), { key: 'config', until: (now) => now.preset !== preset });
    } else {
      result().textContent = r.errors.map((e) => e.message).join(' ');
      notices.show(refusalNotice(r.errors, 'config', reasons), { key: 'config' });
    }
    return r;
  }

  async function loadFile(file) {
    if (!file) return null;
    if (file.size > MAX_CONFIG_BYTES) {
      return report(fail(argError('too-large', 'config', `${file.name}: ${file.size} bytes`, `a config.json of at most ${MAX_CONFIG_BYTES} bytes`)));
    }
    const text = await file.text();
    if (!text.trim()) return report(fail(argError('out-of-range', 'config', `${file.name}: an empty file`, WHAT_TO_DO)));
    return load(text, file.name);
  }

  // Load: the text pasted, or the file chosen, whichever the reader gave last; nothing given says what to do.
  async function loadChosen() {
    const text = $('config-text').value;
    const useFile = chosen && (last === 'file' || !text.trim());
    if (useFile) return loadFile(chosen);
    if (!text.trim()) return report(fail(argError('out-of-range', 'config', 'nothing chosen or pasted', WHAT_TO_DO)));
    return load(text);
  }

  function wire() {
    $('open-config').addEventListener('click', () => {
      result().textContent = '';
      $('config-dialog').showModal();
      $('config-text').focus();
    });
    $('config-text').addEventListener('input', () => { last = 'text'; });
    $('config-load').addEventListener('click', async () => {
      const r = await loadChosen();
      if (r && r.ok) $('config-dialog').close();
    });
    $('config-file').addEventListener('change', async (e) => {
      const file = e.target.files && e.target.files[0];
      if (!file) return;
      chosen = file;
      last = 'file';
      // Cleared once read, so choosing the same file again is a change too and loads it again.
      e.target.value = '';
      const r = await loadFile(file);
      if (r && r.ok) $('config-dialog').close();
    });
    // A file dropped anywhere on the page (the canvas included) is read as a config.json.
    doc.addEventListener('dragover', (e) => {
      if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) e.preventDefault();
    });
    doc.addEventListener('drop', (e) => {
      const file = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
      if (!file) return;
      e.preventDefault();
      loadFile(file);
    });
  }

  return { load, loadFile, loadChosen, wire };
}
