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


def at_each_width(base: str, prefix: str, body: Callable[[object, int], None],
                  widths: tuple[tuple[str, int], ...] = WIDTHS) -> None:
    """Run `body(page, width)` at each of `widths` (a desktop's and a phone's by default), signed in as a
    new account `prefix-desktop` / `prefix-phone`; fail on any Content-Security-Policy violation."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for name, width in widths:
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


LUMINANCE = """const rgba = text => { const v = text.match(/[\\d.]+/g).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
const lum = c => { const [r, g, b] = c.map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
                   return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const ratio = (one, other) => { const [hi, lo] = [lum(one), lum(other)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
const backdrop = element => {  // the opaque colour under an element: its backgrounds and its ancestors' laid over white
  const layers = [];
  for (let node = element; node; node = node.parentElement) {
    const colour = rgba(getComputedStyle(node).backgroundColor);
    if (colour[3] > 0) { layers.push(colour); }
    if (colour[3] >= 1) { break; }
  }
  let back = [255, 255, 255];
  for (const [r, g, b, a] of layers.reverse()) { back = [r * a + back[0] * (1 - a), g * a + back[1] * (1 - a), b * a + back[2] * (1 - a)]; }
  return back;
};
const over = (fore, back) => [0, 1, 2].map(i => fore[i] * fore[3] + back[i] * (1 - fore[3]));"""
"""JavaScript helpers of the contrast scripts: colours as computed, the WCAG luminance and ratio, the backdrop."""

CONTRAST = f"""selector => {{ {LUMINANCE}
  return Array.from(document.querySelectorAll(selector)).map(element => {{
    const back = backdrop(element);
    return ratio(over(rgba(getComputedStyle(element).color), back), back);
  }});
}}"""
"""The computed contrast of the text of every element `selector` finds on what lies under it (WCAG)."""

MARKERS = f"""() => {{ {LUMINANCE}
  const cards = selector => Array.from(document.querySelectorAll(selector));
  const points = cards('.card.points:not(.joker-big):not(.joker-small)').map(card => {{
    const back = backdrop(card);
    return ratio(over(rgba(getComputedStyle(card).boxShadow.match(/rgba?\\([^)]*\\)/)[0]), back), back);
  }});
  const trumps = cards('.card.trump:not(.joker-big):not(.joker-small)').map(card => {{
    const back = backdrop(card);
    return ratio(over(rgba(getComputedStyle(card).borderTopColor), back), back);
  }});
  return {{points, trumps}};
}}"""
"""The computed contrast of the point-card bar and of the trump-card border against their card, per card."""
