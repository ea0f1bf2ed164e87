// tierscope page shell: its parts are modules in lib/ (loader, page state, walkthrough, ledger, header and
// playback, tables, share links and embeds, config import, notices, window.tierscope), wired by one init.
// Relative URLs only, no inline code.
import { init } from './lib/init.mjs';

init(window);
