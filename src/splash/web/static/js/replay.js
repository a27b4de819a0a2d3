// The replay page (replay.html?room=ID[#move=N]): a finished game step by step, forward and
// back or played on by itself, the board (or the tower) as it was after each action, every
// hand shown since the game is over; the end summary at the last step; the chat and the
// takebacks made during the game (meta.chat, meta.takebacks) after it. The address follows
// the step shown (#move=N), so that a move can be linked to. The server refuses the replay
// of a game still running; the page says so.
//   keys: ← / → one step back / forward, Home / End the start / the end, Space play / pause
import { api } from "./client.js";
import { h, params } from "./dom.js";
import { gettext, languageSwitch, loadLanguage, onLanguageChange } from "./i18n.js";
import { noPage, pageUrl, replayOf } from "./games.js";

const roomId = params().get("room") || "";
const app = document.getElementById("app");
const state = {
  room: null, length: 0, shown: -1, wanted: 0, game: null, steps: new Map(), error: "", loading: 0, refused: false,
  takebacks: [], chat: [], playing: null,
};
const PLAY_STEP_MS = 900;
window.splashReplay = state; // read by the browser tests

const roomPath = () => `/api/rooms/${encodeURIComponent(roomId)}`;

/** The step after the first `index` actions, asked once and kept. */
function loadStep(index) {
  if (!state.steps.has(index)) {
    const promise = api(`${roomPath()}/replay/${index}`);
    promise.catch(() => state.steps.delete(index));
    state.steps.set(index, promise);
  }
  return state.steps.get(index);
}

async function go(index) {
  const target = Math.max(0, Math.min(state.length, index));
  state.wanted = target;
  const ticket = ++state.loading;
  let step;
  let previous = null;
  try {
    [step, previous] = await Promise.all([loadStep(target), target > 0 ? loadStep(target - 1) : null]);
  } catch (error) {
    showError(error.message || String(error));
    return;
  }
  if (ticket !== state.loading) {
    return;
  }
  state.shown = target;
  state.step = step;
  state.previous = previous;
  if (location.hash !== `#move=${target}`) {
    history.replaceState(null, "", `#move=${target}`);
  }
  showError("");
  showStep();
}

/** The step the address names (#move=N, or the older ?step=N), or null. */
function linkedStep() {
  const found = /^#move=(\d+)$/.exec(location.hash);
  if (found) {
    return Number(found[1]);
  }
  const step = params().get("step");
  return step === null ? null : Number(step) || 0;
}

function setPlaying(on) {
  if (state.playing !== null) {
    clearInterval(state.playing);
    state.playing = null;
  }
  if (on) {
    if (state.wanted >= state.length) {
      go(0);
    }
    state.playing = setInterval(() => {
      if (state.wanted >= state.length) {
        setPlaying(false);
        return;
      }
      go(state.wanted + 1);
    }, PLAY_STEP_MS);
  }
  const play = document.getElementById("replay-play");
  if (play) {
    const text = on ? gettext("Pause") : gettext("Play");
    play.setAttribute("aria-pressed", String(on));
    play.setAttribute("aria-label", text);
    play.title = text;
    play.replaceChildren(h("span", { "aria-hidden": "true" }, on ? "⏸" : "⏵"), h("span", { class: "button-text" }, text));
  }
}

function showError(text) {
  state.error = text;
  const line = document.getElementById("replay-error");
  if (line) {
    line.textContent = text;
  }
}

function showStep() {
  const { step, previous } = state;
  if (!step || !state.game) {
    return;
  }
  const index = state.shown;
  document.getElementById("step-counter").textContent =
    gettext("Step {index} of {length}", { index, length: state.length });
  const slider = document.getElementById("replay-slider");
  slider.value = String(index);
  slider.setAttribute("aria-valuetext", gettext("Step {index} of {length}", { index, length: state.length }));
  document.getElementById("replay-first").disabled = index === 0;
  document.getElementById("replay-back").disabled = index === 0;
  document.getElementById("replay-forward").disabled = index === state.length;
  document.getElementById("replay-last").disabled = index === state.length;
  const told = state.game.describe(step, previous);
  document.getElementById("step-action").textContent = told.action;
  document.getElementById("step-details").replaceChildren(...told.details.map((line) => h("li", {}, line)));
  document.getElementById("step-state").textContent = told.now;
  const link = document.getElementById("move-link");
  link.href = `#move=${index}`;
  const ended = step.summary && state.game.summary ? state.game.summary(step.summary) : null;
  document.getElementById("replay-summary").replaceChildren(...(ended ? [ended] : []));
  state.game.show(step, previous);
}

function button(id, symbol, text, target) {
  return h("button", { type: "button", id, "aria-label": text, title: text, onclick: () => go(target()) },
    h("span", { "aria-hidden": "true" }, symbol), h("span", { class: "button-text" }, text));
}

function controls() {
  const slider = h("input", {
    type: "range", id: "replay-slider", min: 0, max: state.length, step: 1, value: Math.max(0, state.shown),
    "aria-label": gettext("Step"), oninput: (event) => go(Number(event.target.value)),
  });
  return h("section", { class: "card replay-controls", id: "replay-controls", "aria-label": gettext("Replay controls") },
    h("div", { class: "replay-buttons" },
      button("replay-first", "|◀", gettext("First"), () => 0),
      button("replay-back", "◀", gettext("Back"), () => state.wanted - 1),
      h("button", { type: "button", id: "replay-play", "aria-pressed": "false", "aria-label": gettext("Play"),
        title: gettext("Play"), onclick: () => setPlaying(state.playing === null) },
      h("span", { "aria-hidden": "true" }, "⏵"), h("span", { class: "button-text" }, gettext("Play"))),
      button("replay-forward", "▶", gettext("Forward"), () => state.wanted + 1),
      button("replay-last", "▶|", gettext("Last"), () => state.length),
      h("span", { id: "step-counter", class: "step-counter", role: "status" })),
    slider,
    h("p", { class: "hint" }, gettext("Keys: ← and → step back and forward, Home and End go to the start and the end, Space plays and pauses."),
      " ", h("a", { id: "move-link", href: "#move=0" }, gettext("Link to this move"))),
    h("div", { class: "step-text", "aria-live": "polite" },
      h("p", { id: "step-action", class: "step-action" }),
      h("ul", { id: "step-details", class: "step-details" }),
      h("p", { id: "step-state", class: "step-state" })));
}

