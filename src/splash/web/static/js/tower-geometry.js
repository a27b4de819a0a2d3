// Geometry of Splash! pieces for the 3D page: meshes from the catalogue's convex parts,
// resting frames, the frame of a target's top and the pose of a placement (TD13); the poses
// the pages draw for a view and those a placement's fall moves between.
// Lengths in metres, z up (the physics' frame); quaternions of the server are w, x, y, z.
import * as THREE from "three";

/** THREE.Quaternion from a server quaternion [w, x, y, z]. */
export function quaternionOf(q) {
  return new THREE.Quaternion(q[1], q[2], q[3], q[0]);
}

/** A Matrix4 from a catalogue transform {rotation (row-major 3x3), translation}. */
export function matrixOf(transform) {
  const r = transform.rotation;
  const t = transform.translation;
  return new THREE.Matrix4().set(
    r[0][0], r[0][1], r[0][2], t[0],
    r[1][0], r[1][1], r[1][2], t[1],
    r[2][0], r[2][1], r[2][2], t[2],
    0, 0, 0, 1,
  );
}

/** The Matrix4 of a body pose {position, quaternion}. */
export function poseMatrix(pose) {
  const p = pose.position;
  return new THREE.Matrix4().compose(
    new THREE.Vector3(p[0], p[1], p[2]), quaternionOf(pose.quaternion), new THREE.Vector3(1, 1, 1),
  );
}

function prismGeometry(part) {
  const s = part.side;
  const h = (s * Math.sqrt(3)) / 2;
  const tri = [[-s / 2, -h / 3], [s / 2, -h / 3], [0, (2 * h) / 3]];
  const [cx, cy, cz] = part.centre;
  const v = (i, side) => [tri[i][0] + cx, (side * part.depth) / 2 + cy, tri[i][1] + cz];
  const faces = [
    [v(0, -1), v(2, -1), v(1, -1)], [v(0, 1), v(1, 1), v(2, 1)],
  ];
  for (let i = 0; i < 3; i += 1) {
    const j = (i + 1) % 3;
    faces.push([v(i, -1), v(j, -1), v(j, 1)], [v(i, -1), v(j, 1), v(i, 1)]);
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.Float32BufferAttribute(faces.flat(2), 3));
  geometry.computeVertexNormals();
  return geometry;
}

/** The geometry of one convex part, in the body frame. */
export function partGeometry(part) {
  if (part.kind === "prism") return prismGeometry(part);
  let geometry;
  if (part.kind === "box") {
    geometry = new THREE.BoxGeometry(part.size[0], part.size[1], part.size[2]);
  } else {
    geometry = new THREE.CylinderGeometry(part.radius, part.radius, part.length, 32);
    geometry.rotateX(Math.PI / 2);
  }
  geometry.translate(part.centre[0], part.centre[1], part.centre[2]);
  return geometry;
}

/** A group drawing the piece `pieceId` (its body frame at the group's origin). */
export function pieceMesh(catalogue, pieceId, { opacity = 1 } = {}) {
  const piece = catalogue.pieces.find((p) => p.id === pieceId);
  const shape = catalogue.shapes[piece.shape];
  const colour = new THREE.Color(catalogue.colours[piece.colour]);
  const group = new THREE.Group();
  group.name = pieceId;
  const material = new THREE.MeshStandardMaterial({
    color: colour, roughness: 0.65, metalness: 0.0,
    transparent: opacity < 1, opacity,
  });
  const edges = new THREE.LineBasicMaterial({
    color: colour.clone().multiplyScalar(0.45), transparent: opacity < 1, opacity,
  });
  for (const part of shape.parts) {
    const geometry = partGeometry(part);
    const mesh = new THREE.Mesh(geometry, material);
    mesh.castShadow = opacity === 1;
    mesh.receiveShadow = true;
    group.add(mesh);
    group.add(new THREE.LineSegments(new THREE.EdgesGeometry(geometry, 30), edges));
  }
  return group;
}

/** The shape of a piece id. */
export function shapeOf(catalogue, pieceId) {
  const piece = catalogue.pieces.find((p) => p.id === pieceId);
  return catalogue.shapes[piece.shape];
}

/** The side (variant) of `face` a body of orientation `q` rests on: the one whose down
 * direction is closest to the world's down. */
function variantFor(face, q) {
  const down = new THREE.Vector3(0, 0, -1).applyQuaternion(quaternionOf(q).invert());
  let best = 0;
  let bestCos = -Infinity;
  face.downs.forEach((d, i) => {
    const c = d[0] * down.x + d[1] * down.y + d[2] * down.z;
    if (c > bestCos) { bestCos = c; best = i; }
  });
  return face.variants[face.axis ? 0 : best];
}

