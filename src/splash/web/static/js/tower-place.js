// Placing a piece (TD13): choose the face, turn it, move it over the target's top, see the
// outline of its footprint there, and release — the `place` action of splash/ws/1. Each
// pose shown is checked by the server (a `check` message: the rules' own T06 test) a moment
// after the piece stops moving; a refused pose is outlined in red and Release refuses it
// before anything is sent.
import { gettext } from "./i18n.js";
import { shapeOf } from "./tower-geometry.js";
import { faceName, pieceName } from "./tower-names.js";

export const TURN_STEP_DEG = 15;
export const MOVE_STEP_MM = 1;
export const FAST_MOVE_MM = 5;
const MAX_OFFSET_MM = 60;
// How long the pose must stay still before the page asks the server about it.
export const CHECK_DELAY_MS = 120;

function matches(a, b) {
  const [ca, sa] = [a.slice(0, a.indexOf("-")), a.slice(a.indexOf("-") + 1)];
  const [cb, sb] = [b.slice(0, b.indexOf("-")), b.slice(b.indexOf("-") + 1)];
  return ca === cb || sa === sb;
}

function higher(a, b, tolerance) {
  if (Math.abs(a.height_mm - b.height_mm) <= tolerance) return a.order > b.order;
  return a.height_mm > b.height_mm;
}

function highest(pieces, tolerance) {
  return pieces.reduce((best, p) => (best === null || higher(p, best, tolerance) ? p : best), null);
}

/** The tower piece the gift will go on (TD04), as far as the view tells: the highest
 * uncovered piece (matching the gift, under `highest-matching`), else the highest piece;
 * null for the table. The server rules it (a piece that fits nowhere may change it). */
export function targetOf(view, gift) {
  const tower = view.tower || [];
  if (!tower.length || view.target === "table") return null;
  if (view.target) {
    const named = tower.find((p) => p.piece === view.target);
    if (named) return named;
  }
  const options = (view.config && view.config.options) || {};
  const tolerance = options.height_tolerance_mm ?? 2;
  const open = tower.filter((p) => p.uncovered);
  if (options.placement !== "top") {
    const matching = open.filter((p) => matches(p.piece, gift));
    if (matching.length) return highest(matching, tolerance);
  }
  return highest(open, tolerance) || highest(tower, tolerance);
}

/** The steadiness of `seat`'s hand from the view's options (TD14), or null. */
export function steadinessOf(view, seat) {
  const options = (view.config && view.config.options) || {};
  const perSeat = options.seat_steadiness || [];
  return perSeat[seat] || options.steadiness || null;
}

export class PlacementControl {
  /** `scene` shows the piece and its outline; `release(action)` sends the placement;
   * `check(action)` asks the server whether the rules would take it (a promise of
   * `{ok, why}`; null: the page does not ask). */
  constructor(scene, catalogue, panel, release, check = null) {
    this.scene = scene;
    this.catalogue = catalogue;
    this.panel = panel;
    this.release = release;
    this.check = check;
    this.active = false;
    this.key = null;
    this.piece = null;
    this.target = null;
    this.pose = { face: "", rotationDeg: 0, xMm: 0, yMm: 0 };
    // The server's verdicts on poses of the pending placement ({ok, why} by pose), from
    // checks and from refused releases: a refused pose is outlined in red, never sent.
    this.verdicts = new Map();
    this.asking = new Map();
    this.checkTimer = null;
    this.releasing = false;
    this.onKnownRefusal = () => {};
    this.#wire();
  }

