// Optional sounds of the game pages: off unless the reader turns them on (remembered in
// localStorage); a browser that blocks them just stays silent.
//   soundsOn() / setSoundsOn(on)   the reader's choice
//   soundSwitch()                  a "Sounds" checkbox (#sounds-switch) bound to it
//   playSound(name, delayMs?)      play /static/sounds/<name>.wav ("roll", "bump", "fall")
import { N_, gettext } from "./i18n.js";

const STORAGE_KEY = "splash-sounds";
const LABEL = N_("Sounds");

/** Whether the reader turned the sounds on (off by default, and without storage). */
export function soundsOn() {
  try {
    return localStorage.getItem(STORAGE_KEY) === "1";
  } catch (_) {
    return false;
  }
}

/** Remember the reader's choice. */
export function setSoundsOn(on) {
  try {
    localStorage.setItem(STORAGE_KEY, on ? "1" : "0");
  } catch (_) {
    // Without storage the choice lasts as long as the page.
  }
}

/** A labelled checkbox that turns the sounds on and off; translatePage() keeps its label. */
export function soundSwitch() {
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = "sounds-switch";
  box.checked = soundsOn();
  box.addEventListener("change", () => setSoundsOn(box.checked));
  const text = document.createElement("span");
  text.dataset.i18n = LABEL;
  text.textContent = gettext(LABEL);
  const label = document.createElement("label");
  label.className = "sound-switch";
  label.append(box, " ", text);
  return label;
}

/** Play the sound `name` after `delayMs` if the sounds are on; never throws. */
export function playSound(name, delayMs = 0) {
  if (!soundsOn()) {
    return;
  }
  const play = () => {
    try {
      const played = new Audio(`/static/sounds/${name}.wav`).play();
      if (played && typeof played.catch === "function") {
        played.catch(() => {});
      }
    } catch (_) {
      // No audio here: the game goes on in silence.
    }
  };
  if (delayMs > 0) {
    setTimeout(play, delayMs);
  } else {
    play();
  }
}