/** The Matrix4 of the frame of the centre of a tower piece's top: z up the piece, x along
 * its face's forward direction (the frame a placement's offset and turn are measured in). */
export function topFrame(catalogue, towerPiece) {
  if (!towerPiece) return new THREE.Matrix4();
  const face = shapeOf(catalogue, towerPiece.piece).faces[towerPiece.face];
  const pose = towerPiece.pose;
  const variant = matrixOf(variantFor(face, pose.quaternion));
  const resting = poseMatrix(pose).multiply(variant.invert());
  return resting.multiply(new THREE.Matrix4().makeTranslation(0, 0, face.height));
}

/** The Matrix4 of the body of `pieceId` placed on `face`, turned `rotationDeg` about the
 * vertical, at (xMm, yMm) from the centre of the top whose frame is `top`. */
export function placedMatrix(catalogue, pieceId, { face, rotationDeg, xMm, yMm }, top) {
  const faceGeometry = shapeOf(catalogue, pieceId).faces[face];
  const local = new THREE.Matrix4().makeTranslation(xMm / 1000, yMm / 1000, 0)
    .multiply(new THREE.Matrix4().makeRotationZ((rotationDeg * Math.PI) / 180));
  return top.clone().multiply(local).multiply(matrixOf(faceGeometry.variants[0]));
}

/** The footprint polygons of `pieceId` on `face`, turned and moved as a placement says,
 * in the frame of the target's top (x, y pairs in metres). */
export function placedFootprint(catalogue, pieceId, { face, rotationDeg, xMm, yMm }) {
  const polygons = shapeOf(catalogue, pieceId).faces[face].footprint;
  const a = (rotationDeg * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  return polygons.map((polygon) => polygon.map(([x, y]) => [
    c * x - s * y + xMm / 1000, s * x + c * y + yMm / 1000,
  ]));
}

/** Poses for tower pieces that have none (a referee's game: real pieces, no recorded
 * pose): each piece centred on its support's top; the first piece on the table in the
 * middle, the others in a ring around it. */
export function schematicPoses(catalogue, pieces) {
  const placed = new Map();
  let onTable = 0;
  for (const tp of pieces) {
    if (tp.pose) { placed.set(tp.piece, tp); continue; }
    const support = tp.support ? placed.get(tp.support) : null;
    let top;
    if (support) {
      top = topFrame(catalogue, support);
    } else {
      const angle = (onTable - 1) * 0.7 - Math.PI / 2;
      const radius = onTable === 0 ? 0 : 0.075;
      top = new THREE.Matrix4().makeTranslation(radius * Math.cos(angle), radius * Math.sin(angle), 0);
      onTable += 1;
    }
    const m = placedMatrix(catalogue, tp.piece, { face: tp.face, rotationDeg: 0, xMm: 0, yMm: 0 }, top);
    const position = new THREE.Vector3();
    const q = new THREE.Quaternion();
    m.decompose(position, q, new THREE.Vector3());
    placed.set(tp.piece, { ...tp, pose: { position: position.toArray(), quaternion: [q.w, q.x, q.y, q.z] } });
  }
  return [...placed.values()];
}

/** What the pages draw for a view: the tower, and the pieces on the table after a fall
 * (while the new base is chosen, the table holds every piece), each with a pose. */
export function shownPieces(catalogue, view) {
  const table = view.table || [];
  const onTable = new Set(table.map((p) => p.piece));
  const tower = view.phase === "base" ? [] : (view.tower || []).filter((p) => !onTable.has(p.piece));
  return schematicPoses(catalogue, [...tower, ...table]);
}

function posesOf(pieces) {
  return new Map(pieces.filter((p) => p.pose).map((p) => [p.piece, p.pose]));
}

/** The poses of a placement's fall, from the view `before` it and its result's `outcome`:
 * {start: the tower before, the placed piece where it was let go; settled: where the
 * pieces came to rest}, or null where a pose is missing (a referee's game has none). */
export function fallPoses(before, outcome) {
  const settled = posesOf(outcome.tower || []);
  const release = outcome.details && outcome.details.release;
  const tower = (before && before.tower) || [];
  const start = posesOf(tower);
  if (!before || !settled.size || !release || start.size !== tower.length) return null;
  start.set(outcome.details.placement.piece, release);
  return { start, settled };
}
