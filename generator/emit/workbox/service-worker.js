// The site's service worker (classic script). The build (build-service-worker.mjs) fills in the
// two manifests and writes it as sw.js at the site's root, so its scope is the whole site, also
// under a sub-path such as https://user.github.io/layermap/.
//   - Every page and asset of this build, and the search index, is precached with its revision
//     when the worker installs (Workbox precaching, each file fetched with its digest: a file of
//     another deployment fails the install, so one worker's copy is all of one build or nothing);
//     pages are answered from that cache, so a reader who visited once can read and search
//     offline. The pages link layermap's scripts and stylesheet, and the calculator worker takes
//     its Python, from a folder named after their bytes (generator/emit/revisioned.py), so even
//     without this worker a page never gets another deployment's.
//   - The calculator runtime (assets/pyodide/, about 13 MB) is left to the browser's HTTP cache
//     while online (faster to start); a copy is kept once the reader has been on a calculator page
//     (KEEP_RUNTIME, from the page), in a cache named after its revisions, and answers under
//     assets/pyodide-saved/ offline. "Save for offline" (offline.js) asks this worker to fetch
//     everything, with progress in bytes; OFFLINE_STATUS says what this browser holds, each file checked.
//   - A new build's worker waits until the reader chooses to reload (message SKIP_WAITING).
//   - sitemap.xml is answered from the manifest for the address the site is actually served from,
//     so Material's instant navigation works whatever site_url the build had.
//   - Nothing is served from Cache Storage unless its bytes are the ones this build lists (their
//     SHA-256 digest is in the manifests): the caches belong to the origin, which on GitHub Pages
//     every project site of the same user shares, so another site may have written into them.
importScripts(
  "assets/workbox/workbox-core.prod.js",
  "assets/workbox/workbox-routing.prod.js",
  "assets/workbox/workbox-strategies.prod.js",
  "assets/workbox/workbox-precaching.prod.js",
);

const PRECACHE = self.__WB_MANIFEST;
const RUNTIME = self.__LAYERMAP_RUNTIME_MANIFEST;
const SCOPE = self.registration.scope;
const RUNTIME_CACHE_PREFIX = `layermap-runtime-${SCOPE}-`;
const RUNTIME_CACHE = RUNTIME_CACHE_PREFIX + fingerprint(RUNTIME);
const RUNTIME_URLS = new Set(RUNTIME.map((entry) => siteUrl(entry.url)));
// Earlier versions kept the search index in a cache of its own: gone once this version takes over.
const RETIRED_SEARCH_CACHE_PREFIX = `layermap-search-${SCOPE}-`;
// Each cache key's SHA-256 digest ("sha256-<base64>") and size, from the manifests; the precache's keys are added below.
const INTEGRITY = new Map(RUNTIME.map((entry) => [siteUrl(entry.url), entry.integrity]));
const BYTES = new Map(RUNTIME.map((entry) => [siteUrl(entry.url), entry.bytes ?? 0]));
// Keys whose cached copy this worker has read and found to be this build's. Every page load asks
// what is held: each copy is read and checked once in the worker's life (21 MB took 1.7 s), and
// then only found present; a copy that fails a later read is deleted, so it is missing next time.
const verified = new Set();

function siteUrl(relative) {
  return new URL(relative, SCOPE).href;
}

// A short, stable name for a list of revisions (FNV-1a): a new Pyodide gets a new cache.
function fingerprint(entries) {
  let hash = 0x811c9dc5;
  for (const char of entries.map((entry) => `${entry.url}@${entry.revision}`).join("\n")) {
    hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  }
  return hash.toString(16);
}

