"""Helpers of the ``trainruns serve`` tests: a real server process and a real browser.

The server is the installed command (``python -m trainruns serve ... --port 0``), read
for the address it prints. The browser is Debian's Chromium driven through selenium with
Debian's chromedriver: never a downloaded browser.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from urllib.parse import urlparse

import httpx

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ADDRESS = re.compile(r"open (http://\S+)")
os.environ.setdefault("SE_AVOID_STATS", "true")  # selenium: no usage report


class Server:
    """``trainruns serve ARGS --port 0`` in a child process; ``url`` is what it printed."""

    def __init__(self, *args, startup=120):
        self.proc = subprocess.Popen([sys.executable, "-m", "trainruns", "serve", *map(str, args), "--port", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = ADDRESS.search(line)
        if not m:
            self.stop()
            raise RuntimeError(f"serve printed {line!r}; stderr: {self.proc.stderr.read()[:2000]}")
        self.url = m.group(1)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Table:
    """One ``trainruns serve --games FOLDER`` for a test module: each test starts or loads
    its game there (from the page or by HTTP), so the server starts once per module."""

    def __init__(self, folder):
        self.folder = folder
        self.server = Server("--games", folder)

    @property
    def url(self):
        return self.server.url

    def post(self, path, body, status=200):
        r = httpx.post(self.url + path, json=body, timeout=180)
        assert r.status_code == status, r.text
        return r.json()

    def state(self):
        return httpx.get(self.url + "api/state", timeout=180).json()

    def load(self, name, game):
        """Save ``game``'s log as ``name`` in the folder and open it; the version the page
        will show."""
        (self.folder / f"{name}.json").write_text(json.dumps(game.log()))
        self.post("api/games/load", {"name": f"{name}.json"})
        return self.state()["version"]

    def log(self, name):
        return json.loads((self.folder / f"{name}.json").read_text())

    def restart(self, log):
        """SIGKILL (no chance to save anything more), then ``trainruns serve LOG`` on the
        same port, as a player starts it again (the old socket may linger a moment)."""
        port = str(urlparse(self.url).port)
        self.server.proc.kill()
        self.server.proc.wait()
        proc = line = None
        for _ in range(40):
            proc = subprocess.Popen([sys.executable, "-m", "trainruns", "serve", str(log), "--games", str(self.folder),
                                     "--port", port], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            line = proc.stdout.readline()
            if ADDRESS.search(line):
                break
            proc.wait()
            time.sleep(0.25)
        self.server.proc = proc
        assert ADDRESS.search(line).group(1) == self.url

    def stop(self):
        self.server.stop()


def browser_missing():
    """Why the browser tests cannot run here, or None."""
    if not os.path.exists(CHROMIUM) or not os.path.exists(CHROMEDRIVER):
        return f"needs Debian's chromium and chromium-driver ({CHROMIUM}, {CHROMEDRIVER}); .ci/run installs them"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "needs selenium (pip install -e '.[test]')"
    return None


def chromium(width=1500, height=1000):
    """A headless Chromium with a fresh profile, flags for running as root offline."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="trainruns-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(120)
    driver.trainruns_profile = profile
    return driver


def close(driver):
    profile = getattr(driver, "trainruns_profile", None)
    driver.quit()
    if profile:
        shutil.rmtree(profile, ignore_errors=True)


def page_version(d):
    """The game version the page shows (its body's ``data-version``; 0 before any)."""
    return int(d.find_element("tag name", "body").get_attribute("data-version") or 0)


def page_report(d):
    """What a page shows, for a failure's message: its version, its controls, the errors
    its scripts logged."""
    controls = d.execute_script("const c = document.getElementById('controls');"
                                "return c ? [...c.querySelectorAll('[id]')].map((e) => e.id) : null")
    try:
        errors = [e["message"] for e in d.get_log("browser") if e.get("level") == "SEVERE"]
    except Exception:  # a driver without the log
        errors = "(no browser log)"
    words = d.execute_script("const c = document.getElementById('controls'), t = document.getElementById('toast');"
                             "return [c && c.innerText.slice(0, 300), t && !t.hidden && t.innerText.slice(0, 300)]")
    return f"version {page_version(d)}, controls {controls} {words[0]!r}, message {words[1]!r}, script errors {errors}"


def open_game(d, table, version, map_drawn=False):
    """Open the table's page and wait for its game at ``version`` (and, with
    ``map_drawn``, its map of that version)."""
    d.get(table.url)
    wait_for(d, lambda d: page_version(d) == version and d.find_elements("css selector", "body.game")
             and (not map_drawn or d.find_element("id", "map").get_attribute("data-version") == str(version)),
             what="the game")


def wait_for(driver, condition, timeout=180, what="the page"):
    """Wait (generously: a busy machine compiles and solves) until ``condition(driver)``
    is truthy; return its value."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(condition, f"waiting for {what}")


def text_of(driver, element_id):
    return driver.find_element("id", element_id).text


def click_hex(driver, hex_id, tries=20):
    """Click a hex of the map as a player does (its polygon in the SVG). The map is
    redrawn when a solve ends, so a click that found the old drawing is tried again."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.action_chains import ActionChains

    for attempt in range(tries):
        try:
            el = driver.find_element("css selector", f'#map g[id="hex-{hex_id}"] path')
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
            ActionChains(driver).move_to_element(el).click().perform()
            return
        except (StaleElementReferenceException, NoSuchElementException):
            if attempt == tries - 1:
                raise
            time.sleep(0.25)


def finished(client, job, timeout=180):
    """Poll a job (``/api/job/ID``) until it ends, generously (the machine may be busy);
    return it with its result."""
    t_end = time.monotonic() + timeout
    job = client.get(f"/api/job/{job['id']}").json()
    while job["status"] in ("queued", "running"):
        assert time.monotonic() < t_end, f"job {job['id']} still {job['status']}"
        time.sleep(0.1)
        job = client.get(f"/api/job/{job['id']}").json()
    return job
