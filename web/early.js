// Runs in <head>, before the first paint: a share link (a hash with key=value) names a view the page's
// prerendered text (the default scenario's) may not be, so that text waits behind a placeholder until the
// app has applied the link (lib/init.mjs removes the class). An in-page anchor ("#tour") is not a link.
if (/=/.test(location.hash)) document.documentElement.classList.add('link-pending');
