// The Splash & Bash page: play a team, watch, or referee a real game at the pool.
// URL: bash.html?room=ID[&seat=N | &referee | &watch]; tokens come from localStorage.
import { Connection, api, statusBar, tokens } from "./client.js";
import { levelName } from "./games.js";
import { h, params } from "./dom.js";
import { currentLanguage, gettext, languageSwitch, loadLanguage, onLanguageChange } from "./i18n.js";
import { laneLegend, narrowScreen, poolSvg } from "./bash-board.js";
import { PoolMotion, piecePositions, planMotion } from "./bash-motion.js";
import { cardText } from "./bash-cards.js";
import { choicesPanel } from "./bash-controls.js";
import { handsSection, offCourse, teamSwatch } from "./bash-panels.js";
import { ChatPanel } from "./chat.js";
import { RematchPanel } from "./rematch.js";
import { FairnessPanel, randomSeed } from "./fairness.js";
import { inviteBox } from "./invite.js";
import { bashSummary } from "./game-summary.js";
import { Takebacks } from "./takeback.js";
import { TurnCountdown } from "./turn-timer.js";
import { playSound, soundSwitch } from "./sounds.js";
import {
  actionLabel, cardCount, cardName, decision, eventSentence, movementSentences, newEvents, rollModifiers, setSeatNames,
  teamName,
} from "./bash-text.js";

const query = params();
const ASK_ALWAYS_KEY = "splash-ask-always";
const roomId = query.get("room") || "";
const app = document.getElementById("app");

function pickToken() {
  if (query.has("watch")) {
    return { token: null, wanted: "spectator" };
  }
  if (query.has("referee")) {
    return { token: tokens.referee(roomId), wanted: "referee" };
  }
  if (query.has("seat")) {
    return { token: tokens.seat(roomId, query.get("seat")), wanted: "seat" };
  }
  const referee = tokens.referee(roomId);
  if (referee) {
    return { token: referee, wanted: "referee" };
  }
  const seats = Object.entries(tokens.seats(roomId));
  return seats.length ? { token: seats[0][1], wanted: "seat" } : { token: null, wanted: "spectator" };
}

const page = {
  board: null, view: null, chance: null, status: null, seats: [], room: null,
  log: [], moves: [], revealed: false, busy: false, waitFor: null,
  askAlways: localStorage.getItem(ASK_ALWAYS_KEY) === "1", passedFor: 0, lonePassAt: null,
  folds: {},
};
window.splashBash = page;
const motion = new PoolMotion();
page.motion = motion;

await loadLanguage();
const sounds = soundSwitch();
const picked = pickToken();
const conn = new Connection(roomId, { token: picked.token, lang: currentLanguage() });
conn.clientSeed = randomSeed();  // kept only for a seat without one in a room that waits
if (page.askAlways) {
  conn.preference = true;
}
page.conn = conn;
const bar = statusBar(conn);
const takebacks = new Takebacks(conn, {
  who: (team) => gettext("Team {team}", { team: teamName(team) }),
  onChange: () => render(),
});
takebacks.log = (say) => addLog(say);
const rematch = new RematchPanel(conn, { page: "bash.html" });
const fair = new FairnessPanel(conn, { who: (team) => gettext("Team {team}", { team: teamName(team) }) });
const countdown = new TurnCountdown(conn, () => document.getElementById("timer"),
  (message) => conn.role === "seat" && Boolean(message.view) && message.view.to_act === conn.seat);
page.countdown = countdown;
const chat = new ChatPanel(conn, {
  who: (line) => {
    if (line.role === "seat") {
      return gettext("Team {team}", { team: teamName(line.seat) });
    }
    return line.role === "referee" ? gettext("Referee") : gettext("Spectator");
  },
});

const invite = h("section", { class: "card invite-card" }, inviteBox(roomId));

async function loadBoard() {
  const lang = currentLanguage();
  const board = await api(`/api/rooms/${encodeURIComponent(roomId)}/board`);
  if (lang === currentLanguage() || !page.board) {
    page.board = board;
  }
}

function addLog(...entries) {
  page.log.push(...entries);
  if (page.log.length > 300) {
    page.log.splice(0, page.log.length - 300);
  }
}

// An entry of the log's last ones, sent with the welcome: the action as this seat saw it.
function logEntrySentence(board, entry) {
  const label = actionLabel(board, entry.action);
  return entry.actor >= 0 ? gettext("Team {team}: {action}", { team: teamName(entry.actor), action: label }) : label;
}

function timerText() {
  return countdown.text();
}

