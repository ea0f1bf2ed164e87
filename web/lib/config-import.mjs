// Bring your own model: a config.json dropped on the page, chosen as a file or pasted into a dialog goes to
// the app's reader (model/hf_config.h); the header, canvas, ledger and share link follow. What the reader
// assumed or ignored, and why it refused, are shown as notices and in the dialog.
import { refusalNotice, notesNotice } from './notices.mjs';
import { argError, fail } from './api.mjs';

export const MAX_CONFIG_BYTES = 256 * 1024;  // the app's limit (model::kMaxConfigBytes)

export function createConfigImport({ S, $, doc, notices, api }) {
  const result = () => $('config-result');

  // Loads text through the public API (which checks it) and says what happened.
  function load(text) { return report(api.loadConfig(text)); }

  function report(r) {
    const reasons = S.catalog && S.catalog.errorCodes;
    if (r.ok) {
      const model = S.state ? (S.state.presetLabel || '').split(' · ')[0] : '';
      result().textContent = `Loaded ${model}.` + (r.notes.length ? ` ${r.notes.length} note${r.notes.length === 1 ? '' : 's'} above the canvas.` : '');
      notices.show(notesNotice(r.notes, model), { key: 'config' });
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
    return load(await file.text());
  }

  function wire() {
    $('open-config').addEventListener('click', () => {
      result().textContent = '';
      $('config-dialog').showModal();
      $('config-text').focus();
    });
    $('config-load').addEventListener('click', () => {
      const r = load($('config-text').value);
      if (r.ok) $('config-dialog').close();
    });
    $('config-file').addEventListener('change', async (e) => {
      const file = e.target.files && e.target.files[0];
      if (!file) return;
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

  return { load, loadFile, wire };
}
