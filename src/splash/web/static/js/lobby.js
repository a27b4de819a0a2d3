// The lobby: create a room of any game the server plays (games.js: its seats, options, bot
// levels and page, as its declaration gives them), list the rooms, take a seat or seat a
// bot, watch; close the rooms this browser created (it keeps their host tokens).
import { NAME_MAX, api, personName, tokens } from "./client.js";
import { h } from "./dom.js";
import { currentLanguage, gettext, languageSwitch, loadLanguage, onLanguageChange } from "./i18n.js";
import { botLevels, gameName, gameOf, games, levelName, noPage, specTitle, pageUrl as gamePageUrl, seatCount, seatName,
  seatShort } from "./games.js";
import { inviteBox } from "./invite.js";
import { randomSeed, seedField } from "./fairness.js";

const app = document.getElementById("app");
// A fresh seed for each seat this page takes: one the server saw in another room could be
// known to it before it commits to a new room's secret.
let seed = randomSeed();
function useSeed() {
  const used = seed;
  seed = randomSeed();
  return used;
}

let form = { game: null, mode: "play", seats: 0, name: "", timer: "", free: "", choices: {}, digital: [], who: [] };
let rooms = [];

/** The form of a new room of `game`, its seats and choices as the game starts them. */
function pick(game) {
  const found = gameOf(game);
  form.game = found ? found.id : null;
  form.seats = found ? found.seats.default : 0;
  form.who = [];
  form.choices = {};
  form.digital = [];
}

/** The page of `room` (with `role`: "seat=N", "watch", "referee"), or null: its game has none. */
function pageUrl(room, role) {
  const query = `room=${encodeURIComponent(room.id)}`;
  return gamePageUrl(room.game, role === undefined ? query : `${query}&${role}`);
}

/** A link to the page of `room`, or the words that say its game has none. */
function pageLink(room, role, text, attributes = {}) {
  const href = pageUrl(room, role);
  return href ? h("a", { class: "button", href, ...attributes }, text) : h("span", { class: "no-page" }, noPage());
}

function label(text, control) {
  return h("label", {}, h("span", { class: "label" }, text), control);
}

function select(id, options, value, onchange) {
  return h("select", { id, onchange: (event) => onchange(event.target.value) },
    options.map(([key, text, title]) => h("option", { value: key, selected: key === value, title }, text)));
}

function whoOptions() {
  return [["me", gettext("me")], ["open", gettext("open (a person)")],
    ...botLevels(form.game).map(({ spec, name }) => [spec, gettext("bot {level}", { level: name }), specTitle(spec)])];
}

function seatRows() {
  const rows = [];
  for (let seat = 0; seat < form.seats; seat += 1) {
    const levels = botLevels(form.game);
    const bot = levels[1] || levels[0];
    const value = form.who[seat] || (seat === 0 || !bot ? "me" : bot.spec);
    form.who[seat] = value;
    rows.push(label(seatName(form.game, seat), select(`who-${seat}`, whoOptions(), value, (v) => { form.who[seat] = v; })));
  }
  return rows;
}

function createForm() {
  const game = gameOf(form.game);
  if (!game) {
    return h("section", { class: "card", id: "create" }, h("h2", {}, gettext("New room")),
      h("p", { class: "error-line", role: "alert" }, gettext("Connecting…")));
  }
  const seatSpec = game.seats;
  const counts = [];
  for (let n = seatSpec.min; n <= seatSpec.max; n += 1) {
    counts.push([String(n), String(n)]);
  }
  const error = h("p", { id: "create-error", class: "error-line", role: "alert" });
  const choice = ({ key, msgid, values, value_msgids: names, default: start }) =>
    label(gettext(msgid), select(`opt-${key}`,
      values.map((v, i) => [v, names && names[i] ? gettext(names[i]) : v]), form.choices[key] || start,
      (v) => { form.choices[key] = v; }));
  const choices = game.options.filter((option) => !option.variant).map(choice);
  const variantOptions = game.options.filter((option) => option.variant);
  const changed = variantOptions.some((option) => form.choices[option.key] && form.choices[option.key] !== option.default);
  // Rules not part of the game as designed: folded away, open once one is chosen.
  const variants = variantOptions.length ? h("details", { class: "variants", id: "variants", open: changed },
    h("summary", {}, gettext("Variants (not part of the designed rules)")),
    h("div", { class: "grid" }, variantOptions.map(choice))) : null;
  const refereeOnly = form.mode === "referee";
  const digital = refereeOnly ? h("fieldset", {},
    h("legend", {}, gettext("Drawn by the server (digital)")),
    game.digital.map((kind) => h("label", { class: "inline" },
      h("input", { type: "checkbox", id: `digital-${kind}`, checked: form.digital.includes(kind),
        onchange: (event) => {
          form.digital = event.target.checked ? [...form.digital, kind] : form.digital.filter((k) => k !== kind);
        } }), " ", kind))) : null;
  return h("form", { id: "create", class: "card", onsubmit: (event) => { event.preventDefault(); create(error); } },
    h("h2", {}, gettext("New room")),
    h("div", { class: "grid" },
      label(gettext("Game"), select("game", games().map(({ id }) => [id, gameName(id)]), form.game,
        (v) => { pick(v); render(); })),
      label(gettext("Mode"), select("mode", [["play", gettext("play")], ["referee", gettext("referee (a real game)")]], form.mode,
        (v) => { form.mode = v; render(); })),
      label(gettext("Name"), h("input", { id: "name", maxLength: 100, value: form.name, oninput: (e) => { form.name = e.target.value; } })),
      refereeOnly ? null : label(gettext("Your name"), h("input", {
        id: "host-name", maxLength: NAME_MAX, value: personName.get(), autocomplete: "nickname",
        oninput: (e) => personName.set(e.target.value),
      })),
      refereeOnly || form.mode === "referee" ? null : seedField({ id: "client-seed", value: seed, onInput: (text) => { seed = text; } }),
      label(seatCount(form.game),
        select("seats", counts, String(form.seats), (v) => { form.seats = Number(v); render(); })),
      ...choices,
      refereeOnly ? null : label(gettext("Turn timer (seconds, empty: none)"),
        h("input", { id: "timer", type: "number", min: 1, value: form.timer, oninput: (e) => { form.timer = e.target.value; } }))),
    refereeOnly ? h("p", {}, gettext("The referee enters the rolls and cards and the decisions of open seats.")) :
      h("fieldset", {}, h("legend", {}, gettext("Seats")), h("div", { class: "grid" }, seatRows())),
    digital,
    variants,
    label(gettext("More settings, one KEY=VALUE a line"),
      h("textarea", { id: "settings", rows: 3, value: form.free, placeholder: gettext("for example: {setting}", { setting: "board.lanes.outer=36" }),
        oninput: (e) => { form.free = e.target.value; } })),
    h("button", { type: "submit", id: "create-room", class: "primary" }, gettext("Create the room")),
    error);
}

