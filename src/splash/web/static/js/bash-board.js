// The Splash & Bash pool as an SVG: three lanes of squares around the pool, checkpoints,
// obstacles, every pawn and helmsman in its team's colour.
//   poolSvg(board, view, {compact}) -> <svg> (board: GET /api/rooms/{room}/board; view: a
//                                  bash view; compact: drawn for a phone, nearly round)
//   squarePoint(board, lane, s) -> [x, y], the centre of a square in the <svg>'s units
//   inPool([x, y]) -> [x, y]     a point of the water near a point of the pool's edge
import { gettext } from "./i18n.js";
import { pieceName, teamName, where } from "./bash-text.js";

const NS = "http://www.w3.org/2000/svg";
export const TEAM_COLOURS = ["#d62828", "#f2b705", "#2a9d3f", "#8e44ad"];
const DECK_FILL = { low_tide: "#dff3fb", high_tide: "#9fd3ec" };
// Neighbouring lanes differ in colour by a contrast of at least 3:1 (WCAG 1.4.11): sand
// (luminance 0.79) outside, deep blue (0.15) in the centre, light blue (0.58) by the pool.
export const LANE_FILL = { outer: "#fbe3b0", centre: "#2f6f9f", high_tide: "#9fd3ec" };

function laneFill(lane) {
  return LANE_FILL[lane.id] || DECK_FILL[lane.deck] || "#eee";
}
const RADII = [210, 168, 126];
const POOL = 92;
const CY = 240;
// The stadium's straight sides: long on a wide screen; on a phone short, so that the pool
// is nearly round and, filling the screen's width, large enough for pawn labels of 11 px.
const WIDE_HALF = 200;
const COMPACT_HALF = 40;
let HALF = WIDE_HALF;
let CX = 430;

/** Draw the pool for a phone's narrow screen (`compact`) or a wide one; the motion of the
 * pieces (squarePoint, inPool) follows the pool drawn last. */
export function setCompact(compact) {
  HALF = compact ? COMPACT_HALF : WIDE_HALF;
  CX = HALF + 230;
}

/** Whether the page is as narrow as a phone's (where the pool is drawn compact). */
export function narrowScreen() {
  return window.matchMedia("(max-width: 600px)").matches;
}
const SQUARE = 15;
// Where the pieces sharing a square stand around it: the first on it, the others around.
const STACK = [[0, 0], [12, -10], [-12, -10], [12, 10], [-12, 10], [0, -20], [24, 0], [-24, 0], [0, 20],
  [24, -20], [-24, -20], [24, 20], [-24, 20], [0, -30], [36, 0], [-36, 0]];

function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    node.setAttribute(key, String(value));
  }
  for (const child of children) {
    node.append(child);
  }
  return node;
}

// The point at distance d along a stadium of radius r, clockwise from the middle of the top.
function stadium(r, d) {
  const a = HALF;
  const arc = Math.PI * r;
  const perimeter = 4 * a + 2 * arc;
  let t = ((d % perimeter) + perimeter) % perimeter;
  if (t < a) {
    return [CX + t, CY - r];
  }
  t -= a;
  if (t < arc) {
    const angle = t / r;
    return [CX + a + r * Math.sin(angle), CY - r * Math.cos(angle)];
  }
  t -= arc;
  if (t < 2 * a) {
    return [CX + a - t, CY + r];
  }
  t -= 2 * a;
  if (t < arc) {
    const angle = t / r;
    return [CX - a - r * Math.sin(angle), CY + r * Math.cos(angle)];
  }
  t -= arc;
  return [CX - a + t, CY - r];
}

function squareAt(lane, square, length) {
  const r = RADII[lane];
  return stadium(r, ((4 * HALF + 2 * Math.PI * r) * square) / length);
}

/** A point of the water near `[x, y]` (where a piece by the pool falls in). */
export function inPool([x, y]) {
  return [Math.min(CX + HALF, Math.max(CX - HALF, x)), CY + (y - CY) * 0.3];
}

/** The centre of square `s` (any lap) of lane `lane` (its index), in the pool's units. */
export function squarePoint(board, lane, s) {
  const length = board.lanes[lane].length;
  return squareAt(lane, ((s % length) + length) % length, length);
}

