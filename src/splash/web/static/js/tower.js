// The Splash! page (tower.html?room=ID[&seat=N | &referee | &watch]): the tower in 3D, the
// players' reserves and drops, the legal decisions, placing a piece with the keyboard or
// the buttons, the replay of each placement, and the referee's reports.
import { Connection, api, statusBar, tokens } from "./client.js";
import { N_, gettext, languageSwitch, loadLanguage, onLanguageChange, translatePage } from "./i18n.js";
import { fallPoses, shapeOf, shownPieces } from "./tower-geometry.js";
import {
  renderActions, renderPlayers, seatName, seatNameNode, steadinessText, towerDescription, turnText, updateText,
} from "./tower-panels.js";
import { PlacementControl, steadinessOf, targetOf } from "./tower-place.js";
import { PieceDrag } from "./tower-drag.js";
import { RefereePanel } from "./tower-referee.js";
import { ChatPanel } from "./chat.js";
import { RematchPanel } from "./rematch.js";
import { FairnessPanel, randomSeed } from "./fairness.js";
import { inviteBox } from "./invite.js";
import { towerSummary } from "./game-summary.js";
import { Takebacks } from "./takeback.js";
import { TowerScene } from "./tower-scene.js";
import { TurnCountdown } from "./turn-timer.js";
import { resultName } from "./tower-names.js";
import { playSound, soundSwitch } from "./sounds.js";

// Strings of tower.html's data-i18n attributes, listed for extraction.
export const PAGE_STRINGS = [
  N_("Splash!"), N_("The tower"), N_("The tower in 3D: drag to turn the view, scroll to zoom"), N_("The game's panels"),
  N_("Place your piece"), N_("Piece"), N_("On"), N_("Face"), N_("Turned"), N_("Offset"),
  N_("Change face (F)"), N_("Turn left (Q)"), N_("Turn right (E)"), N_("Move back (↑)"),
  N_("Move left (←)"), N_("Centre the piece"), N_("Move right (→)"), N_("Move forward (↓)"),
  N_("Release (Enter)"), N_("Players"), N_("What happened"), N_("Steadiest pose (G)"),
  N_("Q/E turn by 15°, the arrows move by 1 mm (Shift: 5 mm), F changes the face, G takes the steadiest pose, Enter releases."),
  N_("Drag the piece, or tap the green region, to move it: the piece stays where the rules let it go."),
  N_("View: drag or A/D to turn, scroll or W/S to zoom."),
];

const $ = (id) => document.getElementById(id);
const WATCH_MS = 1000;
// Longer than a few replays in a row (each about a second) of the bots' placements.
const STALE_MS = 8000;

// The lobby's links: ?room=ID[&seat=N | &referee | &watch]; tokens from localStorage.
function chooseToken(room, params) {
  if (params.has("watch")) return null;
  if (params.has("referee")) return tokens.referee(room);
  if (params.has("seat")) return tokens.seat(room, params.get("seat"));
  const mine = Object.values(tokens.seats(room));
  return tokens.referee(room) || (mine.length ? mine[0] : null);
}

/** The sentence shown when the server refuses `action`. */
export function refusalText(action) {
  if (action.kind === "place") {
    return gettext("The piece was not released: there it would not rest on its target alone (T06). Move it or turn it, then release it again.");
  }
  return gettext("That decision is not open now: the page shows the game again as it is.");
}