function receiveView(message, fresh) {
  const before = page.view;
  page.view = message.view;
  page.status = message.status;
  if ("chance" in message) {
    page.chance = message.chance;
  }
  if (message.seats) {
    page.seats = message.seats;
    setSeatNames(page.seats);
  }
  if (!page.view || !page.board) {
    return;
  }
  const board = page.board;
  if (fresh) {
    if (!before) {
      for (const entry of message.log || []) {
        addLog(() => logEntrySentence(board, entry));
      }
      for (const event of page.view.events || []) {
        addLog(() => eventSentence(board, event));
      }
    }
    return;
  }
  if (message.source === "timer") {
    addLog(() => gettext("Time is up: the turn timer decides for team {team}.", { team: teamName(message.actor) }));
  }
  if (message.actor >= 0 && message.action) {
    const { actor, action } = message;
    if (action.kind !== "play" && action.kind !== "discard") {
      addLog(() => gettext("Team {team}: {action}", { team: teamName(actor), action: actionLabel(board, action) }));
    }
    if (actor === conn.seat) {
      page.revealed = false;
      if (action.kind === "pass" && page.lonePassAt === message.index) {
        page.passedFor += 1;
        addLog(() => gettext("Passed for you: you had no card to play."));
      }
    }
  }
  for (const event of newEvents(before, page.view)) {
    addLog(() => eventSentence(board, event));
  }
  if (before) {
    const moved = movementSentences(board, before, page.view);
    if (moved.length) {
      const snapshot = [before, page.view];
      page.moves = [() => movementSentences(board, snapshot[0], snapshot[1])];
      addLog(...moved.map((_, i) => () => movementSentences(board, snapshot[0], snapshot[1])[i]));
    }
  }
}

// The sounds of an update's events: the roll at once, a bump and a fall when the pool shows them.
function playEventSounds(before, view) {
  const kinds = new Set(newEvents(before, view).map((event) => event.event));
  const when = (test) => {
    const move = motion.plan && motion.plan.moves.find(test);
    return move ? move.delay : 0;
  };
  if (kinds.has("roll")) {
    playSound("roll");
  }
  if (kinds.has("bump")) {
    playSound("bump", when((move) => move.bumped));
  }
  if (kinds.has("fall")) {
    playSound("fall", when((move) => move.fell));
  }
}

conn.on("welcome", (message) => { motion.finish(); receiveView(message, true); render(); });
conn.on("state", (message) => { motion.finish(); receiveView(message, true); render(); });
conn.on("update", (message) => {
  const from = piecePositions(app);
  const before = page.view;
  receiveView(message, false);
  motion.start(planMotion(page.board, before, page.view, from));
  if (page.view) {
    playEventSounds(before, page.view);
  }
  render();
});
// A click on the pool or any key shows the final state at once.
document.addEventListener("click", (event) => {
  if (event.target instanceof Element && event.target.closest(".board-area")) {
    motion.finish();
  }
});
document.addEventListener("keydown", () => motion.finish());
// A takeback: the position rebuilt, nothing of what was taken back left on the page.
// The pieces that go back are listed, for a referee to move them on the real board.
conn.on("undone", (message) => {
  motion.finish();
  const before = page.view;
  page.moves = [];
  page.waitFor = null;
  page.revealed = false;
  receiveView(message, true);
  if (before && page.view && page.board) {
    const board = page.board;
    const snapshot = [before, page.view];
    if (movementSentences(board, before, page.view).length) {
      page.moves = [() => movementSentences(board, snapshot[0], snapshot[1])];
    }
  }
  render();
});
conn.on("status", () => render());
conn.on("seats", (message) => {
  page.seats = message.seats;
  setSeatNames(page.seats);
  page.status = message.status;
  render();
});

function roleLine() {
  if (conn.role === "seat") {
    return gettext("You play team {team}", { team: teamName(conn.seat) });
  }
  if (conn.role === "referee") {
    return gettext("Referee");
  }
  if (conn.role === "spectator") {
    return gettext("Spectator");
  }
  return gettext("Connecting…");
}

function header() {
  return h("header", { class: "top" },
    h("div", {},
      h("h1", {}, gettext("Splash & Bash")),
      h("p", { class: "role", id: "role" }, roleLine(), " · ", page.room && page.room.name ? page.room.name
        : gettext("Splash & Bash · room {room}", { room: roomId }))),
    h("nav", { class: "links" }, h("a", { href: "/", id: "lobby-link" }, gettext("Lobby"))),
    h("div", { class: "page-switches" }, sounds, languageSwitch()));
}

