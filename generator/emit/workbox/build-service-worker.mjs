// Writes the site's service worker into a built site folder, with Workbox (npm workbox-build):
//
//   node build-service-worker.mjs SITE_DIR [--not-precached GLOB]...
//
// SITE_DIR/sw.js gets two manifests, each entry a site-relative URL with a revision (a hash of
// the file's bytes, which names the entry's cache key), an integrity (the SHA-256 digest of the
// bytes, as in Subresource Integrity, which the worker checks every copy it serves against) and
// its size in bytes (what the page says this browser holds, or lacks, and what "Save for offline"
// counts): every page and asset with the search index (precached when the worker installs, so a
// reader who visited once can read and search offline), and the calculator runtime,
// assets/pyodide/ (about 13 MB: kept once the reader has been on a calculator page, or when the
// reader saves the site).
// The search's language files the site's index does not ask for (Material's search worker loads
// only those of its `lang`) and the files named by --not-precached (files no page links) are left out.
// The Workbox runtime the worker imports is copied to SITE_DIR/assets/workbox/ (never a CDN).
// On failure: a message on stderr and exit status 1 (2 when workbox-build is not installed).
import { createHash } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WORKER_SOURCE = path.join(HERE, "service-worker.js");
const WORKBOX_LIBRARIES = ["workbox-core", "workbox-routing", "workbox-strategies", "workbox-precaching"];
const RUNTIME_FOLDER = "assets/pyodide";
const RUNTIME_FILES = `${RUNTIME_FOLDER}/**/*`;
const RUNTIME_INJECTION_POINT = "self.__LAYERMAP_RUNTIME_MANIFEST";
const SEARCH_INDEX = "search/search_index.json";
// downloads/: the downloadable copy (a zip of the whole site) is fetched only when a reader asks for it.
const NOT_PRECACHED = [RUNTIME_FILES, "assets/workbox/**", "downloads/**", "sw.js", "sitemap.xml", "sitemap.xml.gz", "**/*.map"];
const SEARCH_LANGUAGE_FOLDER = "assets/javascripts/lunr";
const MAX_PAGE_OR_ASSET_BYTES = 32 * 1024 * 1024;  // Workbox's default (2 MB) would silently skip a large search index
const MAX_RUNTIME_FILE_BYTES = 64 * 1024 * 1024;  // pyodide.asm.wasm is about 10 MB

function loadWorkboxBuild() {
  const require = createRequire(import.meta.url);
  try {
    // The function this script calls, from the module that defines it: the package's index
    // also loads generateSW's bundler, a third of a second more before any file is read.
    const workboxBuild = { injectManifest: require("workbox-build/build/inject-manifest").injectManifest };
    return { workboxBuild, resolveFromWorkbox: createRequire(require.resolve("workbox-build")) };
  } catch (error) {
    if (error?.code !== "MODULE_NOT_FOUND") throw error;
    process.stderr.write(`the npm package workbox-build is not installed (looked from ${HERE}); run \`npm ci\` in the layermap folder\n`);
    process.exit(2);
  }
}

async function copyWorkboxRuntime(resolveFromWorkbox, site) {
  const target = path.join(site, "assets", "workbox");
  await mkdir(target, { recursive: true });
  for (const library of WORKBOX_LIBRARIES) {
    const folder = path.dirname(resolveFromWorkbox.resolve(`${library}/package.json`));
    await copyFile(path.join(folder, "build", `${library}.prod.js`), path.join(target, `${library}.prod.js`));
  }
}

function failOnWarnings(what, result) {
  if (result.warnings.length) throw new Error(`${what}:\n  ${result.warnings.join("\n  ")}`);
  return result;
}

// Workbox's entries with the SHA-256 digest of each file beside its revision. Workbox fetches a
// precached file with it at install (the browser checks the bytes); the worker checks every copy
// it reads from Cache Storage against it, since any page of the same origin can write there.
function withIntegrity(site) {
  return async (manifest) => {
    for (const entry of manifest) {
      const digest = createHash("sha256").update(await readFile(path.join(site, entry.url))).digest("base64");
      entry.integrity = `sha256-${digest}`;
      entry.bytes = entry.size;  // Workbox drops its own size field from what it writes
    }
    return { manifest };
  };
}

