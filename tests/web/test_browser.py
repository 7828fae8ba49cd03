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
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from solver.web.app import application  # noqa: E402

PHONE, DESKTOP = (390, 844), (1280, 800)
SHOTS = Path(os.environ.get("DICE_SOLVER_SHOTS", tempfile.gettempdir()))


def start_server(budget: float = 10.0) -> tuple[str, uvicorn.Server, threading.Thread]:
    """The app on a free local port, in a thread of this process, holding each request to
    `budget` seconds as `serve` does."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(application(budget), host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    for _ in range(200):
        if running.started:
            break
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", running, thread


def stop_server(running: uvicorn.Server, thread: threading.Thread) -> None:
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def server() -> str:
    """A server that solves the 2-player race to 60 when first asked (1 to 2 min)."""
    url, running, thread = start_server(600)
    yield url
    stop_server(running, thread)


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


def answer(driver, seconds: float = 30) -> list[list[str]]:
    """The options table the page shows, once it is there, as rows of cells."""
    WebDriverWait(driver, seconds).until(expected_conditions.presence_of_element_located(
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
    tap_dalek(browser, roll, kept)
    tap(browser, "#dalek-ask")
    rows = answer(browser)
    expected = cli_json("dalek", "best-move", "--roll", " ".join(roll), "--kept", " ".join(kept))
    assert browser.find_element(By.ID, "verdict").text == expected["verdict"]
    header, first = rows[0], rows[1]
    best = expected["options"][0]
    keep = best["keep"]
    assert first[header.index("keep")] == (" ".join(keep) if isinstance(keep, list) else keep)
    assert first[header.index("then")] == best["action"]
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
    expected = cli_json("strike", "best-move", "--arena", "2 4 5", "--stocks", "3,6",
                        "--mid-turn")
    assert browser.find_element(By.ID, "verdict").text == expected["verdict"]


def cli_json(*args: str) -> dict:
    return json.loads(CliRunner().invoke(cli, [*args, "--json"]).stdout)


def tap_dalek(driver, roll: list[str], kept: list[str]) -> None:
    tap(driver, '.mode-button[data-mode="kept"]')
    for face in kept:
        tap(driver, f'#dalek .face[data-face="{face}"]')
    tap(driver, '.mode-button[data-mode="roll"]')
    for face in roll:
        tap(driver, f'#dalek .face[data-face="{face}"]')


def overflow(driver) -> int:
    """Pixels the page is wider than the window (0: nothing to scroll sideways)."""
    return driver.execute_script(
        "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - window.innerWidth")


README_ROLL = ["H4", "H4", "H2", "D3", "D2", "DOC", "EXT"]  # README's best-move example
README_KEPT = ["H4", "H2", "D3"]


def test_a_race_position_is_answered_for_the_seat_chosen(server: str, browser) -> None:
    """README's race position, 30 against 42, for the player in seat 2 (scores 42,30): seat
    order matters in a race that completes the round, and the page answers that seat."""
    browser.set_window_size(*PHONE)
    browser.get(server)
    tap_dalek(browser, README_ROLL, README_KEPT)
    tap(browser, "#dalek details summary")
    browser.find_element(By.ID, "dalek-scores").send_keys("42,30")
    Select(browser.find_element(By.ID, "dalek-seat")).select_by_value("2")
    tap(browser, "#dalek-ask")
    rows = answer(browser, 600)  # the race to 60 is solved once (then cached), 1 to 2 min
    expected = cli_json("dalek", "best-move", "--roll", " ".join(README_ROLL), "--kept",
                        " ".join(README_KEPT), "--scores", "42,30", "--seat", "2")
    verdict = browser.find_element(By.ID, "verdict").text
    assert verdict == expected["verdict"]
    assert verdict.startswith("Keep D3 D2, then roll (win chance 57.6%")
    seat_1 = cli_json("dalek", "best-move", "--roll", " ".join(README_ROLL), "--kept",
                      " ".join(README_KEPT), "--scores", "30,42", "--seat", "1")
    assert seat_1["verdict"] != verdict  # the position where the seats disagree
    assert rows[0] == ["keep", "then", "win chance", "lost (% points)"]
    assert rows[1][:3] == ["D3 D2", "roll", f"{100 * expected['options'][0]['value']:.1f}%"]
    assert overflow(browser) <= 0


def test_keeping_nothing_reads_as_the_command_line_writes_it(server: str, browser) -> None:
    browser.set_window_size(*PHONE)
    browser.get(server)
    tap_dalek(browser, README_ROLL, README_KEPT)
    tap(browser, "#dalek-ask")
    rows = answer(browser)
    keeps = [row[0] for row in rows[1:]]
    assert "-" in keeps and "" not in keeps
    verdict = browser.find_element(By.ID, "verdict").text
    faces = [b.find_element(By.TAG_NAME, "b").text
             for b in browser.find_elements(By.CSS_SELECTOR, "#dalek .face")]
    assert "D3 D2" in verdict and {"D3", "D2"} <= set(faces)  # the buttons' names


def test_every_panel_fits_a_phone(server: str, browser) -> None:
    """No panel, asked its question, is wider than a 390 px screen."""
    browser.set_window_size(*PHONE)
    browser.get(server)
    tap_dalek(browser, README_ROLL, README_KEPT)
    tap(browser, "#dalek-ask")
    answer(browser)
    assert overflow(browser) <= 0
    ask_totd(browser)
    answer(browser)
    assert overflow(browser) <= 0
    tap(browser, '.tab[data-panel="strike"]')
    browser.find_element(By.ID, "strike-arena").send_keys("245")
    browser.find_element(By.ID, "strike-stocks").send_keys("3,6")
    tap(browser, "#strike-ask")
    answer(browser)
    assert overflow(browser) <= 0


TOTD_NEED = ["Science", "Science", "Cunning", "Tactics"]
TOTD_SHOWING = [("black", "Science"), ("black", "Cunning"), ("black", "Running"),
                ("blue", "Science")]


def ask_totd(driver) -> None:
    """A Time of the Daleks position tapped as a player sees it: the Challenge's symbols, each
    die's colour and face, a Sonic token and a re-roll icon."""
    tap(driver, '.tab[data-panel="totd"]')
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#totd-faces .face"))
    for symbol in TOTD_NEED:
        tap_text(driver, "#totd-faces .face", symbol)
    tap(driver, '#totd .mode-button[data-mode="showing"]')
    for colour, face in TOTD_SHOWING:
        tap_text(driver, "#totd-colours .colour", colour)
        tap_text(driver, "#totd-faces .face", face)
    Select(driver.find_element(By.ID, "totd-sonic")).select_by_value("1")
    Select(driver.find_element(By.ID, "totd-reroll-count")).select_by_value("2")
    Select(driver.find_element(By.ID, "totd-reroll-colour")).select_by_value("black")
    tap(driver, "#totd-reroll-add")
    tap(driver, "#totd-ask")


