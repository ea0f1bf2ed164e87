// JavaScript half of the bridge (an Emscripten JS library): the functions C++ calls out to.
// The page's shell (web/shell.js) provides the hooks on the module object: onFatal, onLoaded, onReady.
mergeInto(LibraryManager.library, {
  ts_js_report_fatal: function (code, detail) {
    var c = UTF8ToString(code), d = UTF8ToString(detail);
    if (typeof Module['onFatal'] === 'function') Module['onFatal'](c, d);
    else console.error('tierscope: ' + c + ': ' + d);
  },
  ts_js_prefers_dark: function () {
    var mm = window['matchMedia'];
    return typeof mm === 'function' && mm('(prefers-color-scheme: light)')['matches'] ? 0 : 1;
  },
  ts_js_notice: function (kind, text) {
    var k = UTF8ToString(kind), t = UTF8ToString(text);
    if (typeof Module['onNotice'] === 'function') Module['onNotice'](k, t);
    else console.warn('tierscope: ' + t);
  },
  ts_js_on_state: function (json) {
    if (typeof Module['onState'] === 'function') Module['onState'](UTF8ToString(json));
  },
  ts_js_prefers_reduced_motion: function () {
    var mm = window['matchMedia'];
    return typeof mm === 'function' && mm('(prefers-reduced-motion: reduce)')['matches'] ? 1 : 0;
  },
  // A canvas text field wants typed text (active) or is done. After a touch or a pen, a hidden input over the
  // field takes the focus, so a phone shows its keyboard; what is typed there is sent to the field.
  ts_js_text_field: function (active, x, y, h) {
    var proxy = Module['tsTextProxy'], canvas = Module['canvas'];
    if (!proxy || !canvas) return;
    if (active) {
      proxy['style']['left'] = Math.max(0, x) + 'px';
      proxy['style']['top'] = Math.max(0, y) + 'px';
      proxy['style']['height'] = Math.max(16, h) + 'px';
      if (Module['tsLastPointer'] !== 'mouse' && document['activeElement'] !== proxy) {
        proxy['value'] = '';
        proxy['focus']({ 'preventScroll': true });
      }
    } else if (document['activeElement'] === proxy) {
      canvas['focus']({ 'preventScroll': true, 'focusVisible': false });
    }
  },
  ts_js_mark: function (name) {
    if (typeof performance !== 'undefined' && performance['mark']) performance['mark']('tierscope-' + UTF8ToString(name));
  },
  ts_js_notify_loaded: function () {
    // The model is worked out and the page's calls work; the first frame waits for the GPU's shaders, so the
    // page builds its own views in that wait (and calls _ts_bridge_page_built when done). The module object
    // goes along: the factory's promise that also carries it resolves only after main() returns. Returns 1
    // when the page builds views the first frame should wait for.
    if (typeof performance !== 'undefined' && performance['mark']) performance['mark']('tierscope-loaded');
    if (typeof Module['onLoaded'] !== 'function') return 0;
    return Module['onLoaded'](Module) ? 1 : 0;
  },
  ts_js_notify_ready: function () {
    // Benchmarks read this mark: navigation → first drawn frame.
    if (typeof performance !== 'undefined' && performance['mark']) performance['mark']('tierscope-first-frame');
    if (typeof Module['onReady'] === 'function') Module['onReady']();
  },
  ts_js_watch_canvas: function () {
    var canvas = Module['canvas'];
    if (!canvas) return;
    // A touch that starts on the canvas's panels (a panel, the toolbar, an open list) is theirs, not SDL's:
    // listeners in the capture phase on the canvas's frame stop it before it reaches the canvas. A tap reaches
    // the control under it, pressed and lifted at once (a swipe that starts on a field never opens it, so a
    // phone's keyboard stays down); a vertical swipe scrolls the panel under the finger while it can scroll
    // that way, then the page by the rest of the swipe. When the panel cannot move that way at the swipe's
    // start, the swipe is the page's own scroll (touch-action: pan-y). Touches on the schematic stay SDL's.
    var panelTouch = function (canvas) {
      var call = function (phase, x, y, dy) {
        var f = Module['_ts_bridge_touch'];
        return typeof f === 'function' ? f(phase, x, y, dy) : 0;
      };
      var at = function (t) {
        var r = canvas['getBoundingClientRect']();
        return [t['clientX'] - r['left'], t['clientY'] - r['top']];
      };
      var g = null;  // the panels' touch: where it started, where it is, and who scrolls (0 undecided, 1 the panel, 2 the page)
      var frame = canvas['parentElement'];
      frame['addEventListener']('touchstart', function (e) {
        g = null;
        if (e['target'] !== canvas || e['touches']['length'] !== 1) return;
        var p = at(e['touches'][0]);
        if (!call(0, p[0], p[1], 0)) return;
        g = { x0: p[0], y0: p[1], y: p[1], moved: false, who: 0 };
        e['stopPropagation']();
      }, { 'capture': true, 'passive': true });
      frame['addEventListener']('touchmove', function (e) {
        if (!g || e['target'] !== canvas) return;
        e['stopPropagation']();
        var p = at(e['touches'][0]);
        if (!g.moved && Math.abs(p[0] - g.x0) < 6 && Math.abs(p[1] - g.y0) < 6) return;
        var dy = g.y - p[1];
        g.y = p[1];
        g.moved = true;
        if (g.who === 2) return;
        if (call(1, g.x0, g.y0, dy)) {
          g.who = 1;
        } else if (g.who === 1) {
          window['scrollBy'](0, dy);  // the panel is at its end: the rest of the swipe moves the page
        } else {
          g.who = 2;  // the page's scroll, as over the schematic
          return;
        }
        if (e['cancelable']) e['preventDefault']();
      }, { 'capture': true, 'passive': false });
      frame['addEventListener']('touchend', function (e) {
        if (!g || e['target'] !== canvas) return;
        e['stopPropagation']();
        if (!g.moved) call(2, g.x0, g.y0, 0);
        // No mouse events emulated after it (SDL cancels every touchend it sees for the same reason).
        if (e['cancelable']) e['preventDefault']();
        g = null;
      }, { 'capture': true, 'passive': false });
      frame['addEventListener']('touchcancel', function (e) {
        if (!g || e['target'] !== canvas) return;
        e['stopPropagation']();
        g = null;
      }, true);
    };
    var notify = function () {
      var f = Module['_ts_bridge_canvas_resized'];
      if (typeof f === 'function') f();
    };
    // Browser names are read through window[...] so the closure minifier neither renames nor rejects them.
    var RO = window['ResizeObserver'];
    if (typeof RO === 'function') new RO(notify)['observe'](canvas);
    // A change of devicePixelRatio (zoom, moving to another screen) does not always resize the canvas.
    var watchRatio = function () {
      if (typeof window['matchMedia'] !== 'function') return;
      var mq = window['matchMedia']('(resolution: ' + window['devicePixelRatio'] + 'dppx)');
      var onChange = function () { mq['removeEventListener']('change', onChange); notify(); watchRatio(); };
      mq['addEventListener']('change', onChange);
    };
    watchRatio();
    // A change of the system colour scheme restyles the canvas as it restyles the page.
    if (typeof window['matchMedia'] === 'function') {
      var scheme = window['matchMedia']('(prefers-color-scheme: light)');
      scheme['addEventListener']('change', function () {
        var f = Module['_ts_bridge_set_theme'];
        if (typeof f === 'function') f(scheme['matches'] ? 0 : 1);
      });
    }
    // The text proxy: a hidden input in the canvas's frame that a phone's keyboard types into (see
    // ts_js_text_field). Its whole value replaces the field's text on every change.
    var proxy = document['createElement']('input');
    proxy['type'] = 'text';
    proxy['className'] = 'ts-text-proxy';
    proxy['setAttribute']('aria-label', 'Value');
    proxy['setAttribute']('autocomplete', 'off');
    proxy['setAttribute']('enterkeyhint', 'done');
    proxy['tabIndex'] = -1;
    if (canvas['parentElement']) canvas['parentElement']['appendChild'](proxy);
    Module['tsTextProxy'] = proxy;
    Module['tsLastPointer'] = 'mouse';
    var pointer = function (phase) {
      var f = Module['_ts_bridge_pointer'];
      if (typeof f === 'function') f(phase);
    };
    canvas['addEventListener']('pointerdown', function (e) { Module['tsLastPointer'] = e['pointerType'] || 'mouse'; pointer(0); }, true);
    // The browser took the gesture (touch-action: pan-y lets a vertical swipe scroll the page).
    canvas['addEventListener']('pointercancel', function () { pointer(1); }, true);
    // SDL cancels every touchend (so no emulated mouse click follows a tap); at the end of a swipe that scrolled
    // the page the event cannot be cancelled, and the browser would log each attempt as an error. This runs
    // before SDL's listener on the canvas and makes the attempt a no-op for such an event only.
    var quiet = function (e) {
      if (!e['cancelable']) Object['defineProperty'](e, 'preventDefault', { 'value': function () {} });
    };
    if (canvas['parentElement']) {
      canvas['parentElement']['addEventListener']('touchend', quiet, true);
      canvas['parentElement']['addEventListener']('touchcancel', quiet, true);
      panelTouch(canvas);
    }
    proxy['addEventListener']('input', function () {
      var f = Module['_ts_bridge_text_replace'], v = String(proxy['value']);
      if (typeof f !== 'function') return;
      var n = Module['lengthBytesUTF8'](v) + 1, p = Module['_malloc'](n);
      Module['stringToUTF8'](v, p, n);
      f(p);
      Module['_free'](p);
    });
    proxy['addEventListener']('keydown', function (e) {
      var f = Module['_ts_bridge_text_key'];
      if (typeof f !== 'function') return;
      if (e['key'] === 'Enter') { e['preventDefault'](); f(0); }
      else if (e['key'] === 'Escape') { e['preventDefault'](); f(1); }
    });
    // Leaving the canvas (Tab, a click elsewhere) ends an edit in its panels, which applies it; moving between
    // the canvas and its text proxy does not.
    var blurred = function (e) {
      var to = e['relatedTarget'];
      if (to === canvas || to === proxy) return;
      var f = Module['_ts_bridge_canvas_focus'];
      if (typeof f === 'function') f(0);
    };
    canvas['addEventListener']('blur', blurred);
    proxy['addEventListener']('blur', blurred);
    canvas['addEventListener']('focus', function () {
      var f = Module['_ts_bridge_canvas_focus'];
      if (typeof f === 'function') f(1);
    });
  },
});
