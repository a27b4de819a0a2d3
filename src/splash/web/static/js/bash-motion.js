// The pool's moves drawn over its final state: the page draws each update's pool at once,
// then every piece that moved is sent back to where it stood and walks to its new place,
// square by square (a bumped piece after the piece that bumped it; a piece that falls into
// the pool dives, then comes up where it restarts), and a fresh roll spins the die.
// Purely visual: the pieces and the controls are already the new ones, the animated pieces
// let clicks through, and an update takes at most MOTION_MS.
//   planMotion(board, before, after, from) -> a plan (null when nothing moved)
//   piecePositions(root) -> Map piece label -> [x, y] of the pool drawn under root
//   PoolMotion: start(plan), apply(root) after each drawing, finish() to end it at once
import { inPool, squarePoint } from "./bash-board.js";
import { newEvents, pieceName } from "./bash-text.js";

export const MOTION_MS = 600;
const STEP_MS = 70;
const SHORTEST_MS = 180;
const DIE_MS = 300;
const DIE_LEAD_MS = 150;

/** Whether the reader asked for less motion (then nothing moves: the final state at once). */
export function reducedMotion() {
  return Boolean(window.matchMedia) && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Where each piece of the pool drawn under `root` stands: a Map of label -> [x, y]. */
export function piecePositions(root) {
  const positions = new Map();
  for (const circle of root.querySelectorAll("svg.pool .piece[data-piece] > circle")) {
    positions.set(circle.parentElement.dataset.piece,
      [Number(circle.getAttribute("cx")), Number(circle.getAttribute("cy"))]);
  }
  return positions;
}

function nearestSquare(board, lane, [x, y]) {
  let best = 0;
  let bestDistance = Infinity;
  for (let s = 0; s < board.lanes[lane].length; s += 1) {
    const [sx, sy] = squarePoint(board, lane, s);
    const distance = (sx - x) ** 2 + (sy - y) ** 2;
    if (distance < bestDistance) {
      best = s;
      bestDistance = distance;
    }
  }
  return best;
}

// The squares a piece crosses between `old` and `now` (neither end included, except the
// square where a piece changing lane steps in), the shorter way round.
function squaresBetween(board, old, now, start) {
  const length = board.lanes[now.lane].length;
  let from = old.s;
  let steps = now.s - old.s;
  const points = [];
  if (old.lane !== now.lane) {
    from = nearestSquare(board, now.lane, start);
    const forward = (((now.s - from) % length) + length) % length;
    steps = forward <= length - forward ? forward : forward - length;
    if (steps !== 0) {
      points.push(squarePoint(board, now.lane, from));
    }
  }
  if (Math.abs(steps) > length) {
    return points;
  }
  const sign = Math.sign(steps);
  for (let k = 1; k < Math.abs(steps); k += 1) {
    points.push(squarePoint(board, now.lane, from + k * sign));
  }
  return points;
}

/**
 * What the update from view `before` to view `after` moved, for PoolMotion.start: the
 * pieces' paths (from their places `from`, read with piecePositions before the new pool was
 * drawn), in the order of the update's bumps, and whether the die was rolled.
 */
export function planMotion(board, before, after, from) {
  if (!before || !after || !board) {
    return null;
  }
  const events = newEvents(before, after);
  const fell = new Set(events.filter((e) => e.event === "fall").map((e) => e.piece));
  const stageOf = new Map();
  for (const event of events) {
    if (event.event === "bump") {
      const stage = (stageOf.get(event.piece) || 0) + 1;
      stageOf.set(event.target, Math.max(stageOf.get(event.target) || 0, stage));
    }
  }
  const bumped = new Set(stageOf.keys());
  const moves = [];
  after.pieces.forEach((pieces, team) => {
    pieces.forEach((now, index) => {
      const old = (before.pieces[team] || [])[index];
      const label = pieceName(team, index);
      if (!old || now.finished || now.lane === null || old.lane === null || !from.has(label)
        || (old.lane === now.lane && old.s === now.s)) {
        return;
      }
      const start = from.get(label);
      const path = fell.has(label) ? [start, inPool(start)] : [start, ...squaresBetween(board, old, now, start)];
      moves.push({
        piece: label, path, fell: fell.has(label), bumped: bumped.has(label),
        stage: stageOf.get(label) || 0, wanted: Math.max(SHORTEST_MS, STEP_MS * path.length),
      });
    });
  });
  const rolled = events.some((e) => e.event === "roll");
  if (!moves.length && !rolled) {
    return null;
  }
  const stages = [...new Set(moves.map((m) => m.stage))].sort((a, b) => a - b);
  const lengths = stages.map((stage) => Math.max(...moves.filter((m) => m.stage === stage).map((m) => m.wanted)));
  const lead = rolled && moves.length ? DIE_LEAD_MS : 0;
  const wanted = lengths.reduce((a, b) => a + b, 0);
  const scale = wanted ? Math.min(1, (MOTION_MS - lead) / wanted) : 1;
  let at = lead;
  stages.forEach((stage, i) => {
    const length = Math.floor(lengths[i] * scale);
    for (const move of moves.filter((m) => m.stage === stage)) {
      move.delay = at;
      move.duration = length;
    }
    at += length;
  });
  return { moves, rolled, total: Math.max(at, rolled ? DIE_MS : 0) };
}

function translate([x, y], [fx, fy], extra = "") {
  return `translate(${(x - fx).toFixed(1)}px, ${(y - fy).toFixed(1)}px)${extra}`;
}

function keyframes(move, final) {
  if (move.fell) {
    const [start, water] = move.path;
    return [
      { transform: translate(start, final), opacity: 1, offset: 0 },
      { transform: translate(water, final, " scale(0.3)"), opacity: 0, offset: 0.6 },
      { transform: "scale(0.3)", opacity: 0, offset: 0.7 },
      { transform: "none", opacity: 1, offset: 1 },
    ];
  }
  const points = [...move.path, final];
  const frames = points.map((point, i) => ({ transform: translate(point, final), offset: i / (points.length - 1) }));
  if (move.bumped && frames.length > 1) {
    frames[0].transform += " scale(1.35)";
  }
  return frames;
}

const DIE_FRAMES = [
  { transform: "rotate(-300deg) scale(0.6)" },
  { transform: "rotate(30deg) scale(1.15)", offset: 0.7 },
  { transform: "none" },
];

/** The animation of one update at a time over the pool a page draws again and again. */
export class PoolMotion {
  constructor() {
    this.plan = null;
    this.started = 0;
    this.animations = [];
  }

  /** Animate `plan` (from planMotion) from now on; none under reduced motion. */
  start(plan) {
    this.finish();
    if (plan && !reducedMotion()) {
      this.plan = plan;
      this.started = performance.now();
    }
  }

  /** Put the animation under way on the pool just drawn under `root`, where it has got to. */
  apply(root) {
    this.#cancel();
    if (!this.plan) {
      return;
    }
    const elapsed = performance.now() - this.started;
    if (elapsed >= this.plan.total) {
      this.plan = null;
      return;
    }
    for (const move of this.plan.moves) {
      const node = root.querySelector(`svg.pool .piece[data-piece="${move.piece}"]`);
      const circle = node && node.querySelector("circle");
      if (circle) {
        const final = [Number(circle.getAttribute("cx")), Number(circle.getAttribute("cy"))];
        this.#animate(node, keyframes(move, final), move.delay, move.duration, elapsed);
      }
    }
    if (this.plan.rolled) {
      for (const die of root.querySelectorAll(".dice .die")) {
        this.#animate(die, DIE_FRAMES, 0, DIE_MS, elapsed);
      }
    }
  }

  /** End the animation at once: the final state, already drawn, is all that shows. */
  finish() {
    this.plan = null;
    this.#cancel();
  }

  #animate(node, frames, delay, duration, elapsed) {
    if (elapsed >= delay + duration) {
      return;
    }
    node.classList.add("moving");
    const animation = node.animate(frames, { delay, duration, fill: "backwards", easing: "linear" });
    animation.currentTime = elapsed;
    animation.onfinish = () => {
      node.classList.remove("moving");
      this.animations = this.animations.filter((a) => a !== animation);
    };
    this.animations.push(animation);
  }

  #cancel() {
    for (const animation of this.animations) {
      animation.cancel();
      if (animation.effect && animation.effect.target) {
        animation.effect.target.classList.remove("moving");
      }
    }
    this.animations = [];
  }
}
