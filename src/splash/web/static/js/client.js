// A client of the play server: the HTTP API and the `splash/ws/1` WebSocket (docs/protocol.md).
//
// API (stable):
//   api(path, body?, {method, token}?)  fetch JSON (POST when body is given, else GET, or
//                                    `method`; `token` goes in `Authorization: Bearer`) in the
//                                    page's language; a refusal throws ApiError {code, message}
//   tokens.seat(room, seat) / tokens.setSeat(room, seat, token) / tokens.seats(room)
//   tokens.referee(room) / tokens.setReferee(room, token)
//   tokens.host(room) / tokens.setHost(room, token) / tokens.forgetHost(room)
//   personName.get() / personName.set(name)   the person's name, kept for the next room
//                                    (NAME_MAX characters at most, as the server allows)
//                                    seat, referee and host tokens, kept in localStorage per
//                                    room (a token never goes into a URL)
//   const conn = new Connection(room, {token, lang})
//   conn.on(type, callback)          "welcome" | "state" | "update" | "seats" | "ack" | "error"
//                                    | "pong" | "closed" (server messages, callback(message)),
//                                    "status" (callback("connecting" | "open" | "lost" | "closed"))
//   conn.start() / conn.close()      connect (and reconnect with backoff after a loss) / stop
//   conn.act(action, {seat}?)        send a decision with `expect`; resolves with the ack,
//                                    rejects with the error {code, message}
//   conn.check(action, {seat}?)      would the rules take it now? resolves with {ok, why}
//   conn.ask(request, body?)         an extra request of the game; resolves with its answer
//   conn.outcome(action) / conn.report(report)   a referee's chance outcome
//   conn.reveal(seat?) / conn.hide(seat?) / conn.sync()
//   conn.prefer(askAlways)           a seat's person: be asked even when passing is all the
//                                    seat may do in a held window (sent again on every join)
//   conn.undo()                      a takeback at once (a referee; a seat whose every
//                                    opponent is a bot); resolves with the "undone" message
//   conn.undoRequest()               ask the other people for a takeback; resolves with the
//                                    "undo_asked" (or, with nobody to ask, "undone") message
//   conn.undoAnswer(accept)          accept or refuse the pending request of another seat
//                                    (server messages "undone" (as "state"), "undo_asked",
//                                    "undo_result": docs/protocol.md, "Takebacks")
//   conn.request({type: "rematch"}, {until: ["rematch"]})
//                                    once the game is over: the new room of the same game;
//                                    server message "rematch" (docs/protocol.md, "Rematch")
//   conn.setLanguage(lang)           rejoin so that the server's messages follow the page
//   conn.role, conn.seat, conn.index, conn.welcome (the last welcome/state message)
//   conn.clientSeed                  a seed sent with each join: the server keeps it for a
//                                    seat that has none while the room waits (a rematch)
//   (close code 4409, after a "moved" message: another server process serves the room now;
//    the connection opens again after about 0.5 s, showing "connecting")
//   conn.roomClosed                  true once the room was closed ("closed" message or
//                                    close code 4410): the connection stops for good
//   conn.closedReason                "host" or "idle" (closed after a long time without play),
//                                    from the "closed" message or the join's room_closed error
//   statusBar(conn)                  the connection banner and the error line of a page
//                                    (aria-live), to append to the page
import { currentLanguage, gettext, onLanguageChange } from "./i18n.js";

export const FORMAT = "splash/ws/1";
const ROOM_CLOSED = 4410;
// Another server process serves the room now (docs/server.md, "Several processes"): connect
// again soon, through the same address; the process that answered asked for a hand-over.
const MOVED = 4409;
const MOVED_RETRY_MS = 500;
const FATAL_CLOSE = new Set([4400, 4401, 4404, ROOM_CLOSED]);
const BACKOFF_MS = [500, 1000, 2000, 3000, 5000];
// The heartbeat every client should keep (docs/protocol.md, "Keeping a connection"): a ping
// every PING_EVERY_MS from the join on, and the socket given up PONG_WITHIN_MS after a ping
// that no pong answered; then reconnect, after MOVED_RETRY_MS on 4409, else with BACKOFF_MS.
const PING_EVERY_MS = 2000;
const PONG_WITHIN_MS = 2000;