function turnLine(view) {
  const parts = [];
  if (!view.terminal) {
    parts.push(gettext("Turn {turn} · team {team} plays with {piece}", { turn: view.turn, team: teamName(view.team), piece: view.active }));
  }
  const dice = view.dice || [];
  if (dice.length === 1 && dice[0] === view.roll) {
    parts.push(gettext("roll {roll}", { roll: view.roll }));
  } else if (dice.length) {
    parts.push(gettext("roll {roll} (dice {dice})", { roll: view.roll, dice: dice.join(" + ") }));
  }
  parts.push(...rollModifiers(page.board, view));
  if ((view.rerolled || []).length) {
    parts.push(gettext("second roll {roll}", { roll: view.rerolled.join(" + ") }));
  }
  if (view.free_lane) {
    parts.push(gettext("the lane change is free"));
  }
  if (view.skip_move) {
    parts.push(gettext("the pawn does not move this turn"));
  }
  return parts.join(" · ");
}

function diceFace(view) {
  const dice = view.dice || [];
  return h("div", { class: "dice", "aria-hidden": "true" },
    dice.length ? dice.map((d) => h("span", { class: "die" }, String(d))) : h("span", { class: "die empty" }, "?"));
}

function seatDescription(team) {
  const seat = page.seats.find((s) => s.seat === team);
  if (!seat) {
    return "";
  }
  if (seat.kind === "bot") {
    return gettext("bot {level}", { level: levelName(seat.bot) });
  }
  if (seat.kind === "human") {
    return seat.connected ? gettext("a person (connected)") : gettext("a person (away)");
  }
  return gettext("open");
}

// Each card of a hand with what it does.
function cardList(board, hand) {
  if (!hand.length) {
    return gettext("no card");
  }
  return h("ul", { class: "hand-cards" }, hand.map((card) => {
    const text = cardText(board, card);
    return h("li", { "data-card": card }, h("strong", {}, cardName(board, card)), text ? ` — ${text}` : "");
  }));
}

function handsPanel(view) {
  const board = page.board;
  const revealed = view.revealed_hands || {};
  const rows = (view.hand_sizes || []).map((size, team) => {
    let cards;
    if (view.hand && team === view.seat) {
      cards = cardList(board, view.hand);
    } else if (revealed[String(team)]) {
      const hand = revealed[String(team)];
      cards = [gettext("shown:"), cardList(board, hand)];
    } else {
      cards = cardCount(size);
    }
    const mine = team === view.seat;
    return h("li", { class: mine ? "mine" : "" },
      teamSwatch(team),
      h("strong", {}, mine ? gettext("Team {team} (you)", { team: teamName(team) }) : gettext("Team {team}", { team: teamName(team) })),
      ` · ${seatDescription(team)} · `, cards);
  });
  return handsSection(board, view, rows);
}

function logPanel() {
  return h("section", { class: "card log", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, gettext("What happened")),
    h("ol", { id: "log", tabIndex: 0, "aria-labelledby": "log-title", "aria-live": "polite", "aria-relevant": "additions" }, page.log.map((entry) => h("li", {}, entry()))));
}

function movesPanel() {
  if (!page.moves.length) {
    return null;
  }
  const lines = page.moves.flatMap((entry) => entry());
  return h("section", { class: "card moves", id: "moves", "aria-live": "polite" },
    h("h2", {}, conn.role === "referee" ? gettext("Move the pieces") : gettext("Last moves")),
    h("ul", {}, lines.map((line) => h("li", {}, line))));
}

async function send(promise) {
  page.busy = true;
  render();
  bar.showError("");
  try {
    const ack = await promise;
    // The ack comes before the update it acknowledges: the choices stay off until then.
    page.waitFor = ack.index;
  } catch (error) {
    bar.showError(error.message || String(error.code || error));
  } finally {
    page.busy = false;
    render();
  }
}

// Whether the server passes for this seat when "Pass" is all it may do: in a play room that
// holds its windows (docs/protocol.md, "Windows held open"), unless the person asks to be asked.
function serverPassesFor(view) {
  const legal = view.legal_actions || [];
  const options = page.room ? page.room.options || {} : {};
  return conn.role === "seat" && !page.askAlways && page.room !== null && page.room.mode === "play"
    && (options.pass_hold_s || 0) > 0 && view.to_act === conn.seat && !view.terminal
    && legal.length === 1 && legal[0].kind === "pass";
}

const actions = {
  setAskAlways: (on) => {
    page.askAlways = on;
    localStorage.setItem(ASK_ALWAYS_KEY, on ? "1" : "0");
    conn.prefer(on);
    render();
  },
  act: (action, seat) => send(conn.act(action, { seat })),
  outcome: (action) => send(conn.outcome(action)),
  reveal: (seat) => {
    conn.reveal(seat);
    if (seat === null) {
      page.revealed = true;
    }
    render();
  },
  hide: (seat) => {
    conn.hide(seat);
    if (seat === null) {
      page.revealed = false;
    }
    render();
  },
};

