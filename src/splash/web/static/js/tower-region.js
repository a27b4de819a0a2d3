// The placement map of a Splash! gift (the server's `placements` answer, docs/placement-map.md)
// as the page reads it: the cell of a face and turn, whether an offset lies in a region,
// the nearest offset of the safe region, and the steadiest pose of all.
// A region is a list of polygons; a polygon a list of rings (the outer one first, then its
// holes); a ring a list of [x, y] points in mm, in the target's top frame.

/** Whether (x, y) lies inside `ring` (even-odd rule). */
function inRing(ring, x, y) {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i, i += 1) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Whether the offset (x, y) in mm lies in `region`. */
export function inRegion(region, x, y) {
  return (region || []).some((polygon) => {
    const [outer, ...holes] = polygon;
    return inRing(outer, x, y) && !holes.some((hole) => inRing(hole, x, y));
  });
}

function nearestOnSegment([ax, ay], [bx, by], x, y) {
  const dx = bx - ax;
  const dy = by - ay;
  const length = dx * dx + dy * dy;
  const t = length ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / length)) : 0;
  return [ax + t * dx, ay + t * dy];
}

const round = (v) => Math.round(v * 10) / 10 || 0;

/** The offset of `region` nearest to (x, y), rounded to 0.1 mm as the page sends offsets
 * (a rounded point that left the region is pulled back in); (x, y) itself when it lies in
 * the region, null for an empty region. */
export function nearestIn(region, x, y) {
  if (inRegion(region, x, y)) return [round(x), round(y)];
  let best = null;
  let bestDistance = Infinity;
  for (const polygon of region || []) {
    for (const ring of polygon) {
      for (let i = 0; i < ring.length; i += 1) {
        const [px, py] = nearestOnSegment(ring[i], ring[(i + 1) % ring.length], x, y);
        const distance = (px - x) ** 2 + (py - y) ** 2;
        if (distance < bestDistance) { bestDistance = distance; best = [px, py]; }
      }
    }
  }
  if (!best) return null;
  // On the edge: step in by up to 0.2 mm, towards a rounded point inside.
  const [bx, by] = best;
  const candidates = [];
  for (const dx of [-0.2, -0.1, 0, 0.1, 0.2]) {
    for (const dy of [-0.2, -0.1, 0, 0.1, 0.2]) candidates.push([round(bx + dx), round(by + dy)]);
  }
  const inside = candidates.filter(([cx, cy]) => inRegion(region, cx, cy));
  if (!inside.length) return [round(bx), round(by)];
  inside.sort((a, b) => ((a[0] - x) ** 2 + (a[1] - y) ** 2) - ((b[0] - x) ** 2 + (b[1] - y) ** 2));
  return inside[0];
}

/** The turns (degrees) the map gives for `face`, ascending. */
export function turnsOf(map, face) {
  return Object.keys((map.faces || {})[face] || {}).map(Number).sort((a, b) => a - b);
}

/** The map's key of a pose turned `rotationDeg` on `face`: the turns repeat with the face's
 * symmetry (a cube's every 90°), and the map lists one period of them. */
export function turnKey(map, face, rotationDeg) {
  const turns = turnsOf(map, face);
  if (!turns.length) return null;
  const period = turns.length === 1 ? 360 : turns[turns.length - 1] + (turns[1] - turns[0]);
  const turned = ((Math.round(rotationDeg) % period) + period) % period;
  if (turns.length === 1) return String(turns[0]);
  return turns.includes(turned) ? String(turned) : null;
}

/** The cell ({regions, safe, steadiest}) of `face` turned `rotationDeg`, or null. */
export function cellOf(map, face, rotationDeg) {
  if (!map || map.forced) return null;
  const key = turnKey(map, face, rotationDeg);
  return key === null ? null : map.faces[face][key];
}

/** A turn of the map as the rules take it: between -180 and 180 degrees. */
export function ruleTurn(deg) {
  return deg > 180 ? deg - 360 : deg;
}

/** The steadiest pose of the whole map: {face, rotationDeg, xMm, yMm, marginMm}, over every
 * face and turn (the first face's first turn on a tie); null when no cell has one.
 * `faces` fixes the order of the faces. */
export function steadiestPose(map, faces) {
  let best = null;
  for (const face of faces) {
    for (const turn of turnsOf(map, face)) {
      const steadiest = map.faces[face][String(turn)].steadiest;
      if (steadiest && (!best || steadiest.margin_mm > best.marginMm)) {
        best = {
          face, rotationDeg: ruleTurn(turn),
          xMm: steadiest.x_mm, yMm: steadiest.y_mm, marginMm: steadiest.margin_mm,
        };
      }
    }
  }
  return best;
}

/** The pose a placement starts in: the steadiest pose of the first face's first turn, else
 * the first face and turn (in order) that has one; null when none has. */
export function firstPose(map, faces) {
  for (const face of faces) {
    for (const turn of turnsOf(map, face)) {
      const steadiest = map.faces[face][String(turn)].steadiest;
      if (steadiest) {
        return { face, rotationDeg: ruleTurn(turn), xMm: steadiest.x_mm, yMm: steadiest.y_mm };
      }
    }
  }
  return null;
}