class TowerPage {
  constructor(room, catalogue, conn) {
    this.room = room;
    this.catalogue = catalogue;
    this.conn = conn;
    this.view = null;
    this.roomName = "";
    this.seats = [];
    this.chance = null;
    this.busy = false;
    this.queue = [];
    this.scene = new TowerScene($("tower-canvas"), catalogue);
    this.placing = new PlacementControl(
      this.scene, catalogue, $("place-panel"), (a) => this.act(a), (a) => conn.check(a),
      (pose) => conn.ask("odds", pose).then((m) => m.answer),
    );
    this.placing.onKnownRefusal = (a, why) => {
      $("error-line").textContent = why === "no_safe_pose"
        ? gettext("The piece has no safe pose with this face and turn: turn it or change its face.")
        : refusalText(a);
    };
    this.drag = new PieceDrag($("tower-canvas"), this.scene, this.placing);
    this.referee = new RefereePanel($("referee-panel"), catalogue, {
      send: (report) => this.request(() => conn.report(report)),
      outcome: (action) => this.request(() => conn.outcome(action)),
    });
    this.status = null;
    this.takebacks = new Takebacks(conn, { who: (seat) => seatName(this.seats, seat), onChange: () => this.render() });
    this.takebacks.log = (say) => this.#log(say());
    this.takebacks.element.classList.add("panel");
    this.countdown = new TurnCountdown(conn, () => $("timer"),
      (m) => conn.role === "seat" && Boolean(m.view) && m.view.to_act === conn.seat);
    $("action-panel").before(this.takebacks.element);
    this.rematch = new RematchPanel(conn, { page: "tower.html" });
    this.rematch.element.classList.add("panel");
    $("result-line").closest("section").after(this.rematch.element);
    this.chat = new ChatPanel(conn, {
      who: (line) => (line.role === "seat" ? seatName(this.seats, line.seat)
        : line.role === "referee" ? gettext("referee") : gettext("spectator")),
    });
    $("events-panel").before(this.chat.element);
    this.fair = new FairnessPanel(conn, { who: (seat) => seatNameNode(this.seats, seat) });
    this.fair.element.classList.add("panel");
    $("events-panel").after(this.fair.element);
    this.invite = document.createElement("section");
    this.invite.className = "panel invite-card";
    this.invite.append(inviteBox(room));
    $("events-panel").before(this.invite);
    conn.on("welcome", (m) => this.#reset(m));
    conn.on("state", (m) => this.#reset(m));
    conn.on("undone", (m) => this.#reset(m));
    conn.on("update", (m) => { this.status = m.status; this.#enqueue(m); });
    conn.on("seats", (m) => { this.seats = m.seats; this.status = m.status; this.render(); });
    this.shownIndex = 0;
    this.sent = null;
    this.server = null;
    this.progressAt = performance.now();
    this.syncedAt = 0;
    setInterval(() => this.#watch(), WATCH_MS);
    document.addEventListener("keydown", (event) => this.#key(event));
    onLanguageChange(() => this.render());
  }

  #reset(message) {
    if (!this.placing.map) this.mapAsked = null;
    this.sent = null;
    this.queue = [];
    this.busy = false;
    this.scene.stopReplays();
    this.scene.setGhost(null, null, null);
    this.shownIndex = message.index;
    this.server = { index: message.index, toAct: message.view.to_act };
    this.seats = message.seats;
    this.status = message.status;
    this.chance = message.chance ?? null;
    this.view = message.view;
    if (message.type === "welcome" && message.log) {
      $("events").replaceChildren();
      for (const entry of message.log) this.#log(updateText(entry, message.seats));
    }
    this.showTower(this.view);
    this.render();
  }

  #enqueue(update) {
    const expected = this.server ? this.server.index : update.index;
    this.server = { index: update.index + 1, toAct: update.view.to_act };
    if (update.index !== expected) {
      this.#resync();
      return;
    }
    this.queue.push(update);
    if (!this.busy) this.#next();
  }

  // Updates are shown in order; a placement's result is replayed before the next one.
  #next() {
    const update = this.queue.shift();
    if (!update) { this.busy = false; return; }
    this.busy = true;
    const before = this.view;
    this.view = update.view;
    this.shownIndex = update.index + 1;
    this.progressAt = performance.now();
    this.chance = update.chance ?? null;
    this.#log(updateText(update, this.seats));
    const action = update.action || {};
    if (action.kind === "result" && (action.outcome || {}).result && action.outcome.result !== "stood") {
      playSound("fall");
    }
    if (action.kind === "result" && this.#replay(before, action.outcome || {}, () => this.#after())) {
      this.render();
      return;
    }
    this.showTower(this.view);
    this.render();
    this.#next();
  }

  #after() {
    this.scene.setGhost(null, null, null);
    this.showTower(this.view);
    this.render();
    this.#next();
  }

  // Animate the tower of `before` (and the released piece) to the outcome's settled poses.
  #replay(before, outcome, done) {
    const poses = fallPoses(before, outcome);
    if (!poses) return false;
    $("stage-note").textContent = resultName(outcome.result);
    this.scene.setGhost(null, null, null);
    this.scene.replay(poses.start, poses.settled, done);
    return true;
  }

  // The page's idea of the state (its index, whose turn) against the server's last word:
  // when they differ and the page has not caught up for a while, it asks for the state.
  #watch() {
    if (!this.server || !this.view) return;
    const behind = this.shownIndex !== this.server.index
      || (!this.busy && this.view.to_act !== this.server.toAct);
    const now = performance.now();
    if (!behind) { this.progressAt = now; return; }
    if (now - this.progressAt > STALE_MS && now - this.syncedAt > STALE_MS) this.#resync();
  }

  #resync() {
    this.syncedAt = performance.now();
    this.conn.sync();
  }