export function laneLegend(board) {
  const list = document.createElement("ul");
  list.className = "lane-legend";
  for (const lane of board.lanes) {
    const item = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = laneFill(lane);
    item.dataset.lane = lane.id;
    const deck = board.decks[lane.deck] ? board.decks[lane.deck].name : lane.deck;
    item.append(swatch, gettext("{lane} lane · {deck} deck · {length} squares a lap · checkpoints {checkpoints}", {
      lane: lane.name, deck, length: lane.length, checkpoints: lane.checkpoints.join(" "),
    }));
    list.append(item);
  }
  return list;
}

export function poolSvg(board, view, { compact = false } = {}) {
  setCompact(compact);
  const svg = el("svg", {
    viewBox: `0 0 ${2 * CX} 480`, class: compact ? "pool compact" : "pool", role: "img",
    "aria-label": gettext("The pool: three lanes around it, the pieces on their squares"),
  });
  svg.append(el("rect", { x: CX - HALF - POOL, y: CY - POOL, width: 2 * (HALF + POOL), height: 2 * POOL, rx: POOL, class: "water" }));
  svg.append(el("text", { x: CX, y: CY + 6, "text-anchor": "middle", class: "pool-label" }, gettext("Pool")));
  const obstacles = new Set((view.obstacles || []).map(([lane, square]) => `${lane}:${square}`));
  board.lanes.forEach((lane, index) => {
    const group = el("g", { class: `lane lane-${lane.id}` });
    const checkpoints = new Set(lane.checkpoints);
    for (let square = 0; square < lane.length; square += 1) {
      const [x, y] = squareAt(index, square, lane.length);
      const isCheckpoint = checkpoints.has(square);
      const cell = el("circle", {
        cx: x.toFixed(1), cy: y.toFixed(1), r: SQUARE,
        fill: laneFill(lane),
        class: square === 0 ? "square start" : isCheckpoint ? "square checkpoint" : "square",
        "data-lane": lane.id, "data-square": square,
      });
      cell.append(el("title", {}, `${lane.name} ${square}`));
      group.append(cell);
      if (obstacles.has(`${index}:${square}`)) {
        group.append(el("text", { x: x.toFixed(1), y: (y + 6).toFixed(1), "text-anchor": "middle", class: "obstacle" }, "✖"));
      } else if (square % 5 === 0 || isCheckpoint) {
        group.append(el("text", { x: x.toFixed(1), y: (y + 4).toFixed(1), "text-anchor": "middle", class: "square-number" }, String(square)));
      }
    }
    svg.append(group);
  });
  svg.append(piecesLayer(board, view));
  return svg;
}

function piecesLayer(board, view) {
  const layer = el("g", { class: "pieces" });
  const stacks = new Map();
  const active = view.terminal ? null : view.active;
  view.pieces.forEach((pieces, team) => {
    pieces.forEach((piece, index) => {
      if (piece.finished || piece.lane === null) {
        return;
      }
      const length = board.lanes[piece.lane].length;
      const square = piece.s % length;
      const key = `${piece.lane}:${square}`;
      const depth = stacks.get(key) || 0;
      stacks.set(key, depth + 1);
      const [x0, y0] = squareAt(piece.lane, square, length);
      const [dx, dy] = STACK[depth % STACK.length];
      const x = x0 + dx;
      const y = y0 + dy;
      const label = pieceName(team, index);
      const group = el("g", { class: label === active ? "piece active" : "piece", "data-piece": label });
      const big = HALF === COMPACT_HALF;
      const radius = (index === 3 ? 13 : 11) + (big ? 6 : 0);
      group.append(el("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: radius, fill: TEAM_COLOURS[team % 4] }));
      group.append(el("text", { x: x.toFixed(1), y: (y + (big ? 7 : 4)).toFixed(1), "text-anchor": "middle" }, label));
      group.append(el("title", {}, `${label} · ${teamName(team)} · ${where(board, piece.lane, piece.s)}`));
      layer.append(group);
    });
  });
  return layer;
}
