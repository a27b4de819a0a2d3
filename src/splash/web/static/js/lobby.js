// The lobby: create a room of either game, list the rooms, take a seat or seat a bot, watch;
// close the rooms this browser created (it keeps their host tokens).
import { api, tokens } from "./client.js";
import { h } from "./dom.js";
import { N_, currentLanguage, gettext, languageSwitch, loadLanguage, onLanguageChange } from "./i18n.js";
import { BOT_LEVELS, botLevels, levelName } from "./bot-levels.js";
import { inviteBox } from "./invite.js";

const BOTS = Object.fromEntries(Object.entries(BOT_LEVELS).map(([game, levels]) => [game, levels.map(([, spec]) => spec)]));
const SEATS = { bash: { key: "options.teams", min: 2, max: 4, start: 2 },
  tower: { key: "options.players", min: 2, max: 6, start: 3 } };
const CHOICES = {
  bash: [["options.obstacles", N_("Obstacles"), ["one-shot", "permanent"]], ["board.laps", N_("Laps"), ["2", "1", "3"]]],
  tower: [["options.placement", N_("Placement"), ["highest-matching", "top"]], ["options.deal", N_("Deal"), ["draft", "random"]]],
};
const DIGITAL = { bash: ["roll", "draw", "steal"], tower: ["deal"] };

const app = document.getElementById("app");
let form = { game: "bash", mode: "play", seats: 2, name: "", timer: "", free: "", choices: {}, digital: [], who: ["me", "greedy"] };
let rooms = [];

function gamePage(room) {
  return room.game === "bash" ? "bash.html" : "tower.html";
}

function pageUrl(room, role) {
  const base = `/static/${gamePage(room)}?room=${encodeURIComponent(room.id)}`;
  return role === undefined ? base : `${base}&${role}`;
}

function gameName(game) {
  return game === "bash" ? gettext("Splash & Bash") : gettext("Splash!");
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
    ...botLevels(form.game).map(({ spec, name }) => [spec, gettext("bot {level}", { level: name }), spec])];
}

function seatRows() {
  const rows = [];
  for (let seat = 0; seat < form.seats; seat += 1) {
    const value = form.who[seat] || (seat === 0 ? "me" : BOTS[form.game][1] || "random");
    form.who[seat] = value;
    const seatLabel = form.game === "bash"
      ? gettext("Team {team}", { team: "ABCD"[seat] }) : gettext("Player {seat}", { seat: seat + 1 });
    rows.push(label(seatLabel, select(`who-${seat}`, whoOptions(), value, (v) => { form.who[seat] = v; })));
  }
  return rows;
}

function createForm() {
  const seatSpec = SEATS[form.game];
  const counts = [];
  for (let n = seatSpec.min; n <= seatSpec.max; n += 1) {
    counts.push([String(n), String(n)]);
  }
  const error = h("p", { id: "create-error", class: "error-line", role: "alert" });
  const choices = CHOICES[form.game].map(([key, text, values]) =>
    label(gettext(text), select(`opt-${key}`, values.map((v) => [v, v]), form.choices[key] || values[0],
      (v) => { form.choices[key] = v; })));
  const refereeOnly = form.mode === "referee";
  const digital = refereeOnly ? h("fieldset", {},
    h("legend", {}, gettext("Drawn by the server (digital)")),
    DIGITAL[form.game].map((kind) => h("label", { class: "inline" },
      h("input", { type: "checkbox", id: `digital-${kind}`, checked: form.digital.includes(kind),
        onchange: (event) => {
          form.digital = event.target.checked ? [...form.digital, kind] : form.digital.filter((k) => k !== kind);
        } }), " ", kind))) : null;
  return h("form", { id: "create", class: "card", onsubmit: (event) => { event.preventDefault(); create(error); } },
    h("h2", {}, gettext("New room")),
    h("div", { class: "grid" },
      label(gettext("Game"), select("game", [["bash", gettext("Splash & Bash")], ["tower", gettext("Splash!")]], form.game,
        (v) => { form.game = v; form.seats = SEATS[v].start; form.who = []; form.choices = {}; form.digital = []; render(); })),
      label(gettext("Mode"), select("mode", [["play", gettext("play")], ["referee", gettext("referee (a real game)")]], form.mode,
        (v) => { form.mode = v; render(); })),
      label(gettext("Name"), h("input", { id: "name", maxLength: 100, value: form.name, oninput: (e) => { form.name = e.target.value; } })),
      label(form.game === "bash" ? gettext("Teams") : gettext("Players"),
        select("seats", counts, String(form.seats), (v) => { form.seats = Number(v); render(); })),
      ...choices,
      refereeOnly ? null : label(gettext("Turn timer (seconds, empty: none)"),
        h("input", { id: "timer", type: "number", min: 1, value: form.timer, oninput: (e) => { form.timer = e.target.value; } }))),
    refereeOnly ? h("p", {}, gettext("The referee enters the rolls and cards and the decisions of open seats.")) :
      h("fieldset", {}, h("legend", {}, gettext("Seats")), h("div", { class: "grid" }, seatRows())),
    digital,
    label(gettext("More settings, one KEY=VALUE a line"),
      h("textarea", { id: "settings", rows: 3, value: form.free, placeholder: "board.lanes.outer=36",
        oninput: (e) => { form.free = e.target.value; } })),
    h("button", { type: "submit", id: "create-room", class: "primary" }, gettext("Create the room")),
    error);
}

