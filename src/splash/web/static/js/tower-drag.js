// Moving the piece being placed by hand, with a mouse or a finger: a drag that starts on
// the piece or on its shaded region moves the piece over the target's top; a tap on the
// region moves it there; a drag anywhere else turns the view (the scene's orbit controls
// never see the gestures taken here). A drop outside the safe region snaps to the nearest
// safe offset (PlacementControl.drop).

// A press that moves less than this many pixels before it ends is a tap.
const TAP_PX = 6;

export class PieceDrag {
  /** Take the gestures on `canvas` (the scene's) that start on the piece `placing` places
   * or on its region. */
  constructor(canvas, scene, placing) {
    this.canvas = canvas;
    this.scene = scene;
    this.placing = placing;
    this.drag = null;
    // Capturing, on the canvas itself: this runs before the orbit controls' own listener,
    // which then never hears of a gesture taken here.
    canvas.addEventListener("pointerdown", (event) => this.#down(event), { capture: true });
    canvas.addEventListener("pointermove", (event) => this.#move(event));
    canvas.addEventListener("pointerup", (event) => this.#up(event));
    canvas.addEventListener("pointercancel", (event) => this.#up(event, true));
  }

  #point(event) {
    return this.scene.pointOnTop(event.clientX, event.clientY, this.placing.target);
  }

  #down(event) {
    const placing = this.placing;
    if (!placing.active || this.drag || (event.pointerType === "mouse" && event.button !== 0)) return;
    const point = this.#point(event);
    const onPiece = this.scene.hitsGhost(event.clientX, event.clientY);
    const onRegion = point !== null && placing.onRegion(point[0], point[1]);
    if (!point || !(onPiece || onRegion)) return;
    event.stopImmediatePropagation();
    event.preventDefault();
    this.canvas.setPointerCapture(event.pointerId);
    const grab = onPiece ? [placing.pose.xMm - point[0], placing.pose.yMm - point[1]] : [0, 0];
    this.drag = { id: event.pointerId, x: event.clientX, y: event.clientY, grab, moved: false, point, onRegion };
    this.canvas.dataset.dragging = "piece";
  }

  #move(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    event.preventDefault();
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) >= TAP_PX) drag.moved = true;
    if (!drag.moved) return;
    const point = this.#point(event);
    if (!point) return;
    drag.point = point;
    this.placing.dragTo(point[0] + drag.grab[0], point[1] + drag.grab[1]);
  }

  #up(event, cancelled = false) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.id) return;
    this.drag = null;
    delete this.canvas.dataset.dragging;
    if (this.canvas.hasPointerCapture(event.pointerId)) this.canvas.releasePointerCapture(event.pointerId);
    if (!this.placing.active) return;
    if (!drag.moved && !cancelled) {
      // A tap on the region (the piece drawn over it included) brings the piece there.
      if (drag.onRegion) this.placing.dragTo(drag.point[0], drag.point[1]);
    }
    this.placing.drop();
  }
}