export class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export async function api(path, body, { method = null, token = null } = {}) {
  const init = body === undefined ? { headers: {} } : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  if (method) {
    init.method = method;
  }
  if (token) {
    init.headers.Authorization = `Bearer ${token}`;
  }
  const separator = path.includes("?") ? "&" : "?";
  const response = await fetch(`${path}${separator}lang=${currentLanguage()}`, init);
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (!response.ok) {
    const detail = data && data.detail;
    if (detail && detail.code) {
      throw new ApiError(detail.code, detail.message);
    }
    if (Array.isArray(detail) && detail.length) {
      const first = detail[0];
      throw new ApiError("invalid", `${(first.loc || []).join(".")}: ${first.msg}`);
    }
    throw new ApiError("http", gettext("The server answered {status}.", { status: response.status }));
  }
  return data;
}

function readJson(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch (_) {
    return null;
  }
}

export const NAME_MAX = 40;

// The name this browser's person gave last (the lobby's host, the join page), kept for the
// next room.
export const personName = {
  get() {
    return localStorage.getItem("splash-name") || "";
  },
  set(name) {
    localStorage.setItem("splash-name", String(name).slice(0, NAME_MAX));
  },
};

export const tokens = {
  seats(room) {
    return readJson(`splash-seats-${room}`) || {};
  },
  seat(room, seat) {
    return this.seats(room)[String(seat)] || null;
  },
  setSeat(room, seat, token) {
    const all = this.seats(room);
    all[String(seat)] = token;
    localStorage.setItem(`splash-seats-${room}`, JSON.stringify(all));
  },
  referee(room) {
    return localStorage.getItem(`splash-referee-${room}`);
  },
  setReferee(room, token) {
    localStorage.setItem(`splash-referee-${room}`, token);
  },
  host(room) {
    return localStorage.getItem(`splash-host-${room}`);
  },
  setHost(room, token) {
    localStorage.setItem(`splash-host-${room}`, token);
  },
  forgetHost(room) {
    localStorage.removeItem(`splash-host-${room}`);
  },
};

export class Connection {
  constructor(room, { token = null, lang = null } = {}) {
    this.room = room;
    this.token = token;
    this.lang = lang || currentLanguage();
    this.socket = null;
    this.handlers = {};
    this.pending = new Map();
    this.nextRef = 1;
    this.attempt = 0;
    this.stopped = true;
    this.everOpen = false;
    this.quiet = false;
    this.status = "closed";
    this.role = null;
    this.seat = null;
    this.index = 0;
    this.welcome = null;
    this.preference = null;
    this.clientSeed = null;
    this.roomClosed = false;
    this.closedReason = "host";
    this.timers = { retry: null, ping: null, pong: null };
    this.onOffline = () => this.drop();
  }

  on(type, callback) {
    (this.handlers[type] = this.handlers[type] || []).push(callback);
    return this;
  }

  emit(type, value) {
    for (const callback of this.handlers[type] || []) {
      callback(value);
    }
  }

  setStatus(status) {
    this.status = status;
    this.emit("status", status);
  }

  start() {
    this.stopped = false;
    window.addEventListener("offline", this.onOffline);
    this.open();
  }

  close() {
    this.stopped = true;
    window.removeEventListener("offline", this.onOffline);
    this.clearTimers();
    if (this.socket) {
      this.socket.close(1000);
    }
    this.setStatus("closed");
  }

  setLanguage(lang) {
    this.lang = lang;
    if (!this.stopped) {
      this.drop(true);
    }
  }

  clearTimers() {
    clearTimeout(this.timers.retry);
    clearInterval(this.timers.ping);
    clearTimeout(this.timers.pong);
    this.timers.pong = null;
  }

