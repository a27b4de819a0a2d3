// The 3D scene of the Splash! page: renderer, camera, lights, the table, orbit controls,
// the tower's pieces, the piece being placed with its outline, and the replay of a fall.
import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { pieceMesh, placedFootprint, placedMatrix, poseMatrix, quaternionOf, topFrame } from "./tower-geometry.js";

const REPLAY_MS = 1000;

export class TowerScene {
  /** A scene drawn into `canvas`, pieces built from `catalogue`. */
  constructor(canvas, catalogue) {
    this.catalogue = catalogue;
    this.canvas = canvas;
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.shadowMap.enabled = true;
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color("#dfe9f2");
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.005, 20);
    this.camera.up.set(0, 0, 1);
    this.camera.position.set(0.13, -0.17, 0.12);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.target.set(0, 0, 0.04);
    this.controls.enableDamping = true;
    this.controls.update();
    this.#lights();
    this.#table();
    this.pieces = new Map();
    this.ghost = null;
    this.outline = null;
    this.region = null;
    this.raycaster = new THREE.Raycaster();
    this.animations = [];
    this.frames = 0;
    this.dirty = true;
    this.controls.addEventListener("change", () => this.redraw());
    new ResizeObserver(() => this.#resize()).observe(canvas);
    this.#resize();
    this.renderer.setAnimationLoop(() => this.#frame());
  }

  #lights() {
    this.scene.add(new THREE.HemisphereLight("#ffffff", "#8a7760", 1.6));
    const sun = new THREE.DirectionalLight("#ffffff", 2.2);
    sun.position.set(0.3, -0.2, 0.6);
    sun.castShadow = true;
    sun.shadow.mapSize.set(1024, 1024);
    Object.assign(sun.shadow.camera, { left: -0.25, right: 0.25, top: 0.25, bottom: -0.25, near: 0.1, far: 2 });
    this.scene.add(sun);
  }