async function create(error) {
  error.textContent = "";
  const settings = [`${SEATS[form.game].key}=${form.seats}`];
  for (const [key, , values] of CHOICES[form.game]) {
    const value = form.choices[key];
    if (value && value !== values[0]) {
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
      location.href = pageUrl(room, "referee");
      return;
    }
    let mine = null;
    for (const [seat, w] of who.entries()) {
      if (w === "me") {
        const taken = await api(`/api/rooms/${room.id}/seats/${seat}`, { name: gettext("me") });
        tokens.setSeat(room.id, seat, taken.token);
        mine = mine === null ? seat : mine;
      }
    }
    location.href = mine === null ? pageUrl(room) : pageUrl(room, `seat=${mine}`);
  } catch (problem) {
    error.textContent = problem.message || String(problem);
  }
}

function seatCell(room, seat, error) {
  const name = seat.kind === "bot" ? gettext("bot {level}", { level: levelName(seat.bot) })
    : seat.kind === "human" ? (seat.name || gettext("a person")) : gettext("open");
  const parts = [h("span", { title: seat.kind === "bot" ? seat.bot : null }, `${room.game === "bash" ? "ABCD"[seat.seat] : seat.seat + 1}: ${name}`)];
  if (tokens.seat(room.id, seat.seat)) {
    parts.push(h("a", { class: "button", href: pageUrl(room, `seat=${seat.seat}`) }, gettext("play")));
  }
  if (seat.kind === "open" && room.status !== "over") {
    parts.push(h("button", { type: "button", onclick: () => take(room, seat.seat, { name: gettext("a person") }, true, error) },
      gettext("Take this seat")));
  }
  if (seat.kind === "open" && room.mode === "play") {
    const bot = select(`bot-${room.id}-${seat.seat}`, botLevels(room.game).map(({ spec, name }) => [spec, name, spec]), BOTS[room.game][0], () => {});
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
    if (open) {
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
    h("td", { "data-label": gettext("Room") }, room.name || room.id),
    h("td", { "data-label": gettext("Game") }, gameName(room.game)),
    h("td", { "data-label": gettext("Mode") }, room.mode === "play" ? gettext("play") : gettext("referee (a real game)")),
    h("td", { "data-label": gettext("Status") }, STATUS[room.status] ? STATUS[room.status]() : room.status),
    h("td", { "data-label": gettext("Seats") }, h("ul", { class: "seats" }, room.seats.map((seat) => seatCell(room, seat, error)))),
    h("td", {},
      tokens.referee(room.id) ? h("a", { class: "button", href: pageUrl(room, "referee") }, gettext("referee")) : null,
      h("a", { class: "button", href: pageUrl(room, "watch") }, gettext("watch")),
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
document.title = `splash — ${gettext("Lobby")}`;
onLanguageChange(() => { document.title = `splash — ${gettext("Lobby")}`; render(); });
await refresh();
