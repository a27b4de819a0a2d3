// The invite link of a room and its copy button, for the game pages and the lobby.
//
// API (stable):
//   inviteUrl(room, lang?)     the absolute address of the invite page of `room`, carrying the
//                              inviter's language (default: the page's): /static/join.html?room=ID&lang=xx
//   inviteBox(room, {id?, follow?})  a <div class="invite"> with the link in a read-only input
//                              and a "Copy the invite link" button that says "Copied"; with
//                              `follow` (default) its words and link follow language changes
//   copyText(input)            copy input.value (navigator.clipboard; else select the text and
//                              try the browser's copy command); resolves true when copied
import { h } from "./dom.js";
import { currentLanguage, gettext, onLanguageChange } from "./i18n.js";

const SAID_MS = 4000;

export function inviteUrl(room, lang = currentLanguage()) {
  const query = new URLSearchParams({ room, lang });
  return `${location.origin}/static/join.html?${query}`;
}

export async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch (_) {
    input.focus();
    input.select();
    try {
      return document.execCommand("copy");
    } catch (__) {
      return false;
    }
  }
}

export function inviteBox(room, { id = "invite", follow = true } = {}) {
  const input = h("input", { type: "text", readOnly: true, id: `${id}-link`, class: "invite-link", value: inviteUrl(room),
    onfocus: (event) => event.target.select() });
  const said = h("span", { class: "invite-said", id: `${id}-said`, role: "status", "aria-live": "polite" });
  const label = h("label", { for: `${id}-link`, class: "label" });
  const button = h("button", { type: "button", id: `${id}-copy` });
  let timer = null;
  button.addEventListener("click", async () => {
    const copied = await copyText(input);
    said.dataset.copied = String(copied);
    said.textContent = copied ? gettext("Copied") : gettext("Select the link and copy it.");
    clearTimeout(timer);
    timer = setTimeout(() => { said.textContent = ""; }, SAID_MS);
  });
  const box = h("div", { class: "invite", id }, label, h("div", { class: "invite-row" }, input, button), said);
  const words = () => {
    label.textContent = gettext("Invite a friend: send them this link");
    button.textContent = gettext("Copy the invite link");
    input.value = inviteUrl(room);
  };
  words();
  if (follow) {
    onLanguageChange(words);
  }
  return box;
}
