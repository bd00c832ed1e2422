// Translations of the browser client (docs/i18n.md). Catalogs are JSON files beside this module
// (/static/i18n/LANG.json, flat "key": "text"); importing this module loads the page's language first
// (top-level await), so every importer can call t() at once.
//
//   t("home.play")                          -> "Play now"
//   t("stats.games", { count: 3 })          -> "3 games"   (an entry {"one": ..., "other": ...}: plural)
//   t("home.seat", { n: 2 })                -> "Seat 2"    ({n} in the text is replaced)
//
// The language: ?lang=xx in the address (remembered), else the one remembered, else the browser's first
// supported one, else English. HTML elements carry data-i18n="key" (their text) and
// data-i18n-attr="attribute:key;..." (attributes); translatePage() fills them.

export const LANGUAGES = ["en", "es", "pt", "it"];
// Each language named in itself, as a language menu shows them (never translated).
export const LANGUAGE_NAMES = { en: "English", es: "Español", pt: "Português", it: "Italiano" };
const STORAGE_KEY = "canasta.lang";

function remembered() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch (e) {
    return null; // private mode: no memory
  }
}

function remember(lang) {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch (e) {
    /* private mode */
  }
}

function supported(tag) {
  const base = String(tag || "").toLowerCase().split("-")[0];
  return LANGUAGES.includes(base) ? base : null;
}

/** The language to show: the address's ?lang=, the remembered choice, the browser's, English. */
export function chooseLanguage() {
  const asked = supported(new URLSearchParams(location.search).get("lang"));
  if (asked) {
    remember(asked);
    return asked;
  }
  const kept = supported(remembered());
  if (kept) return kept;
  for (const tag of navigator.languages || [navigator.language]) {
    const lang = supported(tag);
    if (lang) return lang;
  }
  return "en";
}

async function load(lang) {
  try {
    const res = await fetch(`/static/i18n/${lang}.json`, { headers: { Accept: "application/json" } });
    if (res.ok) return await res.json();
  } catch (e) {
    /* offline or refused: fall back below */
  }
  return {};
}

export const lang = chooseLanguage();
const catalog = await load(lang);
// English fills any hole (a test keeps the catalogs complete, so this is for a stale cache only).
const fallback = lang === "en" ? catalog : await load("en");
const plurals = new Intl.PluralRules(lang);

// While a sentence about the reader is made (asReader), a key's ".you" form comes first: a language whose
// verbs agree with the subject has one ("Tú robaste", "Tu hai pescato"); English and Portuguese ("Você
// comprou") need none, and a missing form falls back to the key itself (docs/i18n.md).
let reader = false;

function entry(key) {
  if (reader && `${key}.you` in catalog) return catalog[`${key}.you`];
  return key in catalog ? catalog[key] : fallback[key];
}

/** `make()`'s sentence, with the reader as its subject when `you` is true (see entry above). */
export function asReader(you, make) {
  const was = reader;
  reader = !!you;
  try {
    return make();
  } finally {
    reader = was;
  }
}

/** The text of `key` in the page's language, with {name} replaced by vars.name; an entry with plural
 * forms is picked by vars.count. An unknown key shows as itself, so it is easy to spot. */
export function t(key, vars = {}) {
  let text = entry(key);
  if (text === undefined) return key;
  if (typeof text === "object") {
    const count = Number(vars.count);
    text = text[plurals.select(count)] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? format(vars[name]) : whole));
}

/** Whether the catalogs have `key` (for optional texts such as a variant's translated name). */
export function has(key) {
  return entry(key) !== undefined;
}

/** A number as the page's language writes it (1.500 / 1,500); nothing known: a dash. */
export function format(value) {
  if (value === null || value === undefined) return "–";
  return typeof value === "number" ? value.toLocaleString(lang) : String(value);
}

/** Fill every data-i18n / data-i18n-attr element under `root`, and set <html lang>. */
export function translatePage(root = document) {
  document.documentElement.lang = lang;
  for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of e.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) e.setAttribute(attr, t(key));
    }
  }
}

/** Switch to `next` and show the page again in it (the choice is remembered). */
export function switchLanguage(next) {
  if (!LANGUAGES.includes(next) || next === lang) return;
  remember(next);
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  location.replace(url.toString());
}

/** A labelled language menu; put it where the page wants it. */
export function languageMenu() {
  const select = document.createElement("select");
  select.id = "language";
  select.dataset.testid = "language";
  select.setAttribute("aria-label", t("i18n.language"));
  for (const code of LANGUAGES) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = LANGUAGE_NAMES[code];
    option.selected = code === lang;
    select.append(option);
  }
  select.addEventListener("change", () => switchLanguage(select.value));
  return select;
}

/** Translate the page and put the language menu into the element with id `slot` (if the page has one). */
export function setUpPage(slot = "language-slot") {
  translatePage();
  const box = document.getElementById(slot);
  if (box) box.replaceChildren(languageMenu());
}
