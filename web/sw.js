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

// A file whose name carries its content's hash never changes: the cache answers it first (no request at
// all on a reload), the network only when this release has not cached it. Everything else (the page, a
// link's own address) is network first, so an online reader always gets the current release, and the
// cache answers when offline: the page a release cached names only files that release cached too.
const HASHED = /\.[0-9a-f]{10}\.[a-z0-9]+$/;

function fromNetwork(req) {
  return fetch(req).then((res) => {
    if (res.ok && res.type === 'basic') {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put(req, copy));
    }
    return res;
  });
}

const notCached = (url) => new Response('offline and not cached: ' + new URL(url).pathname, { status: 503, headers: { 'Content-Type': 'text/plain' } });

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin) return;
  const cached = () => caches.match(req, { ignoreSearch: true });
  if (HASHED.test(url.pathname)) {
    event.respondWith(cached().then((hit) => hit || fromNetwork(req)).catch(() => notCached(req.url)));
    return;
  }
  event.respondWith(fromNetwork(req).catch(() => caches.open(CACHE).then((c) => c.match(req, { ignoreSearch: true })).then((hit) => hit || notCached(req.url))));
});