// On a phone the panels read now and then (chat, invite, log, last moves) fold away under
// the board and the choices; each one opens with a tap, and stays as it was left.
function fold(id, title, content) {
  if (!content || !narrowScreen()) {
    return content;
  }
  const details = h("details", {
    class: "fold card", id: `fold-${id}`,
    ontoggle: (event) => { page.folds[id] = event.target.open; },
  }, h("summary", {}, title), content);
  details.open = Boolean(page.folds[id]);
  return details;
}

// An open room whose seats are all taken waits for its people's seeds (a rematch): each
// page adds one as it joins.
function waitingText() {
  return page.seats.length && page.seats.every((seat) => seat.kind !== "open")
    ? gettext("Waiting for every person to come back: each one's seed for the dice starts the game.")
    : gettext("Waiting for the seats to be filled.");
}

function render() {
  const focusInChoices = document.activeElement && document.activeElement.closest && document.activeElement.closest("#choices");
  const focusedId = document.activeElement && document.activeElement.id;
  const view = page.view;
  const parts = [header(), bar];
  if (!view || !page.board) {
    parts.push(h("p", { class: "card" }, roomId ? gettext("Connecting…") : gettext("No room is named in the address.")));
    app.replaceChildren(...parts);
    return;
  }
  if (page.waitFor !== null && conn.index > page.waitFor) {
    page.waitFor = null;
  }
  const waiting = page.busy || page.waitFor !== null || takebacks.pending || !["open", "reopened"].includes(conn.status);
  page.lonePass = serverPassesFor(view);
  page.lonePassAt = page.lonePass ? conn.index : page.lonePassAt;
  const context = { page, conn, board: page.board, view, chance: page.chance, actions, waiting, rematch };
  parts.push(h("main", { class: "bash-layout" },
    h("div", { class: "turn card" },
        diceFace(view),
        h("div", {},
          h("p", { class: "turn-line", id: "turn-line" }, turnLine(view)),
          h("p", { class: "decision", id: "decision", "aria-live": "polite" },
            page.status === "open" ? waitingText() : decision(page.board, view)),
          h("p", { class: "timer", id: "timer" }, timerText()))),
    h("section", { class: "board-area", "aria-label": gettext("The pool") },
      poolSvg(page.board, view, { compact: narrowScreen() }),
      offCourse(view),
      fold("lanes", gettext("The lanes"), laneLegend(page.board))),
    h("aside", { class: "side" },
      page.status === "open" ? invite : null,
      choicesPanel(context),
      view.summary ? bashSummary(view.summary, (team) => [teamSwatch(team), " ", gettext("Team {team}", { team: teamName(team) })]) : null,
      takebacks.element,
      fold("moves", conn.role === "referee" ? gettext("Move the pieces") : gettext("Last moves"), movesPanel()),
      handsPanel(view),
      fold("chat", gettext("Chat"), chat.element),
      page.status === "open" || view.terminal ? null : fold("invite", gettext("Invite"), invite),
      fold("fairness", gettext("Fair chance"), fair.element),
      fold("log", gettext("What happened"), logPanel()))));
  takebacks.refresh({ seats: page.seats, playing: page.status === "playing" && !view.terminal, waiting });
  rematch.refresh({ over: Boolean(view.terminal) });
  fair.refresh({ over: Boolean(view.terminal) || page.status === "closed" });
  app.replaceChildren(...parts);
  motion.apply(app);
  const log = document.getElementById("log");
  if (log) {
    log.scrollTop = log.scrollHeight;
  }
  if (focusedId && document.getElementById(focusedId)) {
    document.getElementById(focusedId).focus();
  } else if (focusInChoices) {
    const first = document.querySelector("#choices button:not([disabled])");
    if (first) {
      first.focus();
    }
  }
}

onLanguageChange(async (lang) => {
  conn.setLanguage(lang);
  try {
    await loadBoard();
  } catch (_) {
    // The old names stay until the server answers again.
  }
  document.title = `${gettext("Splash & Bash")} — splash`;
  render();
});

document.title = `${gettext("Splash & Bash")} — splash`;
window.matchMedia("(max-width: 600px)").addEventListener("change", () => render());
render();
try {
  await loadBoard();
  page.room = await api(`/api/rooms/${encodeURIComponent(roomId)}`);
  page.seats = page.room.seats;
  setSeatNames(page.seats);
  chat.allowSpectators(page.room.options && page.room.options.spectator_chat);
} catch (error) {
  bar.showError(error.message || String(error));
}
conn.start();
