// Offline copy of the site: a versioned service worker. The site assembly writes the version (a hash of
// the shipped files) and the file list below, so each release installs under a new cache name and the
// old cache is deleted when the new worker takes over.
const VERSION = '__TS_VERSION__';
const FILES = [/*__TS_FILES__*/];
const CACHE = 'tierscope-' + VERSION;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(['./', ...FILES])).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('tierscope-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// Network first, so an online reader always gets the current release; the cache answers when offline.
self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith(fetch(req).then((res) => {
    if (res.ok && res.type === 'basic') {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put(req, copy));
    }
    return res;
  }).catch(() => caches.open(CACHE).then((c) => c.match(req, { ignoreSearch: true }))
    .then((hit) => hit || new Response('offline and not cached: ' + new URL(req.url).pathname, { status: 503, headers: { 'Content-Type': 'text/plain' } }))));
});
