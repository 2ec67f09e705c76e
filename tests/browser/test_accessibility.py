"""The phone and assistive tech (issue 22, part 5), in Chromium at 390 × 844: a skip link to the main
content; every card on the page named for a screen reader (红桃Q); the polite live region saying each
play as it is revealed; the question scrolled into view when it comes (the table fills the screen
above it); the toggles drawn apart on and off; the L hint readable on the felt (≥ 4.5 : 1) and the
point-card and trump-card markers standing out from the card (≥ 3 : 1), computed in the page.

A run of the 数主 drill cut to the ends of its deal's first tricks (a few seconds of reveal).
"""
from __future__ import annotations

import re

from .browsing import CHROMIUM, CONTRAST, MARKERS, at_each_width
from .test_drill_flow import _short_run, require_chromium

PHONE = (("phone", 390),)
CARD_NAME = r"(?:(?:黑桃|红桃|梅花|方块)(?:10|[2-9JQKA])|大王|小王)"
SAID = re.compile(rf"^[^:]+: {CARD_NAME}(?:, {CARD_NAME})*$")
LISTEN = """document.addEventListener('DOMContentLoaded', () => {
  const region = document.getElementById('announcer');
  window.said = [];
  if (region) { new MutationObserver(() => window.said.push(region.textContent))
                  .observe(region, {childList: true, characterData: true, subtree: true}); }
})"""
"""Keeps every text the live region is given (`window.said`), from the page's start."""
IN_VIEW = """() => { const box = document.getElementById('answer-form').getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight + 1; }"""  # (+1: sub-pixel layout)


def test_a_run_on_a_phone_with_assistive_tech(live_app) -> None:
    require_chromium(CHROMIUM)
    base, app = live_app

    def walk(page: object, width: int) -> None:
        page.add_init_script(LISTEN)  # type: ignore[attr-defined]
        page.goto(f"{base}/drills")  # type: ignore[attr-defined]
        page.click("#drill-trumps button[type=submit]")  # type: ignore[attr-defined]
        page.wait_for_url(re.compile(r"/runs/\d+$"))  # type: ignore[attr-defined]
        first = _short_run(app, int(page.url.rsplit("/", 1)[1]))  # type: ignore[attr-defined]
        page.reload()  # type: ignore[attr-defined]
        page.keyboard.press("Tab")  # the first stop: the skip link, shown when focused  # type: ignore[attr-defined]
        skip = page.evaluate("() => { const a = document.activeElement, box = a.getBoundingClientRect();"
                             " return [a.className, a.getAttribute('href'), box.top >= 0 && box.height > 0]; }")  # type: ignore[attr-defined]
        assert skip == ["skip-link", "#main", True], skip
        assert page.locator("main#main").count() == 1  # type: ignore[attr-defined]
        sizes = page.locator("#sizes")  # type: ignore[attr-defined]
        pressed = sizes.get_attribute("aria-pressed")
        looks = [sizes.evaluate("b => [getComputedStyle(b).backgroundColor, getComputedStyle(b, '::before').content]")]
        sizes.click()
        assert sizes.get_attribute("aria-pressed") != pressed
        looks.append(sizes.evaluate("b => [getComputedStyle(b).backgroundColor, getComputedStyle(b, '::before').content]"))
        assert looks[0][0] != looks[1][0] and looks[0][1] != looks[1][1], looks  # filled and ticked, or outlined
        page.wait_for_selector("#answer-form")  # type: ignore[attr-defined]
        page.wait_for_function(IN_VIEW)  # the question scrolled into view, its options above the fold  # type: ignore[attr-defined]
        assert page.evaluate("window.scrollY") > 0  # type: ignore[attr-defined]
        said = page.evaluate("window.said")  # type: ignore[attr-defined]
        assert len(said) == first and all(SAID.match(text) for text in said), said
        assert page.get_attribute("#announcer", "aria-live") == "polite"  # type: ignore[attr-defined]
        names = page.evaluate("() => Array.from(document.querySelectorAll('.card'))"  # type: ignore[attr-defined]
                              ".map(c => [c.getAttribute('role'), c.getAttribute('aria-label')])")
        assert len(names) >= 25 and all(role == "img" and re.fullmatch(CARD_NAME, label or "") for role, label in names)
        name = names[0][1]
        assert page.get_by_role("img", name=name, exact=True).count() >= 1  # in the accessibility tree  # type: ignore[attr-defined]
        markers = page.evaluate(MARKERS)  # type: ignore[attr-defined]
        assert markers["points"] and markers["trumps"], markers
        assert min(markers["points"] + markers["trumps"]) >= 3, markers
        page.keyboard.press("1") if page.get_attribute("#answer-form", "data-kind") != "number" \
            else page.keyboard.type("99")  # type: ignore[attr-defined]
        page.keyboard.press("Enter")  # type: ignore[attr-defined]
        page.wait_for_selector(".panel.feedback")  # type: ignore[attr-defined]
        hint = page.evaluate(CONTRAST, "#last-trick summary kbd")  # type: ignore[attr-defined]
        assert len(hint) == 1 and hint[0] >= 4.5, hint

    at_each_width(base, "reader", walk, PHONE)
