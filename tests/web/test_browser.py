"""The page in a real browser (headless Chromium driven by Selenium): tap a roll, ask, and see the
command line's own best move; screenshots at a phone's size and a desktop's. Needs Debian's
`chromium` and `chromium-driver` and the web extra; `.ci/run` installs them, elsewhere these
tests skip and say why."""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import cli

pytest.importorskip("uvicorn", reason="the web extra (pip install '.[web]') is not installed")
pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not (CHROMIUM and DRIVER):
    pytest.skip("no headless Chromium here (apt-get install chromium chromium-driver)",
                allow_module_level=True)

import uvicorn  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from solver.web.app import application  # noqa: E402

PHONE, DESKTOP = (390, 844), (1280, 800)
SHOTS = Path(os.environ.get("DICE_SOLVER_SHOTS", tempfile.gettempdir()))


@pytest.fixture(scope="module")
def server() -> str:
    """The app on a free local port, in a thread of this process."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(application(), host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    for _ in range(100):
        if running.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 f"--user-data-dir={tempfile.mkdtemp(prefix='dice-solver-chromium-')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def tap(driver, selector: str) -> None:
    driver.find_element(By.CSS_SELECTOR, selector).click()


def answer(driver) -> list[list[str]]:
    """The options table the page shows, once it is there, as rows of cells."""
    WebDriverWait(driver, 30).until(expected_conditions.presence_of_element_located(
        (By.CSS_SELECTOR, "#options tr td")))
    rows = driver.find_elements(By.CSS_SELECTOR, "#options tr")
    return [[c.text for c in row.find_elements(By.CSS_SELECTOR, "th, td")] for row in rows]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_tapped_dalek_roll_gets_the_command_lines_best_move(server: str, browser,
                                                              size: tuple[int, int]) -> None:
    kept = ["H4", "D3"]  # set aside before this roll
    roll = ["H4", "H4", "H2", "H2", "D3", "D2", "D2", "DOC"]
    browser.set_window_size(*size)
    browser.get(server)
    tap(browser, '.mode-button[data-mode="kept"]')
    for face in kept:
        tap(browser, f'.face[data-face="{face}"]')
    tap(browser, '.mode-button[data-mode="roll"]')
    for face in roll:
        tap(browser, f'.face[data-face="{face}"]')
    tap(browser, "#dalek-ask")
    rows = answer(browser)
    expected = json.loads(CliRunner().invoke(
        cli, ["dalek", "best-move", "--roll", " ".join(roll), "--kept", " ".join(kept),
              "--json"]).stdout)
    assert browser.find_element(By.ID, "verdict").text == expected["verdict"]
    header, first = rows[0], rows[1]
    best = expected["options"][0]
    keep = best["keep"]
    assert first[header.index("keep")] == (" ".join(keep) if isinstance(keep, list) else keep)
    assert first[header.index("action")] == best["action"]
    assert "answered in" in browser.find_element(By.ID, "timing").text
    browser.save_screenshot(str(SHOTS / f"dice-solver-page-{size[0]}x{size[1]}.png"))


def test_bad_input_shows_the_one_line_error(server: str, browser) -> None:
    browser.set_window_size(*PHONE)
    browser.get(server)
    tap(browser, '.tab[data-panel="strike"]')
    browser.find_element(By.ID, "strike-arena").send_keys("9")
    browser.find_element(By.ID, "strike-stocks").send_keys("2,2")
    tap(browser, "#strike-ask")
    WebDriverWait(browser, 30).until(lambda d: d.find_element(By.ID, "error").text)
    assert "arena numbers are 1 to 5" in browser.find_element(By.ID, "error").text


def test_a_strike_position_gets_the_command_lines_verdict(server: str, browser) -> None:
    """The arena typed as players say it (245), the stocks, "I have thrown": the page shows
    strike best-move's verdict."""
    browser.set_window_size(*PHONE)
    browser.get(server)
    tap(browser, '.tab[data-panel="strike"]')
    browser.find_element(By.ID, "strike-arena").send_keys("245")
    browser.find_element(By.ID, "strike-stocks").send_keys("3,6")
    tap(browser, "#strike-mid")
    tap(browser, "#strike-ask")
    answer(browser)
    expected = json.loads(CliRunner().invoke(
        cli, ["strike", "best-move", "--arena", "2 4 5", "--stocks", "3,6", "--mid-turn",
              "--json"]).stdout)
    assert browser.find_element(By.ID, "verdict").text == expected["verdict"]
