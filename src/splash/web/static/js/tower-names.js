// Names of Splash! pieces, faces and results in the reader's language.
import { N_, gettext } from "./i18n.js";

const COLOURS = {
  red: N_("red"), orange: N_("orange"), yellow: N_("yellow"),
  green: N_("green"), blue: N_("blue"), purple: N_("purple"),
};
const SHAPES = {
  cube: N_("cube"), beam: N_("beam"), prism: N_("prism"), arch: N_("arch"), cylinder: N_("cylinder"),
};
const FACES = {
  bottom: N_("any face"), flat: N_("lying flat"), end: N_("on its end"),
  triangle: N_("on a triangle"), rect: N_("on a long side"),
  feet: N_("on its feet"), top: N_("upside down"), side: N_("on its side"), round: N_("on a round end"),
};
const RESULTS = {
  stood: N_("the tower stood"), fell: N_("the tower fell"),
  spontaneous: N_("the tower fell by itself"), knocked: N_("the tower was knocked over"),
};

function known(table, id) {
  return Object.prototype.hasOwnProperty.call(table, id) ? gettext(table[id]) : id;
}

/** "red cube" for "red-cube" (ids of other catalogues are shown as they are). */
export function pieceName(pieceId) {
  const cut = pieceId.indexOf("-");
  if (cut < 0) return pieceId;
  return gettext("{colour} {shape}", {
    colour: known(COLOURS, pieceId.slice(0, cut)), shape: known(SHAPES, pieceId.slice(cut + 1)),
  });
}

/** The name of a resting face. */
export function faceName(face) {
  return known(FACES, face);
}

/** What a placement's result means. */
export function resultName(result) {
  return known(RESULTS, result);
}
