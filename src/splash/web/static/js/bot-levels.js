// The bot levels offered by the pages: a readable, translated name for each bot spec, one
// table for both games (the spec itself is shown in a tooltip).
//   botLevels(game) -> [{spec, name}]   levelName(spec) -> the level's name, or the spec
import { N_, gettext } from "./i18n.js";

export const BOT_LEVELS = {
  bash: [
    [N_("Beginner"), "random"],
    [N_("Club"), "greedy"],
    [N_("Expert"), "ismcts:iterations=50"],
    [N_("Master"), "ismcts:iterations=200"],
  ],
  tower: [
    [N_("Beginner"), "random"],
    [N_("Club"), "planner:samples=1,candidates=3,ruling=statics"],
    [N_("Expert"), "planner:samples=4"],
    [N_("Master"), "planner:samples=8"],
  ],
};

/** The levels of `game` in the page's language, easiest first. */
export function botLevels(game) {
  return (BOT_LEVELS[game] || []).map(([name, spec]) => ({ spec, name: gettext(name) }));
}

/** The readable name of a bot `spec` (the spec itself when no level has it). */
export function levelName(spec) {
  for (const levels of Object.values(BOT_LEVELS)) {
    const found = levels.find(([, s]) => s === spec);
    if (found) {
      return gettext(found[0]);
    }
  }
  return spec;
}
