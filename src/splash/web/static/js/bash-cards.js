// What each card of the game's decks does, in the page's language (the effects of
// src/splash/games/bash/data/high_tide.toml and low_tide.toml, told in words).
//   cardText(board, card) -> the sentence, or "" for a card of a deck the page does not know
import { N_, gettext } from "./i18n.js";

const HIGH_TIDE = {
  rogue_wave: N_("Before the roll: roll one die more this turn."),
  undertow: N_("A pawn of another team in the High tide lane, at most 6 squares from yours, falls into the pool."),
  shove: N_("A pawn next to yours is pushed one lane toward the pool."),
  fish_bone: N_("Put an obstacle on an empty square."),
  second_chance: N_("After the roll: roll again and keep the roll you prefer."),
  lifebuoy: N_("When one of your pawns would fall into the pool, it does not fall."),
  slide: N_("Your pawn walks 3 squares forward now."),
};

const LOW_TIDE = {
  calm_water: N_("Nothing happens."),
  breeze: N_("The roll counts one more."),
  headwind: N_("The roll counts one less (at least 1)."),
  flip_flops: N_("Changing lanes costs nothing this turn."),
  fish_bone: N_("Put an obstacle on an empty square."),
  towel_break: N_("Your pawn does not move this turn."),
};

const DECKS = { high_tide: HIGH_TIDE, low_tide: LOW_TIDE };

/** What `card` does, in words: the sentence of the first of the room's decks holding it. */
export function cardText(board, card) {
  for (const [deck, spec] of Object.entries(board.decks || {})) {
    if (spec.cards && spec.cards[card] && DECKS[deck] && DECKS[deck][card]) {
      return gettext(DECKS[deck][card]);
    }
  }
  return "";
}
