#!/usr/bin/env python3
"""Drives OpenCapture Studio in headless Chromium as a new user would (WebDriver via Selenium):
loads the page, takes a photo, checks that the timeline fills with the five delegate stages in
Apple's order, that the photo reaches the gallery and opens, takes a bracket from a second tab (the
first shows it without a reload) and a depth photo, pages through the gallery two cards at a time,
checks there are no console errors, makes a capture fail, stops the server with SIGINT (it must exit cleanly) and checks the server's log has
one line for a refused request, the failed capture and the shutdown; saves screenshots of each
view at desktop and phone widths.

usage: studio-browser-test.py OPENCAPTURE_BINARY SCREENSHOT_FOLDER
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

STAGES = ["willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto", "didFinishCapture"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the studio did not listen on port {port}")


def fail(message):
    raise AssertionError(message)


def shoot(driver, mode, expected_cards, timeout=240, settle=0):
    driver.find_element(By.CSS_SELECTOR, f'#modes button[data-mode="{mode}"]').click()
    time.sleep(settle)
    started = time.time()
    driver.find_element(By.ID, "shutter").click()
    WebDriverWait(driver, timeout).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gallery .card")) >= expected_cards
        and "busy" not in d.find_element(By.ID, "shutter").get_attribute("class"))
    print(f"studio.shutter_to_gallery.{mode}: {time.time() - started:.2f} s")
    names = [e.get_attribute("data-name") for e in driver.find_elements(By.CSS_SELECTOR, "#timeline .stage:not(.step)")]
    seen = [n for n in names if n in STAGES]
    order = [STAGES.index(n) for n in seen]
    if not all(s in seen for s in STAGES):
        fail(f"{mode}: the timeline lacks stages: {names}")
    if order != sorted(order):
        fail(f"{mode}: stages out of order: {names}")
    return names


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    library = tempfile.mkdtemp(prefix="studio-library-")
    port = free_port()
    log = open(os.path.join(shots, "studio.log"), "w")
    server = subprocess.Popen([binary, "studio", "--port", str(port), "--library", library, "--preset", "photo"],
                              stdout=log, stderr=subprocess.STDOUT)
    driver = None
    try:
        wait_for_port(port)
        options = Options()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        url = f"http://127.0.0.1:{port}/"

        driver.set_window_size(1280, 900)
        driver.get(url)
        WebDriverWait(driver, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#modes button")) == 5)
        live = driver.find_element(By.CSS_SELECTOR, '#modes button[data-mode="livePhoto"]')
        if not live.is_enabled():
            fail("the Live Photo mode is not offered")
        # The live viewfinder: Motion JPEG from the camera's stream, and it changes (the camera moves, the pendulum swings).
        WebDriverWait(driver, 120).until(lambda d: d.execute_script(
            "const v = document.getElementById('live-view'); return v && v.complete && v.naturalWidth > 0;"))
        def viewfinder_pixels():
            return driver.execute_script("""
                const v = document.getElementById('live-view'), c = document.createElement('canvas');
                c.width = 48; c.height = 36; const g = c.getContext('2d'); g.drawImage(v, 0, 0, 48, 36);
                return Array.from(g.getImageData(0, 0, 48, 36).data);""")
        first = viewfinder_pixels()
        time.sleep(1.5)
        if viewfinder_pixels() == first:
            fail("the viewfinder does not move")
        driver.save_screenshot(os.path.join(shots, "desktop-1-camera.png"))
        # A request without the page's token is refused (and logged).
        try:
            urllib.request.urlopen(urllib.request.Request(url + "api/capture", data=b"{}", method="POST"))
            fail("a POST without the token was accepted")
        except urllib.error.HTTPError as error:
            if error.code != 403:
                fail(f"a POST without the token answered {error.code}")

        names = shoot(driver, "photo", 1)
        print("photo timeline:", " → ".join(names))
        driver.save_screenshot(os.path.join(shots, "desktop-2-timeline.png"))
        # The bracket from a second tab: the first one, which has a capture of its own, shows it without a reload
        # (and keeps its own timeline).
        first = driver.current_window_handle
        driver.switch_to.new_window("tab")
        driver.get(url)
        WebDriverWait(driver, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gallery .card")) == 1)
        shoot(driver, "bracket", 2)
        driver.save_screenshot(os.path.join(shots, "desktop-3-bracket.png"))
        driver.close()
        driver.switch_to.window(first)
        WebDriverWait(driver, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gallery .card")) == 2)
        if driver.find_elements(By.CSS_SELECTOR, '#timeline .stage[data-name="fusion"]'):
            fail("the first tab drew the second tab's timeline")
        shoot(driver, "depth", 3)

        # Open the newest (depth) capture, then the bracket with its before/after slider.
        cards = driver.find_elements(By.CSS_SELECTOR, "#gallery .card")
        cards[0].click()
        WebDriverWait(driver, 60).until(lambda d: not d.find_element(By.ID, "detail").get_attribute("hidden"))
        WebDriverWait(driver, 60).until(lambda d: all(i.get_attribute("complete") == "true" and int(i.get_attribute("naturalWidth")) > 0
                                                      for i in d.find_elements(By.CSS_SELECTOR, "#detail img")))
        if not any("depth.png" in i.get_attribute("src") for i in driver.find_elements(By.CSS_SELECTOR, "#detail img")):
            fail("the depth capture does not show its depth map")
        driver.find_element(By.ID, "render-portrait").click()
        # A safety net, not a speed check: the 12 MP portrait render takes ≈ 90 s on this 2-core machine.
        WebDriverWait(driver, 400).until(lambda d: any("portrait.jpg" in i.get_attribute("src") and i.get_attribute("complete") == "true"
                                                       and int(i.get_attribute("naturalWidth")) > 0
                                                       for i in d.find_elements(By.CSS_SELECTOR, "#detail img")))
        driver.save_screenshot(os.path.join(shots, "desktop-4-depth-detail.png"))
        driver.find_element(By.ID, "close").click()
        driver.find_elements(By.CSS_SELECTOR, "#gallery .card")[1].click()
        WebDriverWait(driver, 60).until(lambda d: len(d.find_elements(By.ID, "compare")) == 1)
        WebDriverWait(driver, 60).until(lambda d: all(i.get_attribute("complete") == "true" and int(i.get_attribute("naturalWidth")) > 0
                                                      for i in d.find_elements(By.CSS_SELECTOR, "#detail img")))
        driver.save_screenshot(os.path.join(shots, "desktop-5-bracket-detail.png"))
        driver.find_element(By.ID, "close").click()

        # A Live Photo: the timeline, then its movie plays in the detail view (Chromium decodes it).
        names = shoot(driver, "livePhoto", 4, settle=3)     # the camera streams once the mode is chosen: 1.5 s before the shutter
        for stage in ["didFinishRecordingLivePhotoMovie", "didFinishProcessingLivePhotoToMovieFile"]:
            if stage not in names:
                fail(f"livePhoto: the timeline lacks {stage}: {names}")
        driver.find_elements(By.CSS_SELECTOR, "#gallery .card")[0].click()
        WebDriverWait(driver, 60).until(lambda d: len(d.find_elements(By.ID, "live-video")) == 1)
        WebDriverWait(driver, 60).until(lambda d: d.execute_script(
            "const v = document.getElementById('live-video'); return v.readyState >= 1 && !v.error && v.duration > 2;"))
        ActionChains(driver).move_to_element(driver.find_element(By.ID, "live")).perform()
        WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.getElementById('live-video').currentTime > 0.2;"))
        driver.save_screenshot(os.path.join(shots, "desktop-6-live-photo.png"))
        driver.find_element(By.ID, "close").click()

        # The gallery in pages: two cards, then the next pages as "Show more" comes into view.
        driver.get(url + "?pageSize=2")
        WebDriverWait(driver, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gallery .card")) >= 2)
        driver.execute_script("document.getElementById('more').scrollIntoView()")
        WebDriverWait(driver, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gallery .card")) == 4
                                        and not d.find_element(By.ID, "more").is_displayed())
        if not driver.execute_script("return performance.getEntriesByType('resource').some(e => e.name.includes('/api/captures?limit=2&after='))"):
            fail("the gallery showed four cards without asking for a second page")

        driver.set_window_size(390, 844)
        driver.get(url)
        WebDriverWait(driver, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gallery .card")) == 4)
        driver.save_screenshot(os.path.join(shots, "phone-1-camera.png"))
        driver.find_elements(By.CSS_SELECTOR, "#gallery .card")[3].click()
        WebDriverWait(driver, 60).until(lambda d: not d.find_element(By.ID, "detail").get_attribute("hidden"))
        WebDriverWait(driver, 60).until(lambda d: all(i.get_attribute("complete") == "true" and int(i.get_attribute("naturalWidth")) > 0
                                                      for i in d.find_elements(By.CSS_SELECTOR, "#detail img")))
        driver.save_screenshot(os.path.join(shots, "phone-2-detail.png"))

        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        if errors:
            fail(f"console errors: {errors}")

        # A capture that cannot be saved (the library's file store replaced by a file): the page says why.
        driver.find_element(By.ID, "close").click()
        originals = os.path.join(library, "originals")
        shutil.rmtree(originals)
        open(originals, "w").close()
        driver.find_element(By.CSS_SELECTOR, '#modes button[data-mode="photo"]').click()
        driver.find_element(By.ID, "shutter").click()
        WebDriverWait(driver, 240).until(lambda d: d.find_element(By.ID, "toast").is_displayed()
                                         and "busy" not in d.find_element(By.ID, "shutter").get_attribute("class"))
        print("failed capture:", driver.find_element(By.ID, "toast").text)
    finally:
        if driver is not None:
            driver.quit()
        server.send_signal(signal.SIGINT)
        try:
            status = server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            fail("the studio did not stop on SIGINT")
        log.close()
    if status != 0:
        fail(f"the studio exited with status {status} on SIGINT")
    # One line each for the refused request, the failed capture and the shutdown.
    lines = open(os.path.join(shots, "studio.log")).read().splitlines()
    for what, needle in [("refused request", "403 POST /api/capture: missing or wrong studio token"),
                         ("failed capture", ") failed: "), ("shutdown", "[OpenCaptureStudio] stopped")]:
        if not any(needle in line for line in lines):
            fail(f"the server's log has no line for the {what} ({needle!r}): {lines}")
    print("studio browser test: passed; screenshots in", shots)


if __name__ == "__main__":
    main()
