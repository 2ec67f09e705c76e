"""The browser tests' common steps: Chromium launched by Playwright, a page at a desktop's width and at
a phone's, each with an account registered and signed in, Content-Security-Policy violations
collected (none may be reported), and the account logged out after the test's body."""
from __future__ import annotations

from collections.abc import Callable

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WIDTHS = (("desktop", 1280), ("phone", 390))


def at_each_width(base: str, prefix: str, body: Callable[[object, int], None]) -> None:
    """Run `body(page, width)` at each width, signed in as a new account `prefix-desktop` /
    `prefix-phone`; fail on any Content-Security-Policy violation."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for name, width in WIDTHS:
                page = browser.new_page(viewport={"width": width, "height": 844})
                page.set_default_timeout(60_000)
                # the favicon loads after each page and a walk may move on at once: answer it in the browser,
                # so that no request for it is cut short in the server (an unclosed-file warning there)
                page.route("**/favicon.svg", lambda route: route.fulfill(status=204, body=""))
                violations: list[str] = []
                page.on("console", lambda message, seen=violations: seen.append(message.text)
                        if "Content Security Policy" in message.text else None)
                page.add_init_script("document.addEventListener('securitypolicyviolation', event => "
                                     "console.error('Content Security Policy violation: ' + event.violatedDirective"
                                     " + ' ' + event.blockedURI))")
                page.goto(f"{base}/auth/register")
                page.fill("#username", f"{prefix}-{name}")
                page.fill("#password", "correct horse")
                page.fill("#confirm", "correct horse")
                page.click("button[type=submit]")
                page.wait_for_url(lambda url: "/auth/" not in url)  # signed in, on the start page
                body(page, width)
                page.click("header form.inline button.link >> nth=0")  # log out
                page.wait_for_url(f"{base}/")
                assert violations == [], violations
                page.close()
        finally:
            browser.close()