  /** Draw the tower and the pieces on the table of `view` (after a fall, while the new
   * base is chosen, the table holds every piece). */
  showTower(view) {
    this.shown = shownPieces(this.catalogue, view);
    this.scene.setTower(this.shown);
  }

  // A gift under the pointer or the focus, shown over the top it would go on.
  #preview(action) {
    if (this.placing.active || this.scene.replaying) return;
    if (!action || action.kind !== "give") {
      this.scene.setGhost(null, null, null);
      return;
    }
    this.#ghostOnTarget(this.view, action.piece);
  }

  #ghostOnTarget(view, piece) {
    const target = targetOf(view, piece);
    const shown = target && (this.shown || []).find((p) => p.piece === target.piece);
    const face = Object.keys(shapeOf(this.catalogue, piece).faces)[0];
    this.scene.setGhost(piece, { face, rotationDeg: 0, xMm: 0, yMm: 0 }, shown || null);
  }

  // In a referee's room, the piece just placed by hand, over its target, until reported.
  #showPlaced(view) {
    if (view.phase !== "result" || !view.gift || this.scene.replaying) return;
    this.#ghostOnTarget(view, view.gift);
  }

  #mySeat() {
    return this.conn.role === "seat" ? this.conn.seat : null;
  }

  render() {
    const view = this.view;
    if (!view) return;
    const mine = this.#mySeat();
    const role = { seat: gettext("player"), referee: gettext("referee"), spectator: gettext("spectator") }[this.conn.role] || "";
    $("room-line").textContent = this.roomName
      ? gettext("{name} — {role}", { name: this.roomName, role })
      : gettext("Splash! · room {room} — {role}", { room: this.room, role });
    $("turn-line").textContent = turnText(view, this.seats, mine);
    $("tower-description").textContent = towerDescription(view);
    $("result-line").textContent = view.phase === "over" ? "" : $("stage-note").textContent;
    const hands = !this.conn.welcome || this.conn.welcome.mode !== "referee";
    renderPlayers($("players"), this.catalogue, view, this.seats, mine, { hands });
    const legal = view.legal_actions || [];
    const forSeat = this.conn.role === "referee" ? this.#openSeat(view) : mine === view.to_act;
    const choices = forSeat ? legal.filter((a) => a.kind !== "place") : [];
    $("action-panel").hidden = !choices.length;
    $("action-title").textContent = this.conn.role === "referee"
      ? gettext("Decision of {who}", { who: seatName(this.seats, view.to_act) }) : gettext("Your move");
    // A decision sent waits for the page to show its result: its buttons stay, disabled,
    // so that a second tap (or a tap on a view the page has not caught up from) sends nothing.
    const sent = this.sent !== null && this.shownIndex <= this.sent;
    renderActions($("action-buttons"), this.catalogue, choices, (a) => this.act(a), (a) => this.#preview(a), sent);
    const canPlace = this.conn.role === "seat" && forSeat && legal.some((a) => a.kind === "place");
    if (canPlace && !this.scene.replaying && !sent) {
      this.placing.start(view);
      this.#askMap();
      $("steadiness").textContent = steadinessText(steadinessOf(view, mine));
    } else {
      this.placing.stop();
    }
    if (this.conn.role !== "seat") this.#showPlaced(view);
    if (this.conn.role === "referee") this.referee.render(view, this.chance, this.seats);
    const playing = this.status === "playing" && view.phase !== "over";
    this.takebacks.refresh({ seats: this.seats, playing });
    this.rematch.refresh({ over: view.phase === "over" });
    this.fair.refresh({ over: view.phase === "over" || this.status === "closed" });
    this.#placeInvite();
    this.#showSummary(view);
  }

  // The placement map of the pending placement, asked once per placement: the region is
  // shaded once it comes; without it (a refusal, a lost connection) each pose is checked.
  #askMap() {
    const key = this.placing.key;
    if (this.mapAsked === key) return;
    this.mapAsked = key;
    this.conn.ask("placements").then(
      (answer) => this.placing.setMap(key, answer.answer),
      () => { if (this.mapAsked === key) this.placing.setMap(key, null); },
    );
  }

  // Under the turn, once the game is over.
  #showSummary(view) {
    const old = $("game-summary");
    const shown = view.summary ? towerSummary(view.summary, (seat) => seatNameNode(this.seats, seat)) : null;
    if (old) old.replaceWith(...(shown ? [shown] : []));
    else if (shown) document.querySelector("aside.side > .turn").after(shown);
  }

  // At the top of the side while seats wait for players, else above the log; gone at the end.
  #placeInvite() {
    this.invite.hidden = Boolean(this.view && this.view.phase === "over");
    const before = this.status === "open" ? this.takebacks.element : $("events-panel");
    if (this.invite.nextElementSibling !== before) before.before(this.invite);
  }

  #openSeat(view) {
    const seat = this.seats.find((s) => s.seat === view.to_act);
    return Boolean(seat && seat.kind === "open");
  }

  #log(text) {
    const item = document.createElement("li");
    item.textContent = text;
    $("events").prepend(item);
    while ($("events").children.length > 60) $("events").lastChild.remove();
  }

  act(action) {
    $("error-line").textContent = "";
    const seat = this.conn.role === "referee" ? { seat: this.view.to_act } : undefined;
    if (action.kind === "place") this.placing.stop();
    this.sent = this.conn.index;
    this.render();
    this.request(() => this.conn.act(action, seat), action);
  }

  // A refusal is told in the page's words; a refused decision also means the page may be
  // behind the server, so it asks for the state.
  request(send, action = null) {
    send().catch((error) => {
      this.sent = null;
      if (error && error.code === "disconnected") $("error-line").textContent = error.message;
      if (error && error.code === "illegal_action" && action) {
        $("error-line").textContent = refusalText(action);
        if (action.kind === "place") this.placing.markRefused(action);
        if (action.kind !== "place") this.#resync();
      }
      this.render();
    });
  }

  #key(event) {
    const tag = (event.target && event.target.tagName) || "";
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag)) return;
    if (tag === "BUTTON" && event.key === "Enter") return;
    if (this.placing.handleKey(event)) {
      event.preventDefault();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const view = { a: () => this.scene.orbit(-15), d: () => this.scene.orbit(15),
      w: () => this.scene.zoom(0.85), s: () => this.scene.zoom(1 / 0.85) }[event.key.toLowerCase()];
    if (view) {
      view();
      event.preventDefault();
    }
  }
}

async function main() {
  await loadLanguage();
  translatePage();
  $("lang-slot").append(soundSwitch(), languageSwitch());
  const params = new URLSearchParams(location.search);
  const room = params.get("room");
  if (!room) {
    $("turn-line").textContent = gettext("No room given: open this page from the lobby.");
    return;
  }
  let catalogue;
  try {
    catalogue = await api(`/api/rooms/${encodeURIComponent(room)}/catalogue`);
  } catch (error) {
    $("turn-line").textContent = error.message;
    return;
  }
  const conn = new Connection(room, { token: chooseToken(room, params) });
  conn.clientSeed = randomSeed();  // kept only for a seat without one in a room that waits
  $("status-slot").append(statusBar(conn));
  const page = new TowerPage(room, catalogue, conn);
  api(`/api/rooms/${encodeURIComponent(room)}`).then((info) => {
    page.roomName = info.name || "";
    page.chat.allowSpectators(info.options && info.options.spectator_chat);
    page.render();
  }).catch(() => {});
  window.splashTower = page;
  onLanguageChange((lang) => conn.setLanguage(lang));
  conn.start();
}

main();
