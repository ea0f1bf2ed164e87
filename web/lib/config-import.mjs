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
  async function load(text, name = '', quant = '') {
    result().textContent = 'Reading…';
    return report(await api.loadConfig(text, name, quant));
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

  // A file's text, or the refusal that says why it cannot be read ({text} or {refused}).
  async function readFile(file, field) {
    if (file.size > MAX_CONFIG_BYTES) {
      return { refused: fail(argError('too-large', field, `${file.name}: ${file.size} bytes`, `a file of at most ${MAX_CONFIG_BYTES} bytes`)) };
    }
    const text = await file.text();
    return text.trim() ? { text } : { refused: fail(argError('out-of-range', field, `${file.name}: an empty file`, WHAT_TO_DO)) };
  }

  // The files chosen or dropped together: a config.json, and the hf_quant_config.json beside it when given.
  async function loadFiles(files) {
    const list = [...(files || [])];
    const isQuant = (f) => /quant_config[^/]*\.json$/i.test(f.name);
    const quantFile = list.length > 1 ? list.find(isQuant) : null;
    const file = list.find((f) => f !== quantFile);
    if (!file) return null;
    const config = await readFile(file, 'config');
    if (config.refused) return report(config.refused);
    const quant = quantFile ? await readFile(quantFile, 'quant') : { text: '' };
    if (quant.refused) return report(quant.refused);
    return load(config.text, file.name, quant.text);
  }
  const loadFile = (file) => loadFiles(file ? [file] : []);

  // Load: the text pasted, or the file chosen, whichever the reader gave last; nothing given says what to do.
  async function loadChosen() {
    const text = $('config-text').value;
    const useFile = chosen && (last === 'file' || !text.trim());
    if (useFile) return loadFiles(chosen);
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
      const files = e.target.files ? [...e.target.files] : [];
      if (!files.length) return;
      chosen = files;
      last = 'file';
      // Cleared once read, so choosing the same file again is a change too and loads it again.
      e.target.value = '';
      const r = await loadFiles(files);
      if (r && r.ok) $('config-dialog').close();
    });
    // A file dropped anywhere on the page (the canvas included) is read as a config.json (with the
    // hf_quant_config.json beside it when both are dropped).
    doc.addEventListener('dragover', (e) => {
      if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) e.preventDefault();
    });
    doc.addEventListener('drop', (e) => {
      const files = e.dataTransfer && e.dataTransfer.files ? [...e.dataTransfer.files] : [];
      if (!files.length) return;
      e.preventDefault();
      loadFiles(files);
    });
  }

  return { load, loadFile, loadFiles, loadChosen, wire };
}
