"""Fixtures of the browser tests: a real server process and a headless Chromium.

The server runs as ``uvicorn`` on a free port of 127.0.0.1 with a temporary SQLite file; the
browser is the system's Chromium driven by Playwright.  Without Chromium the tests are
skipped, except with ``CI=true``, where they fail.  Screenshots go to the folder named by
``SPLASH_SCREENSHOTS`` (default: ``screenshots/web`` of the checkout, which git ignores).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.server.process import free_port, server
from tests.web.named_states import Rooms, make_rooms

if TYPE_CHECKING:  # playwright is imported only where Chromium is there to drive
    from playwright.sync_api import Browser, Page

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "web"
CHROMIUM = os.environ.get("SPLASH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 15_000


def _missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (required when CI=true)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """The Chromium executable, or a skip (a failure with ``CI=true``)."""
    if not (os.path.isfile(CHROMIUM) or shutil.which(CHROMIUM)):
        _missing(f"no Chromium at {CHROMIUM}")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _missing("the playwright package is not installed")
    return CHROMIUM


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a play server running in its own process on a fresh database."""
    port = free_port()
    database = tmp_path_factory.mktemp("web-server") / "splash.db"
    with server(f"sqlite:///{database}", port):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Browser]:
    """A headless Chromium shared by the tests of the session."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Browser, server_url: str) -> Iterator[Page]:
    """A fresh page (its own storage) whose relative URLs go to the server; English first."""
    context = browser.new_context(base_url=server_url, locale="en-GB")
    context.set_default_timeout(TIMEOUT_MS)
    opened = context.new_page()
    try:
        yield opened
    finally:
        context.close()


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Callable[[Page, str], Path]:
    """``screenshot(page, "name")`` saves a PNG under ``SPLASH_SCREENSHOTS`` (or
    ``screenshots/web``)."""
    folder = Path(os.environ.get("SPLASH_SCREENSHOTS") or SCREENSHOTS)
    folder.mkdir(parents=True, exist_ok=True)

    def take(target: Page, name: str) -> Path:
        path = folder / f"{request.node.name}-{name}.png"
        target.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def page_errors(page: Page) -> list[str]:
    """The uncaught script errors of ``page`` so far (a test asserts the list stays empty)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


@pytest.fixture(scope="session")
def rooms(server_url: str) -> Rooms:
    """The rooms the named states of the pages are shown in (named_states.py)."""
    return make_rooms(server_url)
