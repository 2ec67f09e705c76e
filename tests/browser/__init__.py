"""Browser tests: Debian's Chromium driven by Playwright against the app on one shared server."""