// The replay is the game as played once the takebacks were made; they are listed here.
function takebacksSection() {
  if (!state.takebacks.length) {
    return null;
  }
  return h("section", { class: "card takebacks", id: "replay-takebacks", "aria-labelledby": "takebacks-title" },
    h("h2", { id: "takebacks-title" }, gettext("Takebacks during the game")),
    h("ol", {}, state.takebacks.map(({ by, from, to }) => h("li", {}, by < 0
      ? gettext("The referee took the game back from step {from} to step {to}.", { from, to })
      : gettext("{who} took the game back from step {from} to step {to}.", { who: state.game.who(by), from, to })))));
}

// The chat of the game, shown once it is over: each line with the step it was said at.
function chatSection() {
  if (!state.chat.length) {
    return null;
  }
  const who = (line) => {
    if (line.role === "seat") {
      return state.game.who(line.seat);
    }
    return line.role === "referee" ? gettext("Referee") : line.name || gettext("Spectator");
  };
  return h("section", { class: "card chat", id: "replay-chat", "aria-labelledby": "replay-chat-title" },
    h("h2", { id: "replay-chat-title" }, gettext("Chat")),
    h("ol", { class: "chat-lines" }, state.chat.map((line) => h("li", { class: "chat-line" },
      h("a", { href: `#move=${line.index}`, class: "chat-step" }, gettext("step {index}", { index: line.index })), " ",
      h("strong", { class: "chat-who" }, who(line)), ": ", h("span", { class: "chat-text", translate: "no" }, line.text)))));
}

function header() {
  const title = state.game ? state.game.title() : gettext("Replay");
  const room = state.room;
  return h("header", { class: "top" },
    h("div", {},
      h("h1", {}, gettext("Replay: {game}", { game: title })),
      h("p", { class: "role", id: "room-line" }, room ? gettext("Room {room}", { room: room.name || room.id }) : "")),
    h("nav", { class: "links" }, h("a", { href: "/", id: "lobby-link" }, gettext("Lobby"))),
    languageSwitch());
}

function layout() {
  const parts = [header(), h("p", { id: "replay-error", class: "error-line", role: "alert" }, state.error)];
  if (state.game && !state.refused) {
    parts.push(controls(), h("main", { class: `replay-layout replay-${state.room.game}` }, state.game.stage, state.game.side),
      h("div", { id: "replay-summary" }), chatSection(), takebacksSection());
  } else if (state.refused && state.room) {
    const href = pageUrl(state.room.game, `room=${encodeURIComponent(roomId)}&watch`);
    parts.push(h("p", { class: "card" }, href
      ? h("a", { class: "button", id: "watch-live", href }, gettext("Watch the game as it is played"))
      : h("span", { id: "no-page" }, noPage())));
  }
  app.replaceChildren(...parts.filter((part) => part !== null));
  document.title = `${gettext("Replay")} — splash`;
}

function onKey(event) {
  if (!state.game || state.refused || event.ctrlKey || event.metaKey || event.altKey) {
    return;
  }
  const tag = (event.target && event.target.tagName) || "";
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag)) {
    return;
  }
  if (event.key === " " && !["BUTTON", "A"].includes(tag)) {
    event.preventDefault();
    setPlaying(state.playing === null);
    return;
  }
  const moves = { ArrowLeft: () => state.wanted - 1, ArrowRight: () => state.wanted + 1, Home: () => 0, End: () => state.length };
  if (moves[event.key]) {
    event.preventDefault();
    go(moves[event.key]());
  }
}

async function start() {
  await loadLanguage();
  layout();
  if (!roomId) {
    showError(gettext("No room is named in the address."));
    return;
  }
  try {
    state.room = await api(roomPath());
  } catch (error) {
    showError(error.message || String(error));
    return;
  }
  let record;
  try {
    record = await api(`${roomPath()}/replay`);
  } catch (error) {
    state.refused = true;
    layout();
    showError(error.message || String(error));
    return;
  }
  state.length = record.actions.length;
  state.takebacks = (record.meta && record.meta.takebacks) || [];
  state.chat = (record.meta && record.meta.chat) || [];
  const drawer = replayOf(state.room.game);
  if (!drawer) {
    showError(noPage());
    return;
  }
  const module = await import(`./${drawer}`);
  state.game = await module.createReplay(state.room);
  layout();
  state.game.mounted();
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => {
    const linked = linkedStep();
    if (linked !== null && linked !== state.shown) {
      go(linked);
    }
  });
  await go(linkedStep() || 0);
}

onLanguageChange(async () => {
  if (state.game) {
    await state.game.relabel();
  }
  layout();
  if (state.game && !state.refused) {
    state.game.mounted();
    showStep();
  }
  if (state.refused && roomId) {
    try {
      await api(`${roomPath()}/replay`);
    } catch (error) {
      showError(error.message || String(error));
    }
  }
});

start();
