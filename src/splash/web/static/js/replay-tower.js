// The Splash! part of the replay page: the tower in 3D after a step (tower-scene.js; a step
// forward onto a placement's result replays the fall), the players' reserves and drops
// (tower-panels.js), and the step in words.
//   await createReplay(room) -> {title, who, stage, side, mounted, relabel, describe, show}
import { api } from "./client.js";
import { h } from "./dom.js";
import { towerSummary } from "./game-summary.js";
import { gettext } from "./i18n.js";
import { fallPoses, shownPieces } from "./tower-geometry.js";
import { renderPlayers, seatName, seatNameNode, towerDescription, turnText, updateText } from "./tower-panels.js";
import { TowerScene } from "./tower-scene.js";

// One step forward onto a placement's result: the pieces move from their poses before it
// (the placed piece from where it was let go) to where they settled, as on the game page.
function replayFall(scene, before, action, done) {
  const outcome = (action && action.kind === "result" && action.outcome) || {};
  const poses = fallPoses(before, outcome);
  if (!poses) return false;
  scene.setGhost(null, null, null);
  scene.replay(poses.start, poses.settled, done);
  return true;
}

/** The Splash! replay of `room` (a Room of the API). */
export async function createReplay(room) {
  const catalogue = await api(`/api/rooms/${encodeURIComponent(room.id)}/catalogue`);
  const seats = room.seats || [];
  const canvas = h("canvas", { id: "tower-canvas", tabIndex: 0, "aria-describedby": "tower-description" });
  const description = h("p", { id: "tower-description", class: "visually-hidden" });
  const stage = h("section", { class: "stage", id: "replay-stage" }, canvas, description);
  const players = h("ol", { id: "players", class: "players" });
  const title = h("h2", {});
  const side = h("aside", { class: "side", id: "replay-side" }, h("section", { class: "card" }, title, players));
  let scene = null;
  let shown = -1;
  const label = () => {
    canvas.setAttribute("aria-label", gettext("The tower in 3D: drag to turn the view, scroll to zoom"));
    stage.setAttribute("aria-label", gettext("The tower"));
    title.textContent = gettext("Players");
  };
  return {
    stage,
    side,
    title: () => gettext("Splash!"),
    who: (seat) => seatName(seats, seat),
    summary: (summary) => towerSummary(summary, (seat) => seatNameNode(seats, seat)),
    get scene() {
      return scene;
    },
    mounted() {
      label();
      if (!scene) {
        scene = new TowerScene(canvas, catalogue);
      }
    },
    async relabel() {},
    describe(step, previous) {
      const view = step.views[0];
      const now = turnText(view, seats, null);
      if (!previous || !step.action) {
        return { action: gettext("The start: no action yet."), details: [], now };
      }
      return { action: updateText({ actor: previous.to_act, action: step.action }, seats), details: [], now };
    },
    show(step, previous) {
      const view = step.views[0];
      const forward = Boolean(previous) && shown === previous.index;
      shown = step.index;
      renderPlayers(players, catalogue, view, seats, null);
      description.textContent = towerDescription(view);
      if (!scene) {
        return;
      }
      // A replay still running when the reader steps on is dropped.
      scene.animations = [];
      scene.replaying = false;
      const settle = () => {
        if (shown === step.index) scene.setTower(shownPieces(catalogue, view));
      };
      if (!(forward && replayFall(scene, previous.views[0], step.action, settle))) {
        settle();
      }
    },
  };
}
