"""``/rules/...``: the rules documentation in the four languages, as HTML pages."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

RULE_ID = re.compile(r"\b(?:B|BD|T|TD)\d{2}\b")


@pytest.mark.parametrize("prefix", ["", "fr/", "cs/", "it/"])
@pytest.mark.parametrize("page", ["README.md", "splash.md", "splash-and-bash.md"])
def test_every_rules_page_is_served_in_every_language(
    client: TestClient, prefix: str, page: str
) -> None:
    response = client.get(f"/rules/{prefix}{page}")
    assert response.status_code == 200
    assert "text/html" in response.headers["content-type"]
    text = response.text
    assert f'<html lang="{prefix[:-1] or "en"}">' in text
    if page != "README.md":
        assert "<table>" in text
        assert len(set(RULE_ID.findall(text))) > 20
    for lang in ("fr", "cs", "it"):
        assert f'hreflang="{lang}"' in text


def test_the_pages_speak_their_language(client: TestClient) -> None:
    english = client.get("/rules/splash.md").text
    french = client.get("/rules/fr/splash.md").text
    italian = client.get("/rules/it/splash-and-bash.md").text
    assert "T07" in english and "T07" in french
    assert "pièce" in french and "pièce" not in english
    assert "Alta Marea" in italian


def test_the_index_redirects_and_other_paths_are_refused(client: TestClient) -> None:
    response = client.get("/rules", follow_redirects=False)
    assert response.status_code in (302, 307)
    assert response.headers["location"] == "/rules/README.md"
    for path in (
        "/rules/secrets.md",
        "/rules/de/splash.md",
        "/rules/fr/../../pyproject.toml",
        "/rules/%2e%2e/pyproject.toml",
        "/rules/fr/%2e%2e%2fsplash.md",
    ):
        assert client.get(path).status_code == 404, path