async function create(error) {
  error.textContent = "";
  const game = gameOf(form.game);
  const settings = [`${game.seats.key}=${form.seats}`];
  for (const { key, default: start } of game.options) {
    const value = form.choices[key];
    if (value && value !== start) {
      settings.push(`${key}=${value}`);
    }
  }
  settings.push(...form.free.split("\n").map((line) => line.trim()).filter(Boolean));
  const referee = form.mode === "referee";
  const who = referee ? [] : form.who.slice(0, form.seats);
  const options = {};
  if (!referee && form.timer) {
    options.turn_timer_s = Number(form.timer);
  }
  if (referee) {
    options.digital = form.digital;
  }
  try {
    const created = await api("/api/rooms", {
      game: form.game, mode: form.mode, name: form.name, settings, options,
      bots: who.map((w) => (w === "me" || w === "open" ? null : w)),
    });
    const room = created.room;
    tokens.setHost(room.id, created.host_token);
    if (created.referee_token) {
      tokens.setReferee(room.id, created.referee_token);
    }
    let mine = null;
    for (const [seat, w] of who.entries()) {
      if (w === "me") {
        const taken = await api(`/api/rooms/${room.id}/seats/${seat}`, { name: personName.get().trim() || gettext("host"), client_seed: useSeed() });
        tokens.setSeat(room.id, seat, taken.token);
        mine = mine === null ? seat : mine;
      }
    }
    const role = created.referee_token ? "referee" : mine === null ? undefined : `seat=${mine}`;
    const href = pageUrl(room, role);
    if (href) {
      location.href = href;
      return;
    }
    await refresh();
    document.getElementById("create-error").textContent = noPage();
  } catch (problem) {
    error.textContent = problem.message || String(problem);
  }
}

function seatCell(room, seat, error) {
  const named = seat.kind === "human" && seat.name;
  const name = seat.kind === "bot" ? gettext("bot {level}", { level: levelName(seat.bot) })
    : named ? h("span", { translate: "no" }, seat.name) : seat.kind === "human" ? gettext("a person") : gettext("open");
  const parts = [h("span", { title: seat.kind === "bot" ? specTitle(seat.bot) : null }, `${seatShort(room.game, seat.seat)}: `, name)];
  if (seat.kind === "human" && room.status !== "over") {
    // Live: whoever serves the room records who is connected, so every process's lobby knows.
    parts.push(h("span", { class: seat.connected ? "live on" : "live off" },
      seat.connected ? gettext("connected") : gettext("away")));
  }
  if (tokens.seat(room.id, seat.seat) && pageUrl(room)) {
    parts.push(pageLink(room, `seat=${seat.seat}`, gettext("play")));
  }
  if (seat.kind === "open" && room.status !== "over") {
    parts.push(h("button", { type: "button", onclick: () => take(room, seat.seat, { name: gettext("a person"), client_seed: useSeed() }, true, error) },
      gettext("Take this seat")));
  }
  if (seat.kind === "open" && room.mode === "play") {
    const levels = botLevels(room.game);
    const bot = select(`bot-${room.id}-${seat.seat}`, levels.map(({ spec, name }) => [spec, name, specTitle(spec)]),
      levels.length ? levels[0].spec : null, () => {});
    bot.setAttribute("aria-label", gettext("Bot level"));
    parts.push(bot,
      h("button", { type: "button", onclick: () => take(room, seat.seat, { bot: bot.value }, false, error) }, gettext("Seat this bot")));
  }
  return h("li", {}, parts);
}

