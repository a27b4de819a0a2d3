// The invite page (join.html?room=ID&lang=xx, the link a player copies from a game page or
// the lobby): the room's free seats, each with a button that takes it (the seat's token is
// kept in this browser, as the lobby keeps it) and opens the game on it, and a link to watch.
// The page speaks the inviter's language `lang` unless this browser asks for another
// (i18n.js, pickLanguage). The game's page, its name and its seats' names come from its
// declaration (games.js); a game without a page of its own says so.
import { NAME_MAX, api, personName, tokens } from "./client.js";
import { h, params } from "./dom.js";
import { currentLanguage, gettext, languageSwitch, loadLanguage, onLanguageChange } from "./i18n.js";
import { gameName, levelName, noPage, pageUrl as gamePageUrl, seatName } from "./games.js";
import { randomSeed, seedField } from "./fairness.js";

const query = params();
const roomId = query.get("room") || "";
const app = document.getElementById("app");
let room = null;
let problem = "";
let name = personName.get();
let seed = randomSeed();

/** The game's page for `role` ("seat=N", "watch"), or null: the game has no page of its own. */
function pageUrl(role) {
  const parts = new URLSearchParams({ room: roomId });
  const invited = query.get("lang");
  if (invited) {
    parts.set("lang", invited);
  }
  return gamePageUrl(room.game, `${parts}${role ? `&${role}` : ""}`);
}

function seatLabel(seat) {
  return seatName(room.game, seat);
}

function holder(seat) {
  if (seat.kind === "bot") {
    return gettext("bot {level}", { level: levelName(seat.bot) });
  }
  return seat.name || gettext("a person");
}

async function take(seat) {
  problem = "";
  try {
    const taken = await api(`/api/rooms/${encodeURIComponent(roomId)}/seats/${seat}`, { name: name.trim() || gettext("a person"), client_seed: seed });
    tokens.setSeat(roomId, seat, taken.token);
    location.href = pageUrl(`seat=${seat}`);
  } catch (error) {
    problem = error.message || String(error);
    await refresh();
  }
}

function seatItem(seat) {
  const mine = tokens.seat(roomId, seat.seat);
  if (mine) {
    return h("li", { "data-seat": seat.seat }, h("span", {}, seatLabel(seat.seat)),
      h("a", { class: "button primary", href: pageUrl(`seat=${seat.seat}`), id: `play-${seat.seat}` }, gettext("play")));
  }
  if (seat.kind === "open") {
    return h("li", { "data-seat": seat.seat, class: "free" },
      h("button", { type: "button", class: "primary", id: `take-${seat.seat}`, onclick: () => take(seat.seat) },
        gettext("Take {seat}", { seat: seatLabel(seat.seat) })));
  }
  const who = seat.kind === "human" && seat.name ? h("span", { translate: "no" }, seat.name) : holder(seat);
  return h("li", { "data-seat": seat.seat, class: "taken" }, `${seatLabel(seat.seat)}: `, who);
}

function invitation() {
  const title = room.name
    ? gettext("You are invited to {game}: {room}", { game: gameName(room.game), room: room.name })
    : gettext("You are invited to {game}", { game: gameName(room.game) });
  const over = room.status === "over" || room.status === "closed";
  const free = room.seats.filter((seat) => seat.kind === "open");
  const parts = [h("h2", { id: "invite-title" }, title)];
  if (!pageUrl()) {
    parts.push(h("p", { id: "no-page", class: "error-line" }, noPage()));
  } else if (over) {
    parts.push(h("p", { id: "invite-over" }, room.status === "over" ? gettext("This game is over.") : gettext("This room was closed by its host.")));
  } else if (free.length) {
    parts.push(h("p", {}, gettext("Choose a free seat to play, or watch the game.")),
      h("label", {}, h("span", { class: "label" }, gettext("Your name")),
        h("input", { id: "join-name", maxLength: NAME_MAX, value: name, autocomplete: "nickname", oninput: (event) => { name = event.target.value; personName.set(name); } })),
      room.commitment ? seedField({ id: "join-seed", value: seed, onInput: (text) => { seed = text; } }) : null);
  } else {
    parts.push(h("p", { id: "invite-full" }, gettext("No seat is free: you can watch the game.")));
  }
  parts.push(h("ul", { class: "join-seats", id: "join-seats" }, over || !pageUrl() ? [] : room.seats.map(seatItem)));
  if (room.status !== "closed" && pageUrl()) {
    parts.push(h("p", {}, h("a", { class: "button", id: "join-watch", href: pageUrl("watch") }, gettext("Watch"))));
  }
  return h("section", { class: "card" }, parts, h("p", { class: "error-line", role: "alert", id: "join-error" }, problem));
}

function render() {
  const body = room ? invitation()
    : h("section", { class: "card" }, h("p", { class: "error-line", role: "alert", id: "join-error" },
      problem || (roomId ? gettext("Connecting…") : gettext("No room is named in the address."))));
  app.replaceChildren(
    h("header", { class: "top" }, h("h1", {}, h("a", { href: "/" }, "splash")), languageSwitch()),
    h("main", {}, body));
  const title = gettext("Invitation");
  document.title = `splash — ${title}`;
}

async function refresh() {
  if (!roomId) {
    render();
    return;
  }
  try {
    room = await api(`/api/rooms/${encodeURIComponent(roomId)}`);
  } catch (error) {
    problem = error.message || String(error);
  }
  render();
}

await loadLanguage();
document.documentElement.lang = currentLanguage();
onLanguageChange(render);
await refresh();
