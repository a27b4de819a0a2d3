// The side panels of the Splash! page: the players (reserves, drops, hands), whose turn it
// is, the buttons of the legal decisions and the list of what happened.
import { levelName } from "./games.js";
import { gettext } from "./i18n.js";
import { steadinessOf } from "./tower-place.js";
import { faceName, pieceName, resultName } from "./tower-names.js";

/** A coloured square and the name of a piece. */
export function pieceChip(catalogue, pieceId) {
  const chip = document.createElement("span");
  chip.className = "chip";
  const swatch = document.createElement("span");
  swatch.className = "swatch";
  const piece = catalogue.pieces.find((p) => p.id === pieceId);
  if (piece) swatch.style.background = catalogue.colours[piece.colour];
  const label = document.createElement("span");
  label.textContent = pieceName(pieceId);
  chip.append(swatch, label);
  return chip;
}

/** The name of a seat: its person, its bot, or its number. */
export function seatName(seats, seat) {
  const info = (seats || []).find((s) => s.seat === seat);
  if (info && info.name) return info.name;
  if (info && info.bot) return gettext("bot {bot} (seat {seat})", { bot: levelName(info.bot), seat: seat + 1 });
  return gettext("seat {seat}", { seat: seat + 1 });
}

/** The name of a seat as a node: a person's name marked as theirs (translate="no"). */
export function seatNameNode(seats, seat) {
  const info = (seats || []).find((s) => s.seat === seat);
  if (!(info && info.name)) return seatName(seats, seat);
  const span = document.createElement("span");
  span.setAttribute("translate", "no");
  span.textContent = info.name;
  return span;
}

/** A hand's steadiness in words (TD14). */
export function steadinessText(hand) {
  if (!hand) return "";
  return gettext("Steadiness of the hand: ±{position} mm, ±{angle}°, lift up to {height} mm", {
    position: hand.position_mm, angle: hand.angle_deg, height: hand.height_mm,
  });
}

/** Fill the players list: name, turn, drops, steadiness, reserve. */
export function renderPlayers(list, catalogue, view, seats, mySeat, { hands = true } = {}) {
  list.replaceChildren();
  view.reserves.forEach((reserve, seat) => {
    const item = document.createElement("li");
    item.dataset.seat = String(seat);
    item.dataset.toAct = String(view.to_act === seat);
    const who = document.createElement("div");
    who.className = "who";
    let text = seatName(seats, seat);
    if (seat === mySeat) text = gettext("{name} (you)", { name: text });
    if (view.to_act === seat) text = gettext("▶ {name}", { name: text });
    who.textContent = text;
    if (text === seatName(seats, seat) && (seats || []).some((s) => s.seat === seat && s.name)) {
      who.setAttribute("translate", "no");  // a person's name, theirs in every language
    }
    const drops = document.createElement("div");
    drops.className = "drops";
    drops.textContent = gettext("Water drops: {drops}", { drops: view.drops[seat] });
    const hand = document.createElement("div");
    hand.className = "hint";
    hand.textContent = hands ? steadinessText(steadinessOf(view, seat)) : "";
    const pieces = document.createElement("div");
    pieces.className = "reserve";
    pieces.setAttribute("aria-label", gettext("Reserve of {name}", { name: seatName(seats, seat) }));
    for (const piece of reserve) {
      const chip = pieceChip(catalogue, piece);
      chip.title = pieceName(piece);
      chip.lastChild.hidden = true;
      pieces.append(chip);
    }
    item.append(who, drops, hand, pieces);
    list.append(item);
  });
}

/** The label of a decision's button. */
export function actionLabel(action) {
  const piece = action.piece ? pieceName(action.piece) : "";
  switch (action.kind) {
    case "take": return gettext("Take {piece}", { piece });
    case "give": return gettext("Give {piece}", { piece });
    case "base": return gettext("New base: {piece}", { piece });
    case "keep": return gettext("Take back {piece}", { piece });
    case "deal": return gettext("Dealt: {piece}", { piece });
    default: return action.kind;
  }
}