  #wire() {
    const on = (name, callback) => {
      this.panel.querySelector(`[data-place="${name}"]`).addEventListener("click", callback);
    };
    on("face", () => this.nextFace());
    on("left", () => this.turn(-TURN_STEP_DEG));
    on("right", () => this.turn(TURN_STEP_DEG));
    on("x-", () => this.move(-MOVE_STEP_MM, 0));
    on("x+", () => this.move(MOVE_STEP_MM, 0));
    on("y-", () => this.move(0, -MOVE_STEP_MM));
    on("y+", () => this.move(0, MOVE_STEP_MM));
    on("centre", () => { this.pose.xMm = 0; this.pose.yMm = 0; this.#show(); });
    on("release", () => this.commit());
  }

  /** Start placing the gift of `view` (the seat is to place). */
  start(view) {
    // The pose is kept while the same placement is pending (a refused one is moved again).
    const key = `${view.placements}:${view.gift}`;
    const same = this.key === key;
    this.key = key;
    this.active = true;
    this.piece = view.gift;
    this.target = targetOf(view, view.gift);
    if (!same) {
      this.verdicts.clear();
      this.asking.clear();
      const faces = Object.keys(shapeOf(this.catalogue, view.gift).faces);
      this.pose = { face: faces[0], rotationDeg: 0, xMm: 0, yMm: 0 };
    }
    this.panel.hidden = false;
    this.#show();
  }

  /** Stop placing (another seat's turn, or the placement was sent). */
  stop() {
    this.active = false;
    clearTimeout(this.checkTimer);
    this.panel.hidden = true;
    this.scene.setGhost(null, null, null);
  }

  nextFace() {
    const faces = Object.keys(shapeOf(this.catalogue, this.piece).faces);
    this.pose.face = faces[(faces.indexOf(this.pose.face) + 1) % faces.length];
    this.#show();
  }

  turn(deg) {
    this.pose.rotationDeg = ((this.pose.rotationDeg + deg + 540) % 360) - 180;
    this.#show();
  }

  move(dx, dy) {
    const clamp = (v) => Math.max(-MAX_OFFSET_MM, Math.min(MAX_OFFSET_MM, v));
    this.pose.xMm = clamp(Math.round((this.pose.xMm + dx) * 10) / 10);
    this.pose.yMm = clamp(Math.round((this.pose.yMm + dy) * 10) / 10);
    this.#show();
  }

  /** The `place` action of the current pose. */
  action() {
    return {
      kind: "place", face: this.pose.face, rotation_deg: this.pose.rotationDeg,
      x_mm: this.pose.xMm, y_mm: this.pose.yMm,
    };
  }

  /** The server's word on the current pose: "ok", "refused" or "unknown" (not asked yet,
   * or no answer). */
  verdict() {
    const known = this.verdicts.get(JSON.stringify(this.action()));
    if (!known) return "unknown";
    return known.ok ? "ok" : "refused";
  }

  /** Whether the server refused the current pose for this placement. */
  isRefused() {
    return this.verdict() === "refused";
  }

  /** Remember that the server refused `action` for the pending placement. */
  markRefused(action, why = null) {
    this.verdicts.set(JSON.stringify(action), { ok: false, why });
    if (this.active) this.#show();
  }

  /** The server's verdict on `action` ({ok, why}), asked once per pose of the pending
   * placement; null when it could not be asked or answered. */
  ask(action = this.action()) {
    const key = JSON.stringify(action);
    if (this.verdicts.has(key)) return Promise.resolve(this.verdicts.get(key));
    if (!this.check) return Promise.resolve(null);
    if (!this.asking.has(key)) {
      const placing = this.key;
      const asked = this.check(action).then((answer) => {
        if (this.key !== placing) return null;
        const verdict = { ok: Boolean(answer.ok), why: answer.why ?? null };
        this.verdicts.set(key, verdict);
        if (this.active) this.#show();
        return verdict;
      }, () => null).finally(() => this.asking.delete(key));
      this.asking.set(key, asked);
    }
    return this.asking.get(key);
  }

  /** Release the piece in the current pose, unless the server refuses that pose: it is
   * asked first when its verdict is not known yet. */
  async commit() {
    if (!this.active || this.releasing) return;
    const action = this.action();
    this.releasing = true;
    let verdict;
    try {
      verdict = await this.ask(action);
    } finally {
      this.releasing = false;
    }
    if (!this.active || JSON.stringify(this.action()) !== JSON.stringify(action)) return;
    if (verdict && !verdict.ok) {
      this.onKnownRefusal(action, verdict.why);
      return;
    }
    this.release(action);
  }

  #askSoon() {
    clearTimeout(this.checkTimer);
    if (!this.check || this.verdict() !== "unknown") return;
    this.checkTimer = setTimeout(() => { if (this.active) this.ask(); }, CHECK_DELAY_MS);
  }

  /** Handle a key of the placement (Q/E turn, arrows move, F face, Enter release); true
   * when the key was one of them. */
  handleKey(event) {
    if (!this.active || event.ctrlKey || event.metaKey || event.altKey) return false;
    const step = event.shiftKey ? FAST_MOVE_MM : MOVE_STEP_MM;
    const keys = {
      q: () => this.turn(-TURN_STEP_DEG), e: () => this.turn(TURN_STEP_DEG),
      f: () => this.nextFace(),
      arrowleft: () => this.move(-step, 0), arrowright: () => this.move(step, 0),
      arrowup: () => this.move(0, step), arrowdown: () => this.move(0, -step),
      enter: () => this.commit(),
    };
    const action = keys[event.key.toLowerCase()];
    if (!action) return false;
    action();
    return true;
  }

  #show() {
    this.scene.setGhost(this.piece, this.pose, this.target, this.isRefused());
    this.panel.dataset.refused = String(this.isRefused());
    this.panel.dataset.check = this.verdict();
    const warning = this.panel.querySelector('[data-show="check"]');
    warning.hidden = !this.isRefused();
    warning.textContent = this.isRefused()
      ? gettext("Here the piece would not rest on its target alone (T06): move it or turn it.")
      : "";
    this.#askSoon();
    const text = (name, value) => { this.panel.querySelector(`[data-show="${name}"]`).textContent = value; };
    text("piece", pieceName(this.piece));
    text("target", this.target ? pieceName(this.target.piece) : gettext("the table"));
    text("face", faceName(this.pose.face));
    text("rotation", gettext("{deg}°", { deg: this.pose.rotationDeg }));
    text("offset", gettext("{x} mm, {y} mm", { x: this.pose.xMm, y: this.pose.yMm }));
  }
}