async function take(room, seat, body, open, error) {
  error.textContent = "";
  try {
    const taken = await api(`/api/rooms/${room.id}/seats/${seat}`, body);
    if (taken.token) {
      tokens.setSeat(room.id, seat, taken.token);
    }
    if (open && pageUrl(room)) {
      location.href = pageUrl(room, `seat=${seat}`);
      return;
    }
    await refresh();
  } catch (problem) {
    error.textContent = problem.message || String(problem);
  }
}

async function closeRoom(room, error) {
  error.textContent = "";
  const question = gettext("Close the room {room}? The game ends for everyone in it.", { room: room.name || room.id });
  if (!window.confirm(question)) {
    return;
  }
  try {
    await api(`/api/rooms/${encodeURIComponent(room.id)}`, undefined, { method: "DELETE", token: tokens.host(room.id) });
    tokens.forgetHost(room.id);
  } catch (problem) {
    if (problem.code === "room_closed") {
      tokens.forgetHost(room.id);
    } else {
      error.textContent = problem.message || String(problem);
      return;
    }
  }
  await refresh();
}

/** Whether a friend could still take a seat of `room`: it is not over and a seat is open. */
function invitable(room) {
  return room.status !== "over" && room.seats.some((seat) => seat.kind === "open");
}

const STATUS = { open: () => gettext("waiting for players"), playing: () => gettext("playing"), over: () => gettext("over") };

function roomList() {
  const error = h("p", { class: "error-line", role: "alert", id: "rooms-error" });
  const rows = rooms.map((room) => h("tr", { "data-room": room.id },
    h("td", { "data-label": gettext("Room") },
      h("span", { translate: room.name ? "no" : null }, room.name || room.id),
      room.commitment ? h("span", { class: "commitment hint", "data-commitment": room.id },
        gettext("chance committed:"), " ",
        h("code", { translate: "no", title: room.commitment }, `${room.commitment.slice(0, 12)}…`)) : null),
    h("td", { "data-label": gettext("Game") }, gameName(room.game)),
    h("td", { "data-label": gettext("Mode") }, room.mode === "play" ? gettext("play") : gettext("referee (a real game)")),
    h("td", { "data-label": gettext("Status") }, STATUS[room.status] ? STATUS[room.status]() : room.status),
    h("td", { "data-label": gettext("Seats") }, h("ul", { class: "seats" }, room.seats.map((seat) => seatCell(room, seat, error)))),
    h("td", {},
      tokens.referee(room.id) && pageUrl(room) ? pageLink(room, "referee", gettext("referee")) : null,
      pageLink(room, "watch", gettext("watch")),
      room.status === "over" ? h("a", { class: "button replay-link", "data-replay": room.id,
        href: `/static/replay.html?room=${encodeURIComponent(room.id)}` }, gettext("Watch the replay")) : null,
      tokens.host(room.id) ? h("button", { type: "button", class: "close-room", "data-close": room.id,
        onclick: () => closeRoom(room, error) }, gettext("Close room")) : null,
      invitable(room) ? inviteBox(room.id, { id: `invite-${room.id}`, follow: false }) : null)));
  return h("section", { class: "card" },
    h("h2", {}, gettext("Rooms")),
    h("button", { type: "button", onclick: refresh }, gettext("Refresh")),
    error,
    rooms.length === 0 ? h("p", {}, gettext("No room yet.")) :
      h("table", { id: "rooms" },
        h("thead", {}, h("tr", {}, [gettext("Room"), gettext("Game"), gettext("Mode"), gettext("Status"), gettext("Seats"), ""].map((t) => h("th", {}, t)))),
        h("tbody", {}, rows)));
}

/** The rules of both games, in the page's language. */
function rulesLink() {
  const lang = currentLanguage();
  const href = lang === "en" ? "/rules/README.md" : `/rules/${lang}/README.md`;
  return h("a", { href, id: "rules-link" }, gettext("Rules of the games"));
}

function render() {
  const focused = document.activeElement && document.activeElement.id;
  app.replaceChildren(
    h("header", { class: "top" }, h("h1", {}, "splash"), rulesLink(), languageSwitch()),
    h("main", {}, createForm(), roomList()));
  if (focused && document.getElementById(focused)) {
    document.getElementById(focused).focus();
  }
}

async function refresh() {
  try {
    rooms = await api("/api/rooms");
  } catch (_) {
    rooms = [];
  }
  render();
}

await loadLanguage();
pick(games().length ? games()[0].id : null);
document.title = `splash — ${gettext("Lobby")}`;
onLanguageChange(() => { document.title = `splash — ${gettext("Lobby")}`; render(); });
await refresh();
