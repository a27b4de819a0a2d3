"""Free tops and fits measured on the geometry (TD04)."""

from __future__ import annotations

import pytest

from splash.games.tower.catalogue import Catalogue, load_catalogue
from splash.games.tower.geometry import Transform
from splash.games.tower.tops import GeometricFit, Rest, free_tops, height_mm
from splash.games.tower.tower import Tower, TowerPiece


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


def _rest(
    catalogue: Catalogue,
    piece: str,
    face: str,
    support: str | None,
    *,
    x: float,
    z: float,
    turn: float = 0.0,
) -> Rest:
    frame = Transform.translation_of(x, 0.0, z).compose(Transform.yaw(turn))
    body = catalogue.shape_of(piece).body_in(face, frame)
    q = body.quaternion()
    t = body.translation
    return Rest(
        piece,
        face,
        support,
        (float(t[0]), float(t[1]), float(t[2])),
        (float(q[0]), float(q[1]), float(q[2]), float(q[3])),
    )


def _tower(catalogue: Catalogue, rests: list[Rest]) -> Tower:
    tops = free_tops(catalogue, rests)
    return Tower(
        tuple(
            TowerPiece(
                r.piece,
                r.support,
                r.face,
                height_mm(catalogue, r),
                tops[r.piece],
                i,
                {"position": r.position, "quaternion": r.quaternion},
            )
            for i, r in enumerate(rests)
        )
    )


@pytest.mark.rule("TD04")
def test_TD04_a_lone_piece_has_a_free_top_unless_it_is_a_ridge(catalogue: Catalogue) -> None:
    for piece, face, free in [
        ("red-cube", "bottom", True),
        ("red-beam", "flat", True),
        ("red-beam", "end", True),
        ("red-prism", "rect", False),
        ("red-cylinder", "side", False),
        ("red-arch", "feet", True),
    ]:
        rest = _rest(catalogue, piece, face, None, x=0.0, z=0.0)
        assert free_tops(catalogue, [rest]) == {piece: free}, (piece, face)


def test_TD04_a_beam_with_a_cube_on_one_end_is_still_free(catalogue: Catalogue) -> None:
    beam = _rest(catalogue, "red-beam", "flat", None, x=0.0, z=0.0)
    cube = _rest(catalogue, "blue-cube", "bottom", "red-beam", x=0.012, z=0.015)
    assert free_tops(catalogue, [beam, cube]) == {"red-beam": True, "blue-cube": True}
    centred = _rest(catalogue, "blue-cube", "bottom", "red-beam", x=0.0, z=0.015)
    assert free_tops(catalogue, [beam, centred])["red-beam"] is False


def test_TD04_an_arch_straddling_the_top_leaves_no_room_under_its_notch(
    catalogue: Catalogue,
) -> None:
    cube = _rest(catalogue, "orange-cube", "bottom", None, x=0.0, z=0.0)
    arch = _rest(catalogue, "orange-arch", "feet", "orange-cube", x=0.0, z=0.025)
    assert free_tops(catalogue, [cube, arch])["orange-cube"] is False


def test_TD04_a_fit_finds_a_pose_clear_of_the_other_pieces(catalogue: Catalogue) -> None:
    beam = _rest(catalogue, "red-beam", "flat", None, x=0.0, z=0.0)
    cube = _rest(catalogue, "blue-cube", "bottom", "red-beam", x=0.012, z=0.015)
    tower = _tower(catalogue, [beam, cube])
    fit = GeometricFit(catalogue)
    target = tower.get("red-beam")
    assert fit(tower, "green-beam", target)
    pose = fit.pose_for(tower, "green-beam", target)
    assert pose is not None and pose[2] < -5.0  # on the free end of the beam, away from the cube
    crowded = _tower(
        catalogue,
        [
            beam,
            _rest(catalogue, "blue-cube", "bottom", "red-beam", x=0.012, z=0.015),
            _rest(catalogue, "green-cube", "bottom", "red-beam", x=-0.013, z=0.015),
        ],
    )
    assert not fit(crowded, "purple-arch", crowded.get("red-beam"))