/** What the seat to act has to do, in words. */
export function turnText(view, seats, mySeat) {
  if (view.phase === "over") {
    return view.winner === null || view.winner === undefined
      ? gettext("The game is over.")
      : gettext("The game is over: {winner} won.", { winner: winnerName(view, seats) });
  }
  if (view.to_act < 0 && view.phase === "result" && view.gift) {
    return gettext("{piece} is placed: waiting for what the tower does…", { piece: pieceName(view.gift) });
  }
  if (view.to_act < 0) return gettext("Waiting for the tower…");
  const who = view.to_act === mySeat ? gettext("You") : seatName(seats, view.to_act);
  const phases = {
    draft: gettext("{who}: take a piece for the reserve", { who }),
    give: gettext("{who}: give a piece to the next player", { who }),
    place: gettext("{who}: place {piece}", { who, piece: view.gift ? pieceName(view.gift) : "" }),
    base: gettext("{who}: choose the new base", { who }),
    keep: gettext("{who}: take back pieces from the table", { who }),
  };
  return phases[view.phase] || gettext("{who} to act", { who });
}

function winnerName(view, seats) {
  const event = (view.events || []).find((e) => e.event === "win");
  return event ? seatName(seats, event.seat) : String(view.winner);
}

/** One line of the log for an update. */
export function updateText(update, seats) {
  const action = update.action || {};
  const who = update.actor >= 0 ? seatName(seats, update.actor) : gettext("The table");
  if (action.kind === "result") {
    return gettext("{result}.", { result: resultName((action.outcome || {}).result) });
  }
  if (action.kind === "place") {
    if (action.face === undefined) return gettext("{who} placed the piece.", { who });
    return gettext("{who} placed the piece turned {deg}° at ({x}, {y}) mm.", {
      who, deg: Math.round(action.rotation_deg), x: action.x_mm, y: action.y_mm,
    });
  }
  if (action.kind === "deal") return gettext("{piece} dealt.", { piece: pieceName(action.piece) });
  return gettext("{who}: {action}", { who, action: actionLabel(action) });
}

/** Fill `box` with a button for each of `actions`, calling `choose(action)`; `preview`
 * gets the action a button points at (hover or focus), then null. */
export function renderActions(box, catalogue, actions, choose, preview = () => {}, disabled = false) {
  // The same choices in the same language keep their buttons: a tap or a click that lands
  // while the page redraws for another seat's move still reaches its button.
  const key = JSON.stringify([document.documentElement.lang, actions, disabled]);
  if (box.dataset.shown === key) return;
  box.dataset.shown = key;
  box.replaceChildren();
  for (const action of actions) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.action = JSON.stringify(action);
    button.disabled = disabled;
    if (action.piece) {
      button.append(pieceChip(catalogue, action.piece));
      button.lastChild.lastChild.textContent = actionLabel(action);
    } else {
      button.textContent = actionLabel(action);
    }
    button.addEventListener("click", () => choose(action));
    for (const type of ["mouseenter", "focus"]) button.addEventListener(type, () => preview(action));
    for (const type of ["mouseleave", "blur"]) button.addEventListener(type, () => preview(null));
    box.append(button);
  }
}

/** The tower in words, for a screen reader (the 3D picture's description): each piece from
 * the first placed, how it rests and on what; then what lies on the table after a fall. */
export function towerDescription(view) {
  const table = view.table || [];
  const onTable = new Set(table.map((p) => p.piece));
  const tower = view.phase === "base" ? [] : (view.tower || []).filter((p) => !onTable.has(p.piece));
  const parts = [];
  if (!tower.length) {
    parts.push(gettext("No tower stands yet."));
  } else {
    const height = Math.max(...tower.map((p) => p.height_mm || 0));
    parts.push(gettext("The tower: {count} pieces, {height} mm tall.", { count: tower.length, height: Math.round(height) }));
    for (const piece of [...tower].sort((a, b) => a.order - b.order)) {
      parts.push(piece.support
        ? gettext("{piece}, {face}, on the {support}.", { piece: pieceName(piece.piece), face: faceName(piece.face), support: pieceName(piece.support) })
        : gettext("{piece}, {face}, the base.", { piece: pieceName(piece.piece), face: faceName(piece.face) }));
    }
  }
  if (table.length) {
    parts.push(gettext("On the table: {pieces}.", { pieces: table.map((p) => pieceName(p.piece)).join(", ") }));
  }
  return parts.join(" ");
}