// --- only this build's bytes -------------------------------------------------------------------
//
// Cache Storage belongs to the origin, not to this site: on GitHub Pages another project site of
// the same user (https://user.github.io/other-project/), or any script on the origin, can open
// these caches and put its own response under a URL this worker answers. This script is the one
// thing here that came from this site, so a copy read from a cache is served only if its bytes
// have the digest the build wrote into it, and with no header but the content type its file name
// gives (a planted Refresh or Content-Type is not passed on). A copy that fails is deleted and the
// file fetched again; only a copy that passes is written.
const CONTENT_TYPES = {
  html: "text/html; charset=utf-8", js: "text/javascript; charset=utf-8", mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8", json: "application/json", wasm: "application/wasm", zip: "application/zip",
  py: "text/plain; charset=utf-8", txt: "text/plain; charset=utf-8", xml: "application/xml",
  svg: "image/svg+xml", png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif",
  webp: "image/webp", ico: "image/x-icon", woff: "font/woff", woff2: "font/woff2",
};

function contentType(key) {
  const path = new URL(key).pathname;
  return CONTENT_TYPES[path.slice(path.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream";
}

async function digest(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256-${btoa(String.fromCharCode(...hash))}`;
}

// A response made of `bytes` if they are the ones this build lists for `key`, else null.
async function checkedBytes(key, bytes) {
  const expected = INTEGRITY.get(key);
  if (!expected || (await digest(bytes)) !== expected) return null;
  return new Response(bytes, { headers: { "Content-Type": contentType(key) } });
}

// The response rebuilt from its bytes if they are the ones this build lists for `key`, else null.
async function checked(key, response) {
  if (!INTEGRITY.has(key) || !response?.ok) return null;
  return checkedBytes(key, await response.arrayBuffer());
}

// A cache's copy of `key` if it is this build's, else null (and any other copy is deleted).
async function cachedCopy(cache, key) {
  const held = await cache.match(key);
  const copy = held ? await checked(key, held) : null;
  if (held && !copy) {
    verified.delete(key);
    await cache.delete(key);
  }
  return copy;
}

// For Workbox's strategies: a copy that fails is a miss, so the strategy fetches the file again.
const checkedReads = {
  async cachedResponseWillBeUsed({ cacheName, request, cachedResponse }) {
    if (!cachedResponse) return null;
    const copy = await checked(request.url, cachedResponse);
    if (!copy) {
      verified.delete(request.url);
      await (await caches.open(cacheName)).delete(request);
    }
    return copy;
  },
};

workbox.core.setCacheNameDetails({ prefix: "layermap" });
workbox.core.clientsClaim();  // the first install serves the open page at once; later ones wait
workbox.precaching.cleanupOutdatedCaches();

// --- the calculator runtime: the browser's own cache online, this worker's copy offline ---------
//
// Requests for assets/pyodide/ are not answered here: they go to the network as if there were no
// service worker, so the browser's HTTP cache serves a returning reader, with the compiled code
// Chromium keeps beside it. Answered from Cache Storage through this worker instead, every start
// of the runtime took about 0.8 s longer: the 9 MB wasm was compiled afresh each time
// (benchmarks/CALCULATOR_RESULTS.md, 2026-12-04). This worker still keeps a copy for offline
// reading: a page with a calculator asks for it once its calculator has started, or a while after
// it loaded if the calculator never started (KEEP_RUNTIME, below), and "Save for offline" fetches
// it. The calculator's worker asks for that copy under assets/pyodide-saved/ when the browser is
// offline, or when the page restarted it because the network failed: those requests are answered
// from the copy (from the network while there is none).
const RUNTIME_FOLDER = siteUrl("assets/pyodide/");
const SAVED_RUNTIME_FOLDER = siteUrl("assets/pyodide-saved/");

function savedRuntimeTarget(url) {
  const address = url.origin + url.pathname;
  if (!address.startsWith(SAVED_RUNTIME_FOLDER)) return null;
  const target = RUNTIME_FOLDER + address.slice(SAVED_RUNTIME_FOLDER.length);
  return RUNTIME_URLS.has(target) ? target : null;
}

const isSavedRuntimeFile = ({ url }) => savedRuntimeTarget(url) !== null;

async function answerFromSavedRuntime({ url }) {
  const target = savedRuntimeTarget(url);
  const cache = await caches.open(RUNTIME_CACHE);
  const saved = await cachedCopy(cache, target);
  if (saved) return saved;
  const response = await fetch(target);
  const copy = await checked(target, response.clone());
  if (copy) await cache.put(target, copy);
  return response;
}

async function answerHeadFromSavedRuntime({ url }) {
  const target = savedRuntimeTarget(url);
  const saved = await cachedCopy(await caches.open(RUNTIME_CACHE), target);
  return saved ? new Response(null, { headers: saved.headers }) : fetch(target, { method: "HEAD" });
}

workbox.routing.registerRoute(isSavedRuntimeFile, answerFromSavedRuntime);
workbox.routing.registerRoute(isSavedRuntimeFile, answerHeadFromSavedRuntime, "HEAD");

// The runtime the calculator has just run (or is about to), copied for offline reading. The default
// cache mode takes the browser's copy while it is fresh (nothing is downloaded twice) and asks the
// server again once it is not, so the copy is of the files the site serves now.
async function keepRuntime() {
  const cache = await caches.open(RUNTIME_CACHE);
  for (const url of RUNTIME_URLS) await ensureCached(cache, url, "default");
}

let keeping = null;  // one copy at a time: two pages that start a calculator together share it
function keepRuntimeOnce() {
  keeping ??= keepRuntime().catch(() => {}).finally(() => { keeping = null; });  // a failed copy is tried again at the next use
  return keeping;
}

// --- sitemap.xml for the address the site is served from ---------------------------------------

function escapeXml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function sitemapForScope() {
  const pages = PRECACHE.map((entry) => entry.url)
    .filter((url) => url === "index.html" || url.endsWith("/index.html"))
    .map((url) => siteUrl(url.slice(0, -"index.html".length)));
  const urls = pages.map((page) => `<url><loc>${escapeXml(page)}</loc></url>`).join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
}

workbox.routing.registerRoute(({ url }) => url.origin + url.pathname === siteUrl("sitemap.xml"), sitemapForScope);

// --- pages and assets: precached; a page URL's query (a calculator scenario) never matters -------
//
// Workbox fetches each file with its digest at install (the browser checks the bytes); a copy that
// fails the check on a read is fetched the same way and written again (Workbox's repair).
workbox.precaching.addPlugins([checkedReads]);
workbox.precaching.precacheAndRoute(PRECACHE, { directoryIndex: "index.html", ignoreURLParametersMatching: [/.*/], cleanURLs: false });
const PRECACHE_KEYS = PRECACHE.map((entry) => workbox.precaching.getCacheKeyForURL(siteUrl(entry.url)));
PRECACHE.forEach((entry, index) => {
  INTEGRITY.set(PRECACHE_KEYS[index], entry.integrity);
  BYTES.set(PRECACHE_KEYS[index], entry.bytes ?? 0);
});

// --- saving for offline, and what is saved -------------------------------------------------------

// The body of `response`, each chunk counted as it arrives.
async function readCounting(response, counted) {
  const reader = response.body.getReader();
  const chunks = [];
  let length = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    chunks.push(read.value);
    length += read.value.length;
    counted(read.value.length);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes.buffer;
}

// `key` in `cache` unless a checked copy is there already. By default past the browser's HTTP
// cache: it may hold the previous version's file (a server that sends only Last-Modified lets the
// browser reuse it for a while), which would then be kept as this version's. A copy checked before
// in this worker's life is only looked for (not read again). `counted` hears of every byte, the
// held copy's at once.
async function ensureCached(cache, key, mode = "reload", counted = () => {}) {
  const held = (verified.has(key) && await cache.match(key)) || await cachedCopy(cache, key);
  if (held) {
    verified.add(key);
    counted(BYTES.get(key) ?? 0);
    return;
  }
  const response = await fetch(key, { cache: mode });
  if (!response.ok) throw new Error(`${key}: HTTP ${response.status}`);
  const copy = await checkedBytes(key, await readCounting(response, counted));
  if (!copy) throw new Error(`${key}: not the file this version lists (the site has changed: reload for the new version)`);
  await cache.put(key, copy);
  verified.add(key);
}

// What this browser holds of this build, each file present and its bytes checked against its
// digest (a copy that fails is deleted): pages and assets with the search index, or the runtime.
async function heldOf(cacheName, keys) {
  const cache = await caches.open(cacheName);
  const present = new Set((await cache.keys()).map((request) => request.url));
  const held = { files: 0, bytes: 0, total: 0, totalBytes: 0 };
  for (const key of keys) {
    held.total += 1;
    held.totalBytes += BYTES.get(key) ?? 0;
    if (!present.has(key)) verified.delete(key);
    else if (verified.has(key) || await cachedCopy(cache, key)) {
      verified.add(key);
      held.files += 1;
      held.bytes += BYTES.get(key) ?? 0;
    }
  }
  return held;
}

async function offlineStatus() {
  return {
    type: "status",
    pages: await heldOf(workbox.core.cacheNames.precache, PRECACHE_KEYS),
    runtime: await heldOf(RUNTIME_CACHE, RUNTIME_URLS),
  };
}

async function runtimeSaved() {
  const cache = await caches.open(RUNTIME_CACHE);
  const saved = new Set((await cache.keys()).map((request) => request.url));
  return [...RUNTIME_URLS].every((url) => saved.has(url));
}

const PROGRESS_EVERY_MS = 150;

// Every file of this build, pages and search first, then the runtime; progress in bytes, at most
// every PROGRESS_EVERY_MS (the 9.6 MB wasm is most of the total: a count of files stood still on it).
async function saveForOffline(port) {
  const total = [...BYTES.values()].reduce((sum, bytes) => sum + bytes, 0);
  let done = 0;
  let told = 0;
  const counted = (bytes) => {
    done += bytes;
    if (Date.now() - told < PROGRESS_EVERY_MS) return;
    told = Date.now();
    port.postMessage({ type: "progress", done, total });
  };
  try {
    const precache = await caches.open(workbox.core.cacheNames.precache);
    for (const key of PRECACHE_KEYS) await ensureCached(precache, key, "reload", counted);
    const runtime = await caches.open(RUNTIME_CACHE);
    for (const url of RUNTIME_URLS) await ensureCached(runtime, url, "reload", counted);
    port.postMessage({ type: "done", done, total });
  } catch (error) {
    port.postMessage({ type: "failed", done, total, reason: String(error?.message ?? error) });
  }
}

self.addEventListener("message", (event) => {
  const type = event.data?.type;
  if (type === "SKIP_WAITING") self.skipWaiting();
  else if (type === "KEEP_RUNTIME") event.waitUntil(keepRuntimeOnce().then(() => event.ports[0]?.postMessage({ type: "kept" })));
  else if (type === "SAVE_FOR_OFFLINE" && event.ports[0]) event.waitUntil(saveForOffline(event.ports[0]));
  else if (type === "OFFLINE_STATUS" && event.ports[0]) event.waitUntil(offlineStatus().then((status) => event.ports[0].postMessage(status)));
});

// --- versions: a reader who saved the old runtime gets the new one before it takes over ------------

async function olderCaches(prefix, current) {
  return (await caches.keys()).filter((name) => name.startsWith(prefix) && name !== current);
}

function olderRuntimeCaches() {
  return olderCaches(RUNTIME_CACHE_PREFIX, RUNTIME_CACHE);
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    if ((await olderRuntimeCaches()).length === 0 || await runtimeSaved()) return;
    const runtime = await caches.open(RUNTIME_CACHE);
    for (const url of RUNTIME_URLS) await ensureCached(runtime, url);
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const older = [...await olderRuntimeCaches(), ...await olderCaches(RETIRED_SEARCH_CACHE_PREFIX, null)];
    await Promise.all(older.map((name) => caches.delete(name)));
  })());
});