async function hasRuntime(site) {
  return stat(path.join(site, RUNTIME_FOLDER)).then((found) => found.isDirectory(), () => false);
}

// The theme's search worker (Material 9) loads, for the languages in its index's config, lunr's
// stemmer support with lunr.LANG.min.js for each language but English, lunr.multi.min.js for
// more than one, tinyseg.js for Japanese and wordcut.js for Hindi and Thai: every other file of
// its lunr folder is never asked for (an English site needs none of the 34).
function unusedSearchLanguageFiles(languages) {
  const used = new Set();
  for (const language of languages) {
    if (language === "ja") used.add("tinyseg.js");
    if (language === "hi" || language === "th") used.add("wordcut.js");
    if (language !== "en") used.add(`min/lunr.${language}.min.js`);
  }
  if (languages.length > 1) used.add("min/lunr.multi.min.js");
  if (used.size) used.add("min/lunr.stemmer.support.min.js");
  return (file) => file.startsWith(`${SEARCH_LANGUAGE_FOLDER}/`) && !used.has(file.slice(SEARCH_LANGUAGE_FOLDER.length + 1));
}

async function searchLanguages(site) {
  const text = await readFile(path.join(site, SEARCH_INDEX), "utf8").catch(() => null);
  if (text === null) return [];  // no search: none of its files is used
  const languages = JSON.parse(text)?.config?.lang;
  return Array.isArray(languages) ? languages.map(String) : ["en"];
}

function withoutFiles(isLeftOut) {
  return (manifest) => ({ manifest: manifest.filter((entry) => !isLeftOut(entry.url)) });
}

// A site without calculators has no runtime: its worker gets an empty runtime manifest.
async function injectRuntimeManifest(injectManifest, site, swSrc, swDest) {
  if (!(await hasRuntime(site))) {
    const source = await readFile(swSrc, "utf8");
    await writeFile(swDest, source.replace(RUNTIME_INJECTION_POINT, "[]"));
    return { count: 0, size: 0 };
  }
  return failOnWarnings("the calculator runtime's manifest", await injectManifest({
    swSrc, swDest, globDirectory: site, globPatterns: [RUNTIME_FILES],
    injectionPoint: RUNTIME_INJECTION_POINT, maximumFileSizeToCacheInBytes: MAX_RUNTIME_FILE_BYTES,
    manifestTransforms: [withIntegrity(site)],
  }));
}

async function writeServiceWorker({ injectManifest }, site, notPrecached) {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "layermap-sw-"));
  try {
    const withRuntime = path.join(scratch, "sw.js");
    const runtime = await injectRuntimeManifest(injectManifest, site, WORKER_SOURCE, withRuntime);
    const unusedLanguageFile = unusedSearchLanguageFiles(await searchLanguages(site));
    let search = 0;
    const countSearch = (manifest) => {
      search = manifest.filter((entry) => entry.url === SEARCH_INDEX).length;
      return { manifest };
    };
    const precache = failOnWarnings("the precache manifest", await injectManifest({
      swSrc: withRuntime, swDest: path.join(site, "sw.js"), globDirectory: site, globPatterns: ["**/*"],
      globIgnores: [...NOT_PRECACHED, ...notPrecached], maximumFileSizeToCacheInBytes: MAX_PAGE_OR_ASSET_BYTES,
      manifestTransforms: [withoutFiles(unusedLanguageFile), withIntegrity(site), countSearch],
    }));
    return { precached: precache.count, precachedBytes: precache.size, search,
             runtime: runtime.count, runtimeBytes: runtime.size };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function main([site, ...options]) {
  const notPrecached = options.filter((_, index) => index % 2 === 1);
  if (!site || options.some((option, index) => index % 2 === 0 && option !== "--not-precached") || options.length % 2) {
    process.stderr.write("usage: node build-service-worker.mjs SITE_DIR [--not-precached GLOB]...\n");
    process.exit(1);
  }
  const { workboxBuild, resolveFromWorkbox } = loadWorkboxBuild();
  await copyWorkboxRuntime(resolveFromWorkbox, site);
  const counts = await writeServiceWorker(workboxBuild, site, notPrecached);
  process.stdout.write(`${JSON.stringify(counts)}\n`);
}

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`${error?.message ?? error}\n`);
  process.exit(1);
});