  open() {
    this.clearTimers();
    this.setStatus("connecting");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/ws/rooms/${encodeURIComponent(this.room)}?lang=${this.lang}`;
    let socket;
    try {
      socket = new WebSocket(url);
    } catch (_) {
      this.lost(null);
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      const join = { format: FORMAT, type: "join", token: this.token, lang: this.lang };
      if (this.clientSeed) {
        join.client_seed = this.clientSeed;
      }
      socket.send(JSON.stringify(join));
      // From the join on: a process that took the socket but cannot answer is left too.
      this.heartbeat();
    };
    socket.onmessage = (event) => {
      if (socket === this.socket) {
        this.receive(event.data);
      }
    };
    socket.onclose = (event) => {
      if (socket === this.socket) {
        this.lost(event.code);
      }
    };
  }

  // Close the socket at once (a network loss, a language change) and reconnect.
  drop(quiet = false) {
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.close();
    }
    if (quiet) {
      this.failPending();
      this.quiet = true;
      this.open();
    } else {
      this.lost(null);
    }
  }

  failPending() {
    for (const { reject } of this.pending.values()) {
      reject({ code: "disconnected", message: gettext("The connection was lost before the server answered.") });
    }
    this.pending.clear();
  }

  lost(code) {
    this.clearTimers();
    this.socket = null;
    this.failPending();
    if (this.stopped) {
      return;
    }
    if (code === ROOM_CLOSED) {
      this.roomClosed = true;
    }
    if (FATAL_CLOSE.has(code) || this.roomClosed) {
      this.stopped = true;
      this.setStatus("closed");
      return;
    }
    this.moves = code === MOVED ? (this.moves || 0) + 1 : 0;
    if (code === MOVED && this.moves <= 10) {
      this.setStatus("connecting");
      this.timers.retry = setTimeout(() => {
        if (!this.stopped) {
          this.open();
        }
      }, MOVED_RETRY_MS * (0.8 + 0.4 * Math.random()));
      return;
    }
    this.setStatus("lost");
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.timers.retry = setTimeout(() => {
      if (!this.stopped) {
        this.open();
      }
    }, delay * (0.8 + 0.4 * Math.random()));
  }

  heartbeat() {
    this.timers.ping = setInterval(() => {
      this.send({ type: "ping" });
      // The deadline runs from the first ping left unanswered: a later ping does not move it.
      if (this.timers.pong === null) {
        this.timers.pong = setTimeout(() => this.drop(), PONG_WITHIN_MS);
      }
    }, PING_EVERY_MS);
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch (_) {
      return;
    }
    const type = message.type;
    if (type === "welcome" || type === "state" || type === "undone") {
      this.role = message.role;
      this.seat = message.seat;
      this.index = message.index;
      this.welcome = message;
      if (type === "welcome") {
        this.attempt = 0;
        this.moves = 0;
        const again = this.everOpen && !this.quiet;
        this.everOpen = true;
        this.quiet = false;
        if (this.preference !== null && message.role === "seat") {
          this.send({ type: "prefer", ask_always: this.preference });
        }
        this.setStatus(again ? "reopened" : "open");
      }
    } else if (type === "update") {
      this.index = message.index + 1;
    } else if (type === "pong") {
      clearTimeout(this.timers.pong);
      this.timers.pong = null;
    } else if (type === "closed") {
      this.roomClosed = true;
      this.closedReason = message.reason || "host";
    } else if (type === "error" && message.code === "room_closed") {
      this.closedReason = message.reason || "host";
    }
    if ((type === "ack" || type === "check" || type === "answer" || type === "error") && this.pending.has(message.ref)) {
      const { resolve, reject, quiet } = this.pending.get(message.ref);
      this.pending.delete(message.ref);
      if (type !== "error") {
        resolve(message);
      } else {
        reject(message);
      }
      // A refused check is the asker's business alone: no error line for it.
      if (quiet) return;
    }
    for (const [ref, entry] of this.pending) {
      if (entry.until && entry.until.includes(type)) {
        this.pending.delete(ref);
        entry.resolve(message);
      }
    }
    this.emit(type, message);
  }

  send(body) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
      return false;
    }
    this.socket.send(JSON.stringify({ format: FORMAT, ...body }));
    return true;
  }

  // `until`: the server message types that answer this request when it has no ack.
  request(body, { quiet = false, until = null } = {}) {
    const ref = this.nextRef++;
    return new Promise((resolve, reject) => {
      if (!this.send({ ...body, ref })) {
        reject({ code: "disconnected", message: gettext("Not connected: wait for the connection to come back.") });
        return;
      }
      this.pending.set(ref, { resolve, reject, quiet, until });
    });
  }

  act(action, { seat = null } = {}) {
    const body = { type: "act", action, expect: this.index };
    if (seat !== null && seat !== undefined) {
      body.seat = seat;
    }
    return this.request(body);
  }

  /** Ask whether the rules would take `action` now; resolves with the `check` answer
   * ({ok, why, index}). */
  check(action, { seat = null } = {}) {
    const body = { type: "check", action, expect: this.index };
    if (seat !== null && seat !== undefined) {
      body.seat = seat;
    }
    return this.request(body, { quiet: true });
  }

  /** Ask the room's game the extra request `request` (such as a Splash! placer's
   * `placements`); resolves with the `answer` message ({request, index, answer}). */
  ask(request, body = {}) {
    return this.request({ type: "ask", request, body }, { quiet: true });
  }

  outcome(action) {
    return this.request({ type: "outcome", action, expect: this.index });
  }

  report(report) {
    return this.request({ type: "outcome", report, expect: this.index });
  }

  undo() {
    return this.request({ type: "undo", expect: this.index }, { until: ["undone"] });
  }

  undoRequest() {
    return this.request({ type: "undo_request", expect: this.index }, { until: ["undo_asked", "undone"] });
  }

  undoAnswer(accept) {
    return this.send({ type: "undo_answer", accept: Boolean(accept) });
  }

  prefer(askAlways) {
    this.preference = Boolean(askAlways);
    return this.send({ type: "prefer", ask_always: this.preference });
  }

  reveal(seat = null) {
    return this.send(seat === null ? { type: "reveal" } : { type: "reveal", seat });
  }

  hide(seat = null) {
    return this.send(seat === null ? { type: "hide" } : { type: "hide", seat });
  }

  sync() {
    return this.send({ type: "sync" });
  }
}

export function statusBar(conn) {
  const bar = document.createElement("div");
  bar.className = "status-bar";
  const banner = document.createElement("p");
  banner.className = "connection-banner";
  banner.id = "connection-banner";
  banner.setAttribute("role", "status");
  banner.setAttribute("aria-live", "polite");
  banner.hidden = true;
  const problem = document.createElement("p");
  problem.className = "error-line";
  problem.id = "error-line";
  problem.setAttribute("role", "alert");
  problem.setAttribute("aria-live", "assertive");
  bar.append(banner, problem);
  let hideTimer = null;
  let shown = null;
  const show = () => {
    clearTimeout(hideTimer);
    if (shown === "lost") {
      banner.hidden = false;
      banner.dataset.state = "lost";
      banner.textContent = gettext("Connection lost — reconnecting…");
    } else if (shown === "reopened") {
      banner.hidden = false;
      banner.dataset.state = "open";
      banner.textContent = gettext("Connected again");
      hideTimer = setTimeout(() => {
        banner.hidden = true;
      }, 4000);
    } else if (shown === "room-closed") {
      banner.hidden = false;
      banner.dataset.state = "closed";
      banner.textContent =
        conn.closedReason === "idle"
          ? gettext("This room was closed after a long time without play.")
          : gettext("This room was closed by its host.");
    } else if (shown === "closed-fatal") {
      banner.hidden = false;
      banner.dataset.state = "lost";
      banner.textContent = gettext("Disconnected.");
    } else {
      banner.hidden = true;
    }
  };
  conn.on("status", (status) => {
    if (conn.roomClosed) {
      shown = "room-closed";
    } else if (status === "lost" || status === "reopened") {
      shown = status;
    } else if (status === "closed" && conn.stopped && conn.everOpen === false) {
      shown = "closed-fatal";
    } else if (status === "connecting" && shown === "lost") {
      return;
    } else if (status === "open") {
      shown = null;
    }
    show();
  });
  conn.on("error", (error) => showError(problem, error.message));
  onLanguageChange(show);
  bar.showError = (text) => showError(problem, text);
  return bar;
}

function showError(element, text) {
  element.textContent = text || "";
}
