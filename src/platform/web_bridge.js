// JavaScript half of the bridge (an Emscripten JS library): the functions C++ calls out to.
// The page's shell (web/shell.js) provides the hooks on the module object: onFatal, onReady.
mergeInto(LibraryManager.library, {
  ts_js_report_fatal: function (code, detail) {
    var c = UTF8ToString(code), d = UTF8ToString(detail);
    if (typeof Module['onFatal'] === 'function') Module['onFatal'](c, d);
    else console.error('tierscope: ' + c + ': ' + d);
  },
  ts_js_notify_ready: function () {
    if (typeof Module['onReady'] === 'function') Module['onReady']();
  },
  ts_js_watch_canvas: function () {
    var canvas = Module['canvas'];
    if (!canvas) return;
    var notify = function () {
      var f = Module['_ts_bridge_canvas_resized'];
      if (typeof f === 'function') f();
    };
    if (typeof ResizeObserver === 'function') new ResizeObserver(notify).observe(canvas);
    // A change of devicePixelRatio (zoom, moving to another screen) does not always resize the canvas.
    var watchRatio = function () {
      var mq = matchMedia('(resolution: ' + devicePixelRatio + 'dppx)');
      var onChange = function () { mq.removeEventListener('change', onChange); notify(); watchRatio(); };
      mq.addEventListener('change', onChange);
    };
    watchRatio();
  },
});
