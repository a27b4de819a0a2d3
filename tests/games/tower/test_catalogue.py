"""The piece catalogue (TD01): shipped data, derived geometry, validation of bad files."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from splash.core.errors import DataFileError
from splash.games.tower.catalogue import Catalogue, UnknownEntryError, load_catalogue
from splash.games.tower.geometry import (
    Transform,
    convex_intersection,
    inside_distance,
    polygon_area,
    rotation_about,
)

SHIPPED = resources.files("splash.games.tower") / "data" / "pieces.toml"


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


@pytest.mark.rule("T01", "TD01")
def test_T01_thirty_pieces_five_shapes_six_colours(catalogue: Catalogue) -> None:
    assert list(catalogue.shapes) == ["cube", "beam", "prism", "arch", "cylinder"]
    assert list(catalogue.colours) == ["red", "orange", "yellow", "green", "blue", "purple"]
    assert len(catalogue.pieces) == 30
    assert len(set(catalogue.piece_ids)) == 30
    assert "red-cube" in catalogue.piece_ids and "purple-cylinder" in catalogue.piece_ids
    piece = catalogue.piece("green-arch")
    assert (piece.colour, piece.shape) == ("green", "arch")
    assert catalogue.rgb("red-cube")[0] > 0.8


@pytest.mark.rule("TD01")
def test_TD01_sizes_density_and_friction(catalogue: Catalogue) -> None:
    cube = catalogue.shapes["cube"]
    assert cube.density == 650.0 and cube.friction == 0.5
    assert cube.mass == pytest.approx(650 * 0.025**3)
    heights = {
        (shape, face): round(pose.height * 1000, 6)
        for shape, s in catalogue.shapes.items()
        for face, pose in s.faces.items()
    }
    assert heights == {
        ("cube", "bottom"): 25.0,
        ("beam", "flat"): 15.0,
        ("beam", "end"): 50.0,
        ("prism", "triangle"): 20.0,
        ("prism", "rect"): round(30 * np.sqrt(3) / 2, 6),
        ("arch", "feet"): 25.0,
        ("arch", "top"): 25.0,
        ("arch", "side"): 20.0,
        ("cylinder", "round"): 25.0,
        ("cylinder", "side"): 20.0,
    }
    assert catalogue.shapes["cylinder"].volume == pytest.approx(np.pi * 0.01**2 * 0.025)


@pytest.mark.rule("TD04")
def test_TD04_footprints_and_top_surfaces(catalogue: Catalogue) -> None:
    cube = catalogue.shapes["cube"].resting("bottom")
    assert polygon_area(cube.footprint[0]) == pytest.approx(0.025**2)
    assert len(cube.top_surfaces) == 1
    assert polygon_area(cube.top_surfaces[0]) == pytest.approx(0.025**2)
    prism = catalogue.shapes["prism"]
    assert polygon_area(prism.resting("triangle").top_surfaces[0]) == pytest.approx(
        np.sqrt(3) / 4 * 0.03**2
    )
    assert prism.resting("rect").top_surfaces == ()
    assert catalogue.shapes["cylinder"].resting("side").top_surfaces == ()
    assert len(catalogue.shapes["cylinder"].resting("side").footprint[0]) == 2
    arch_top = catalogue.shapes["arch"].resting("top")
    assert len(arch_top.top_surfaces) == 2
    assert sum(polygon_area(t) for t in arch_top.top_surfaces) == pytest.approx(2 * 0.0175 * 0.02)
    feet = catalogue.shapes["arch"].resting("feet")
    assert len(feet.footprint) == 2
    assert inside_distance((0.0, 0.0), feet.support) == pytest.approx(0.01)


def test_resting_frame_origin_is_under_the_centre_of_mass(catalogue: Catalogue) -> None:
    for shape in catalogue.shapes.values():
        for face, pose in shape.faces.items():
            for variant in pose.variants:
                com = variant.apply(shape.centre_of_mass)
                assert com[:2] == pytest.approx([0.0, 0.0], abs=1e-12), (shape.name, face)
                assert com[2] == pytest.approx(pose.centre_of_mass_height)
                assert variant.apply(shape.points())[:, 2].min() == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize(
    ("shape", "face"),
    [
        ("cube", "bottom"),
        ("beam", "end"),
        ("prism", "rect"),
        ("arch", "side"),
        ("cylinder", "side"),
    ],
)
def test_resting_frame_round_trip(catalogue: Catalogue, shape: str, face: str) -> None:
    s = catalogue.shapes[shape]
    frame = Transform.translation_of(0.1, -0.2, 0.05).compose(Transform.yaw(33.0))
    body = s.body_in(face, frame)
    back = s.resting_frame(face, body.translation, body.quaternion())
    assert back.translation == pytest.approx(frame.translation, abs=1e-12)
    assert back.rotation == pytest.approx(frame.rotation, abs=1e-12)
    assert s.identify_face(body.quaternion()) == face


def test_identify_face_of_other_sides_and_rolled_cylinder(catalogue: Catalogue) -> None:
    cube = catalogue.shapes["cube"]
    on_side = Transform(rotation_about((1, 0, 0), np.pi / 2), np.zeros(3))
    assert cube.identify_face(on_side.quaternion()) == "bottom"
    beam = catalogue.shapes["beam"]
    upright = Transform(rotation_about((0, 1, 0), np.pi / 2 + 0.05), np.zeros(3))
    assert beam.identify_face(upright.quaternion()) == "end"
    cylinder = catalogue.shapes["cylinder"]
    lying = cylinder.body_in("side", Transform.identity())
    rolled = Transform(lying.rotation @ rotation_about((0, 0, 1), 0.65), lying.translation)
    assert cylinder.identify_face(rolled.quaternion()) == "side"
    frame = cylinder.resting_frame("side", rolled.translation, rolled.quaternion())
    assert frame.rotation[:, 2] == pytest.approx([0, 0, 1], abs=1e-12)
    assert frame.translation == pytest.approx([0, 0, 0], abs=1e-12)


def test_unknown_face_and_piece(catalogue: Catalogue) -> None:
    with pytest.raises(UnknownEntryError, match="'lid'"):
        catalogue.shapes["cube"].resting("lid")
    with pytest.raises(UnknownEntryError, match="'pink-cube'"):
        catalogue.piece("pink-cube")


def test_convex_intersection_of_squares() -> None:
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
    assert polygon_area(convex_intersection(square, square + 0.5)) == pytest.approx(0.25)
    assert len(convex_intersection(square, square + 2)) == 0


def _write(tmp_path: Path, old: str, new: str) -> Path:
    text = SHIPPED.read_text()
    assert old in text
    path = tmp_path / "pieces.toml"
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(
    ("old", "new", "entry", "field"),
    [
        (
            '[{ kind = "box", size = [0.025, 0.025, 0.025] }]',
            '[{ kind = "box", size = [0.025, -0.025, 0.025] }]',
            "cube",
            "parts.0.box.size.1",
        ),
        ("side = 0.03, depth = 0.02", 'side = "3 cm", depth = 0.02', "prism", "parts.0.prism.side"),
        (
            "down = [[-1, 0, 0], [1, 0, 0]]\nforward = [[0, 1, 0], [0, 1, 0]]",
            "down = [[-1, 0, 0], [1, 0, 0]]\nforward = [[0, 1, 0], [1, 0, 0]]",
            "beam",
            "faces.end",
        ),
        (
            "down = [[-1, 0, 0], [1, 0, 0]]\nforward = [[0, 1, 0], [0, 1, 0]]",
            "down = [[-1, 0, 0], [0, 0, 1]]\nforward = [[0, 1, 0], [0, 1, 0]]",
            "beam",
            "faces.end.down",
        ),
        ('yellow = "#f2c230"', 'yellow = "gold"', "yellow", "colours"),
        ("density = 650.0", "density = 0", None, "density"),
        (
            "[shapes.cube.faces.bottom]",
            "[shapes.cube.faces.bottom]\nlid = 1",
            "cube",
            "faces.bottom.lid",
        ),
    ],
)
def test_bad_file_names_file_entry_and_field(
    tmp_path: Path, old: str, new: str, entry: str | None, field: str
) -> None:
    path = _write(tmp_path, old, new)
    with pytest.raises(DataFileError) as caught:
        load_catalogue(path)
    error = caught.value
    assert error.file == str(path)
    assert (error.entry, error.field) == (entry, field)
    assert str(path) in str(error) and repr(entry or field) in str(error)


def test_unstable_face_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "pieces.toml"
    tilted = "\n[shapes.arch.faces.tilted]\ndown = [[0.6, 0, -0.8]]\nforward = [[0.8, 0, 0.6]]\n"
    path.write_text(SHIPPED.read_text() + tilted)
    with pytest.raises(DataFileError) as caught:
        load_catalogue(path)
    assert (caught.value.entry, caught.value.field) == ("arch", "faces.tilted")
    assert "cannot rest" in str(caught.value)


def test_not_toml_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("format = ")
    with pytest.raises(DataFileError, match="not valid TOML"):
        load_catalogue(bad)
    with pytest.raises(DataFileError, match="cannot be read"):
        load_catalogue(tmp_path / "missing.toml")
