// Page strings in the reader's language, from the server's gettext catalogues.
//
// API (stable):
//   await loadLanguage(lang?)      load a catalogue (default: chooseLanguage()); returns the code
//   gettext(msgid, params?)        the translation of an English msgid, "{name}" placeholders
//                                  filled from params: gettext("{team} wins", {team: "A"})
//   N_(msgid)                      mark a msgid for extraction without translating it
//   currentLanguage()              "en" | "fr" | "cs" | "it"
//   chooseLanguage()               pickLanguage() of this browser and of the page's `?lang=`
//   pickLanguage({stored, browser, invited})
//                                  the rule: the remembered choice (`stored`); else, without an
//                                  invitation, the first supported language of `browser`
//                                  (navigator.languages); with one (`invited`, the inviter's
//                                  language carried by an invite link as `lang=xx`), the first
//                                  supported language of `browser` other than English, which
//                                  every browser lists and so asks for nothing, else `invited`;
//                                  else "en"
//   await setLanguage(lang)        load, remember (localStorage) and notify the listeners
//   onLanguageChange(callback)     callback(lang) after each setLanguage
//   languageSwitch()               a <nav> of buttons en/fr/cs/it that calls setLanguage
//   translatePage(root?)           fill [data-i18n] elements (text) and [data-i18n-label]
//                                  (aria-label) from their msgid; the msgids must also appear
//                                  in a gettext()/N_() call of a module, for extraction.
// Messages are extracted by Babel (`gettext` and `N_` keywords) into the project's catalogues.

export const LANGUAGES = ["en", "fr", "cs", "it"];
const DEFAULT = "en";
const NATIVE = { en: "English", fr: "Français", cs: "Čeština", it: "Italiano" };
const STORAGE_KEY = "splash-lang";

let current = "en";
let messages = {};
const listeners = [];

export function N_(msgid) {
  return msgid;
}

export function gettext(msgid, params) {
  const text = Object.prototype.hasOwnProperty.call(messages, msgid) ? messages[msgid] : msgid;
  if (!params) {
    return text;
  }
  return text.replace(/\{(\w+)\}/g, (whole, key) =>
    Object.prototype.hasOwnProperty.call(params, key) ? String(params[key]) : whole);
}

export function currentLanguage() {
  return current;
}

function normalise(lang) {
  const short = String(lang || "").toLowerCase().split(/[-_.]/)[0];
  return LANGUAGES.includes(short) ? short : null;
}

export function pickLanguage({ stored = null, browser = [], invited = null } = {}) {
  const remembered = normalise(stored);
  if (remembered) {
    return remembered;
  }
  const asked = browser.map(normalise).filter(Boolean);
  const inviter = normalise(invited);
  if (inviter) {
    return asked.find((lang) => lang !== DEFAULT) || inviter;
  }
  return asked[0] || DEFAULT;
}

export function chooseLanguage() {
  let stored = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch (_) {
    stored = null;
  }
  const browser = navigator.languages && navigator.languages.length ? [...navigator.languages] : [navigator.language];
  const invited = new URLSearchParams(location.search).get("lang");
  return pickLanguage({ stored, browser, invited });
}

export async function loadLanguage(lang) {
  const wanted = normalise(lang) || chooseLanguage();
  try {
    const response = await fetch(`/api/i18n/${wanted}`);
    const data = await response.json();
    messages = data.messages || {};
    current = data.locale || wanted;
  } catch (_) {
    messages = {};
    current = "en";
  }
  document.documentElement.lang = current;
  return current;
}

export async function setLanguage(lang) {
  const known = normalise(lang) || "en";
  try {
    localStorage.setItem(STORAGE_KEY, known);
  } catch (_) {
    // A page without storage still switches, for this visit.
  }
  await loadLanguage(known);
  translatePage();
  for (const callback of listeners) {
    callback(current);
  }
  for (const button of document.querySelectorAll("[data-lang-choice]")) {
    button.setAttribute("aria-pressed", String(button.dataset.langChoice === current));
  }
  return current;
}

export function onLanguageChange(callback) {
  listeners.push(callback);
}

export function languageSwitch() {
  const nav = document.createElement("nav");
  nav.className = "lang-switch";
  nav.setAttribute("data-i18n-label", "Language");
  nav.setAttribute("aria-label", gettext("Language"));
  for (const lang of LANGUAGES) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = `lang-${lang}`;
    button.textContent = lang.toUpperCase();
    button.title = NATIVE[lang];
    button.lang = lang;
    button.dataset.langChoice = lang;
    button.setAttribute("aria-pressed", String(lang === current));
    button.addEventListener("click", () => setLanguage(lang));
    nav.append(button);
  }
  return nav;
}

export function translatePage(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) {
    element.textContent = gettext(element.dataset.i18n);
  }
  for (const element of root.querySelectorAll("[data-i18n-label]")) {
    element.setAttribute("aria-label", gettext(element.dataset.i18nLabel));
  }
  for (const element of root.querySelectorAll("[data-i18n-placeholder]")) {
    element.setAttribute("placeholder", gettext(element.dataset.i18nPlaceholder));
  }
}

// Strings used only through data-i18n attributes of the pages, listed for extraction.
export const PAGE_STRINGS = [
  N_("Language"),
];