def tap_text(driver, selector: str, text: str) -> None:
    next(e for e in driver.find_elements(By.CSS_SELECTOR, selector) if e.text == text).click()


def test_time_of_the_daleks_as_a_player_taps_it(server: str, browser) -> None:
    browser.set_window_size(*PHONE)
    browser.get(server)
    ask_totd(browser)
    rows = answer(browser)
    expected = cli_json("totd", "best-move", "--need", ", ".join(TOTD_NEED), "--showing",
                        " ".join(f"{c}:{f}" for c, f in TOTD_SHOWING), "--sonic", "1",
                        "--reroll", "2 black")
    assert browser.find_element(By.ID, "verdict").text == expected["verdict"]
    assert rows[0] == ["chance", "do", "dice"]  # the chance first, in words
    assert rows[1][0] == f"{100 * expected['options'][0]['p_success']:.1f}%"
    # the pool and face changes are controls too: the chance before rolling. The command line's
    # answer is taken first: the server runs in a thread of this process and captures standard
    # output for its request, so a CliRunner running beside a request would swap it under it.
    chance = cli_json("totd", "chance", "--need", ", ".join(TOTD_NEED), "--pool", "black=4",
                      "--sonic", "1", "--reroll", "2 black", "--change", "green:Diplomacy")
    Select(browser.find_element(By.CSS_SELECTOR, '#totd-pool select[data-colour="black"]')
           ).select_by_value("4")
    Select(browser.find_element(By.ID, "totd-change-colour")).select_by_value("green")
    Select(browser.find_element(By.ID, "totd-change-face")).select_by_value("Diplomacy")
    tap(browser, "#totd-change-add")
    tap(browser, "#totd-chance")
    WebDriverWait(browser, 30).until(
        lambda d: d.find_element(By.ID, "verdict").text or d.find_element(By.ID, "error").text)
    assert browser.find_element(By.ID, "error").text == ""
    assert browser.find_element(By.ID, "verdict").text.startswith(
        f"{100 * chance['p_success']:.1f}% to meet the Challenge")