  #table() {
    const table = new THREE.Mesh(
      new THREE.CylinderGeometry(0.3, 0.3, 0.02, 64).rotateX(Math.PI / 2).translate(0, 0, -0.01),
      new THREE.MeshStandardMaterial({ color: "#b98b5e", roughness: 0.85 }),
    );
    table.receiveShadow = true;
    this.scene.add(table);
    const grid = new THREE.PolarGridHelper(0.3, 8, 6, 64, "#9c7650", "#a88058");
    grid.rotateX(Math.PI / 2);
    grid.position.z = 0.0002;
    this.scene.add(grid);
  }

  #resize() {
    const { clientWidth: w, clientHeight: h } = this.canvas;
    if (!w || !h) return;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    // A narrow screen (a phone) keeps the same width of the table in view.
    const halfWidth = Math.atan(Math.tan((20 * Math.PI) / 180) * Math.max(1, 1.3 / this.camera.aspect));
    this.camera.fov = Math.min(75, (2 * halfWidth * 180) / Math.PI);
    this.camera.updateProjectionMatrix();
    this.redraw();
  }

  /** Draw again at the next frame (the scene is drawn only when something changed). */
  redraw() {
    this.dirty = true;
  }

  #frame() {
    const now = performance.now();
    const running = this.animations;
    const animating = running.length > 0;
    // A step that ends calls back the page, which may start the next replay at once: that
    // one goes into the fresh list, not into the one being filtered (it would be lost, and
    // the page would wait for its end for ever).
    this.animations = [];
    const kept = running.filter((step) => step(now));
    this.animations = kept.concat(this.animations);
    const moved = this.controls.update();
    if (!(this.dirty || animating || moved)) return;
    this.dirty = false;
    this.renderer.render(this.scene, this.camera);
    this.frames += 1;
  }

  #mesh(pieceId) {
    let mesh = this.pieces.get(pieceId);
    if (!mesh) {
      mesh = pieceMesh(this.catalogue, pieceId);
      mesh.matrixAutoUpdate = true;
      this.pieces.set(pieceId, mesh);
      this.scene.add(mesh);
    }
    return mesh;
  }

  /** Turn the view about the vertical through the tower by `deg` degrees. */
  orbit(deg) {
    const offset = this.camera.position.clone().sub(this.controls.target);
    offset.applyAxisAngle(new THREE.Vector3(0, 0, 1), (deg * Math.PI) / 180);
    this.camera.position.copy(this.controls.target).add(offset);
    this.controls.update();
    this.redraw();
  }

  /** Move the camera `factor` times as far from the tower (below 1: closer). */
  zoom(factor) {
    const offset = this.camera.position.clone().sub(this.controls.target).multiplyScalar(factor);
    if (offset.length() < 0.04 || offset.length() > 2) return;
    this.camera.position.copy(this.controls.target).add(offset);
    this.controls.update();
    this.redraw();
  }

  /** Show exactly the tower pieces `towerPieces` (each with a pose) at their poses. */
  setTower(towerPieces) {
    const keep = new Set(towerPieces.map((p) => p.piece));
    for (const [id, mesh] of this.pieces) {
      if (!keep.has(id)) { this.scene.remove(mesh); this.pieces.delete(id); }
    }
    for (const tp of towerPieces) {
      const mesh = this.#mesh(tp.piece);
      poseMatrix(tp.pose).decompose(mesh.position, mesh.quaternion, mesh.scale);
    }
    this.#frameTower(towerPieces);
    this.redraw();
  }

  // The camera follows the top of the tower: the point looked at stays just under the top
  // (where the next piece goes) and the camera rises with it, keeping its angle of view.
  #frameTower(towerPieces) {
    const top = Math.max(0.03, ...towerPieces.map((p) => p.height_mm / 1000));
    const z = Math.min(0.6, Math.max(0.02, top - 0.01));
    const rise = z - this.controls.target.z;
    this.controls.target.z = z;
    this.camera.position.z += rise;
    this.controls.update();
  }

  /** Animate the pieces from the poses `before` to `after` (maps piece id → pose) over
   * about a second; pieces missing from `after` stay where they were. */
  replay(before, after, onDone = () => {}) {
    const tracks = [];
    for (const [id, from] of before) {
      const to = after.get(id) ?? from;
      const mesh = this.#mesh(id);
      tracks.push({
        mesh,
        p0: new THREE.Vector3(...from.position), p1: new THREE.Vector3(...to.position),
        q0: quaternionOf(from.quaternion), q1: quaternionOf(to.quaternion),
      });
    }
    const start = performance.now();
    this.replaying = true;
    this.animations.push((now) => {
      const t = Math.min(1, (now - start) / REPLAY_MS);
      const eased = t * t * (3 - 2 * t);
      for (const track of tracks) {
        track.mesh.position.lerpVectors(track.p0, track.p1, eased);
        track.mesh.quaternion.slerpQuaternions(track.q0, track.q1, eased);
      }
      if (t >= 1) { this.replaying = false; onDone(); }
      return t < 1;
    });
  }

  /** Stop every replay where it is (the page shows a fresh state instead). */
  stopReplays() {
    this.animations = [];
    this.replaying = false;
    this.redraw();
  }

  /** Show the piece being placed at `placement` on the top of `target` (a tower piece with
   * a pose, or null for the table), with its outline on the target's top (red when the
   * pose was `refused`); null hides it. */
  setGhost(pieceId, placement, target, refused = false) {
    this.redraw();
    if (this.ghost && this.ghost.name !== pieceId) { this.scene.remove(this.ghost); this.ghost = null; }
    if (this.outline) { this.scene.remove(this.outline); this.outline = null; }
    if (!pieceId || !placement) {
      if (this.ghost) { this.scene.remove(this.ghost); this.ghost = null; }
      return;
    }
    if (!this.ghost) {
      this.ghost = pieceMesh(this.catalogue, pieceId, { opacity: 0.55 });
      this.scene.add(this.ghost);
    }
    const top = topFrame(this.catalogue, target);
    const lift = new THREE.Matrix4().makeTranslation(0, 0, 0.012);
    const body = placedMatrix(this.catalogue, pieceId, placement, top.clone().multiply(lift));
    body.decompose(this.ghost.position, this.ghost.quaternion, this.ghost.scale);
    this.outline = new THREE.Group();
    const material = new THREE.LineBasicMaterial({ color: refused ? "#d00000" : "#111111", depthTest: false });
    this.outline.userData.refused = refused;
    for (const polygon of placedFootprint(this.catalogue, pieceId, placement)) {
      const points = polygon.map(([x, y]) => new THREE.Vector3(x, y, 0.0004));
      this.outline.add(new THREE.LineLoop(new THREE.BufferGeometry().setFromPoints(points), material));
    }
    this.outline.renderOrder = 10;
    this.outline.applyMatrix4(top);
    this.scene.add(this.outline);
  }

  /** Shade the safe region of `cell` (a face and turn of the placement map: polygons in mm)
   * on the top of `target` (null: the table), with the T06 region's edge drawn lighter;
   * a null cell hides it. */
  setRegion(target, cell) {
    this.redraw();
    if (this.region) { this.scene.remove(this.region); this.region = null; }
    if (!cell) return;
    const group = new THREE.Group();
    group.name = "placement-region";
    const fill = new THREE.MeshBasicMaterial({
      color: "#1f9d55", transparent: true, opacity: 0.42, depthTest: false, side: THREE.DoubleSide,
    });
    for (const polygon of cell.safe) {
      const [outer, ...holes] = polygon;
      const shape = new THREE.Shape(outer.map(([x, y]) => new THREE.Vector2(x / 1000, y / 1000)));
      for (const hole of holes) {
        shape.holes.push(new THREE.Path(hole.map(([x, y]) => new THREE.Vector2(x / 1000, y / 1000))));
      }
      const mesh = new THREE.Mesh(new THREE.ShapeGeometry(shape), fill);
      mesh.position.z = 0.0002;
      mesh.renderOrder = 8;
      group.add(mesh);
    }
    const edge = new THREE.LineBasicMaterial({ color: "#8fd6a8", depthTest: false });
    for (const polygon of cell.regions) {
      for (const ring of polygon) {
        const points = ring.map(([x, y]) => new THREE.Vector3(x / 1000, y / 1000, 0.0003));
        const line = new THREE.LineLoop(new THREE.BufferGeometry().setFromPoints(points), edge);
        line.renderOrder = 9;
        group.add(line);
      }
    }
    group.applyMatrix4(topFrame(this.catalogue, target));
    group.userData.safe = cell.safe.length;
    this.region = group;
    this.scene.add(group);
  }

  #ray(clientX, clientY) {
    const box = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(
      ((clientX - box.left) / box.width) * 2 - 1, -((clientY - box.top) / box.height) * 2 + 1,
    );
    this.raycaster.setFromCamera(ndc, this.camera);
    return this.raycaster;
  }

  /** The point of the top of `target` (null: the table) under the screen point (clientX,
   * clientY), as [x, y] in mm in the target's top frame; null when the ray misses its
   * plane. */
  pointOnTop(clientX, clientY, target) {
    const top = topFrame(this.catalogue, target);
    const normal = new THREE.Vector3(0, 0, 1).transformDirection(top);
    const origin = new THREE.Vector3().setFromMatrixPosition(top);
    const plane = new THREE.Plane().setFromNormalAndCoplanarPoint(normal, origin);
    const hit = this.#ray(clientX, clientY).ray.intersectPlane(plane, new THREE.Vector3());
    if (!hit) return null;
    hit.applyMatrix4(top.clone().invert());
    return [hit.x * 1000, hit.y * 1000];
  }

  /** Whether the piece being placed is under the screen point (clientX, clientY). */
  hitsGhost(clientX, clientY) {
    if (!this.ghost) return false;
    return this.#ray(clientX, clientY).intersectObject(this.ghost, true).length > 0;
  }

  /** Where on the screen (client pixels) the middle of the piece being placed is; null
   * when none is shown. */
  ghostOnScreen() {
    if (!this.ghost) return null;
    const middle = new THREE.Box3().setFromObject(this.ghost).getCenter(new THREE.Vector3());
    middle.project(this.camera);
    const box = this.canvas.getBoundingClientRect();
    return [box.left + ((middle.x + 1) / 2) * box.width, box.top + ((1 - middle.y) / 2) * box.height];
  }

  /** Where on the screen (client pixels) the point (x, y) mm of the top of `target` is. */
  screenOf(xMm, yMm, target) {
    const point = new THREE.Vector3(xMm / 1000, yMm / 1000, 0).applyMatrix4(topFrame(this.catalogue, target));
    point.project(this.camera);
    const box = this.canvas.getBoundingClientRect();
    return [box.left + ((point.x + 1) / 2) * box.width, box.top + ((1 - point.y) / 2) * box.height];
  }
}
