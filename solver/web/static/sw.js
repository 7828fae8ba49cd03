// The page's service worker: it keeps the page's own files (never an answer) so the page opens
// with no network once it has been loaded. Each file is asked of the server first, so a newer
// page replaces the kept one; the kept copy answers only when the server cannot be reached.
// Answers (/api/...) always go to the server.
"use strict";

const KEPT = "dice-solver-page";
const FILES = ["/", "/static/app.js", "/static/style.css", "/static/manifest.webmanifest",
               "/static/icon-192.png", "/static/icon-512.png", "/data/totd-dice.json"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(KEPT).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !FILES.includes(url.pathname)) {
    return;  // answers and anything else: the network only
  }
  event.respondWith(fetch(event.request).then((response) => {
    const copy = response.clone();
    if (response.ok) caches.open(KEPT).then((cache) => cache.put(event.request, copy));
    return response;
  }).catch(() => caches.match(event.request, { ignoreSearch: true })));
});