def test_errors_speak_the_pages_words_not_flags(browser) -> None:
    """What a player can get wrong on each panel, or ask beyond the server's budget, is
    answered without a command-line flag."""
    url, running, thread = start_server()
    browser.set_window_size(*PHONE)
    browser.get(url)
    messages = []
    for roll, kept in ((["H4"], []), ([], []), (["H4", "D3"], ["H4", "H4", "H4", "H4", "H4",
                                                                 "H4", "H4", "H4", "H4"])):
        tap(browser, "#dalek-clear")
        tap_dalek(browser, roll, kept)
        tap(browser, "#dalek-ask")
        messages.append(error_text(browser))
    tap(browser, '.tab[data-panel="strike"]')
    tap(browser, "#strike-ask")
    messages.append(error_text(browser))
    browser.find_element(By.ID, "strike-stocks").send_keys("6,6,6,6,6")  # over the budget
    tap(browser, "#strike-ask")
    messages.append(error_text(browser))
    tap(browser, '.tab[data-panel="totd"]')
    tap(browser, "#totd-ask")
    messages.append(error_text(browser))
    stop_server(running, thread)
    assert all(messages), messages
    assert "more than this server gives one answer" in messages[4]
    assert not [m for m in messages if "--" in m], messages


def error_text(driver) -> str:
    WebDriverWait(driver, 60).until(lambda d: d.find_element(By.ID, "error").text)
    return driver.find_element(By.ID, "error").text


def test_with_the_server_stopped_the_page_opens_and_says_so(browser) -> None:
    """Installable and offline: the manifest is linked, the service worker keeps the page's
    files, and once the server is gone the page still opens and says the server does not
    answer (the answers themselves always come from the server)."""
    url, running, thread = start_server()
    try:
        browser.set_window_size(*PHONE)
        browser.get(url)
        manifest = browser.execute_script(
            "return document.querySelector('link[rel=manifest]').href")
        assert manifest.endswith("/static/manifest.webmanifest")
        WebDriverWait(browser, 30).until(lambda d: d.execute_script(
            "return navigator.serviceWorker.controller !== null") or d.refresh())
        kept = browser.execute_async_script(
            "const done = arguments[0];"
            "caches.open('dice-solver-page').then(c => c.keys())"
            ".then(k => done(k.map(r => new URL(r.url).pathname)));")
        assert {"/", "/static/app.js", "/static/style.css"} <= set(kept)
    finally:
        stop_server(running, thread)
    browser.get(url)  # no server: the kept page
    assert browser.find_element(By.ID, "dalek-ask").is_displayed()
    tap_dalek(browser, README_ROLL, README_KEPT)
    tap(browser, "#dalek-ask")
    assert error_text(browser).startswith("The server does not answer")
    assert browser.find_element(By.ID, "verdict").text == ""
