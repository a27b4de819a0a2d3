// Placing a piece (TD13): choose the face, turn it, move it over the target's top, see the
// outline of its footprint there, and release — the `place` action of splash/ws/1.
// With the placement map (the server's `placements` answer, tower-region.js) the page shades
// where the piece may go with room to spare (the safe region) for the face and turn shown,
// starts the piece at its steadiest pose, keeps it in that region (a drop outside snaps to
// the nearest safe offset) and sends only safe poses. Without a map (not come yet, or none
// given) each pose shown is checked by the server (a `check` message: the rules' own T06
// test) a moment after the piece stops moving; a refused pose is outlined in red and
// Release refuses it before anything is sent.
import { gettext } from "./i18n.js";
import { cellOf, firstPose, inRegion, nearestIn, steadiestPose } from "./tower-region.js";
import { shapeOf } from "./tower-geometry.js";
import { faceName, pieceName } from "./tower-names.js";

export const TURN_STEP_DEG = 15;
export const MOVE_STEP_MM = 1;
export const FAST_MOVE_MM = 5;
const MAX_OFFSET_MM = 60;
// How long the pose must stay still before the page asks the server about it (its check,
// or the odds that it stands).
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
  constructor(scene, catalogue, panel, release, check = null, askOdds = null) {
    this.scene = scene;
    // `askOdds(pose)`: the server's odds that the pose stands (a promise of {stood,
    // rulings, odds}), asked only in a room with `options.placement_aid = odds`.
    this.askOdds = askOdds;
    this.showOdds = false;
    this.odds = new Map();
    this.oddsTimer = null;
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
    // The placement map of the pending placement (null: none yet), and whether the person
    // moved the piece since it came (the map's first pose then no longer replaces it).
    this.map = null;
    this.touched = false;
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
    on("centre", () => { this.touched = true; this.pose.xMm = 0; this.pose.yMm = 0; this.#keepSafe(); this.#show(); });
    on("suggest", () => this.suggest());
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
    const options = (view.config && view.config.options) || {};
    this.showOdds = Boolean(this.askOdds) && options.placement_aid === "odds";
    if (!same) {
      this.verdicts.clear();
      this.asking.clear();
      this.odds.clear();
      this.map = null;
      this.mapAsked = true;
      this.touched = false;
      this.pose = { face: this.faces()[0], rotationDeg: 0, xMm: 0, yMm: 0 };
    }
    this.panel.hidden = false;
    this.#show();
  }

  /** Stop placing (another seat's turn, or the placement was sent). */
  stop() {
    this.active = false;
    clearTimeout(this.checkTimer);
    clearTimeout(this.oddsTimer);
    this.oddsWaiting = null;
    this.panel.hidden = true;
    this.scene.setGhost(null, null, null);
    this.scene.setRegion(null, null);
  }

  /** The resting faces of the gift, in the catalogue's order. */
  faces() {
    return Object.keys(shapeOf(this.catalogue, this.piece).faces);
  }

  /** The placement map of the placement `key` (the key `start` gave it; a map of an
   * older placement is ignored): shade its region and, unless the person already moved
   * the piece, put it at the steadiest pose of the first face and turn. `map` null: no
   * map will come, the page checks each pose instead. */
  setMap(key, map) {
    if (key !== this.key) return;
    this.map = map;
    this.mapAsked = false;
    if (map && !map.forced && !this.touched) {
      const first = firstPose(map, this.faces());
      if (first) this.pose = first;
    }
    if (this.active) this.#show();
  }

  /** The map's cell of the face and turn shown: null without a map or for a forced gift. */
  cell() {
    return cellOf(this.map, this.pose.face, this.pose.rotationDeg);
  }

  /** Whether the pose shown lies in the safe region: true for a forced gift, null without
   * a map. */
  isSafe() {
    if (!this.map) return null;
    if (this.map.forced) return true;
    const cell = this.cell();
    return Boolean(cell) && inRegion(cell.safe, this.pose.xMm, this.pose.yMm);
  }

  // A pose outside the safe region moves to the region's nearest offset (when it has one).
  #keepSafe() {
    const cell = this.cell();
    if (!cell || !cell.safe.length) return;
    const [x, y] = nearestIn(cell.safe, this.pose.xMm, this.pose.yMm);
    this.pose.xMm = x;
    this.pose.yMm = y;
  }

  nextFace() {
    const faces = this.faces();
    this.touched = true;
    this.pose.face = faces[(faces.indexOf(this.pose.face) + 1) % faces.length];
    this.#keepSafe();
    this.#show();
  }

  turn(deg) {
    this.touched = true;
    this.pose.rotationDeg = ((this.pose.rotationDeg + deg + 540) % 360) - 180;
    this.#keepSafe();
    this.#show();
  }

  move(dx, dy) {
    this.#moveTo(this.pose.xMm + dx, this.pose.yMm + dy);
    this.#keepSafe();
    this.#show();
  }

  #moveTo(x, y) {
    const clamp = (v) => Math.max(-MAX_OFFSET_MM, Math.min(MAX_OFFSET_MM, v));
    this.touched = true;
    this.pose.xMm = clamp(Math.round(x * 10) / 10) || 0;
    this.pose.yMm = clamp(Math.round(y * 10) / 10) || 0;
  }

  /** Whether the offset (x, y) mm lies in the shaded region or the T06 region around it
   * (where a drag or a tap moves the piece). */
  onRegion(x, y) {
    const cell = this.cell();
    return Boolean(cell) && (inRegion(cell.safe, x, y) || inRegion(cell.regions, x, y));
  }

  /** The piece follows a drag to (x, y) mm, anywhere on the ±60 mm square. */
  dragTo(x, y) {
    this.#moveTo(x, y);
    this.#show();
  }

  /** The drag ended: a pose outside the safe region snaps to the nearest one in it. */
  drop() {
    this.#keepSafe();
    this.#show();
  }

  /** Move the piece to the steadiest pose of the whole map (every face and turn). */
  suggest() {
    if (!this.active || !this.map || this.map.forced) return;
    const best = steadiestPose(this.map, this.faces());
    if (!best) return;
    this.touched = true;
    this.pose = { face: best.face, rotationDeg: best.rotationDeg, xMm: best.xMm, yMm: best.yMm };
    this.#show();
  }

  /** The `place` action of the current pose. */
  action() {
    return {
      kind: "place", face: this.pose.face, rotation_deg: this.pose.rotationDeg,
      x_mm: this.pose.xMm, y_mm: this.pose.yMm,
    };
  }

  /** The server's word on the current pose: "ok" (its check accepted it, or the pose lies
   * in the map's safe region, which it accepts), "refused" or "unknown" (not asked yet, or
   * no answer). */
  verdict() {
    const known = this.verdicts.get(JSON.stringify(this.action()));
    if (!known) return this.isSafe() ? "ok" : "unknown";
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
    // The pose released is the person's: a map that comes meanwhile no longer moves it.
    this.touched = true;
    if (this.map && !this.map.forced) {
      const cell = this.cell();
      if (!cell || !cell.safe.length) {
        this.onKnownRefusal(this.action(), "no_safe_pose");
        return;
      }
      if (!this.isSafe()) this.drop();
      this.release(this.action());
      return;
    }
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

  // The odds of the pose shown, asked once it has been still for CHECK_DELAY_MS (a move
  // cancels the wait) and kept per pose; an answer for a pose no longer shown is kept, not
  // shown.
  #oddsSoon() {
    const key = JSON.stringify(this.action());
    if (this.oddsWaiting === key) return;  // the same pose, still: its wait goes on
    clearTimeout(this.oddsTimer);
    this.oddsWaiting = null;
    if (!this.showOdds || this.isSafe() !== true || this.odds.has(key)) return;
    const placing = this.key;
    this.oddsWaiting = key;
    this.oddsTimer = setTimeout(() => {
      this.oddsWaiting = null;
      if (!this.active || this.key !== placing || JSON.stringify(this.action()) !== key) return;
      this.odds.set(key, null);
      const { kind, ...pose } = this.action();
      this.askOdds(pose).then((answer) => {
        if (this.key !== placing) return;
        this.odds.set(key, answer);
        if (this.active) this.#show();
      }, () => { if (this.key === placing) this.odds.delete(key); });
      this.#show();
    }, CHECK_DELAY_MS);
  }

  #showOddsLine() {
    const line = this.panel.querySelector('[data-show="odds"]');
    line.hidden = !this.showOdds;
    if (!this.showOdds) return;
    const key = JSON.stringify(this.action());
    const known = this.odds.get(key);
    if (this.isSafe() !== true) {
      line.textContent = "";
      line.dataset.state = "none";
    } else if (known) {
      line.textContent = gettext("With your hand's tremor this pose stood in {stood} of {rulings} tries ({percent} %).",
        { stood: known.stood, rulings: known.rulings, percent: Math.round(known.odds * 100) });
      line.dataset.state = "known";
    } else {
      line.textContent = this.odds.has(key) ? gettext("Working out the odds of this pose…") : "";
      line.dataset.state = this.odds.has(key) ? "asking" : "waiting";
    }
  }

  #askSoon() {
    clearTimeout(this.checkTimer);
    // While the map is on its way the page waits for it rather than checking poses.
    if (this.map || this.mapAsked || !this.check || this.verdict() !== "unknown") return;
    this.checkTimer = setTimeout(() => { if (this.active && !this.map && !this.mapAsked) this.ask(); }, CHECK_DELAY_MS);
  }

  /** Handle a key of the placement (Q/E turn, arrows move, F face, Enter release); true
   * when the key was one of them. */
  handleKey(event) {
    if (!this.active || event.ctrlKey || event.metaKey || event.altKey) return false;
    const step = event.shiftKey ? FAST_MOVE_MM : MOVE_STEP_MM;
    const keys = {
      q: () => this.turn(-TURN_STEP_DEG), e: () => this.turn(TURN_STEP_DEG),
      f: () => this.nextFace(), g: () => this.suggest(),
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
    const cell = this.cell();
    const safe = this.isSafe();
    const outside = this.isRefused() || safe === false;
    this.scene.setGhost(this.piece, this.pose, this.target, outside);
    this.scene.setRegion(this.target, cell);
    this.panel.dataset.refused = String(this.isRefused());
    this.panel.dataset.check = this.verdict();
    this.panel.dataset.map = !this.map ? "none" : this.map.forced ? "forced" : cell && cell.safe.length ? "region" : "empty";
    this.panel.dataset.safe = String(safe);
    const suggest = this.panel.querySelector('[data-place="suggest"]');
    suggest.disabled = !this.map || this.map.forced;
    const warning = this.panel.querySelector('[data-show="check"]');
    const noRoom = this.panel.dataset.map === "empty";
    warning.hidden = !(this.isRefused() || noRoom);
    warning.textContent = noRoom
      ? gettext("The piece has no safe pose with this face and turn: turn it or change its face.")
      : this.isRefused()
        ? gettext("Here the piece would not rest on its target alone (T06): move it or turn it.")
        : "";
    this.#askSoon();
    this.#oddsSoon();
    this.#showOddsLine();
    const text = (name, value) => { this.panel.querySelector(`[data-show="${name}"]`).textContent = value; };
    text("piece", pieceName(this.piece));
    text("target", this.target ? pieceName(this.target.piece) : gettext("the table"));
    text("face", faceName(this.pose.face));
    text("rotation", gettext("{deg}°", { deg: this.pose.rotationDeg }));
    text("offset", gettext("{x} mm, {y} mm", { x: this.pose.xMm, y: this.pose.yMm }));
  }
}
