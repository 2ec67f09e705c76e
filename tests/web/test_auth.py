"""Accounts: register, log in, log out, hashed passwords, CSRF, the login rate limit, redirects."""
from __future__ import annotations

import re

from sqlmodel import Session, select

from trainer.web.models import User

HX = {"HX-Request": "true"}


def _token(page_text: str) -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page_text)
    assert found, "the page has no CSRF token"
    return found.group(1)


def test_pages_and_fragments(client) -> None:
    for path, form_id in (("/auth/login", "login-form"), ("/auth/register", "register-form")):
        page = client.get(path)
        assert page.status_code == 200 and "<html" in page.text and f'id="{form_id}"' in page.text
        fragment = client.get(path, headers=HX)
        assert fragment.status_code == 200 and "<html" not in fragment.text
        assert fragment.text.lstrip().startswith("<form") and f'id="{form_id}"' in fragment.text
        assert 'method="post"' in fragment.text and "hx-post" in fragment.text


def test_register_logs_in_lands_on_the_start_page_and_stores_only_a_hash(app, client, accounts) -> None:
    response = accounts.register("alice", "correct horse")
    assert response.status_code == 303 and response.headers["Location"] == "/"
    start = client.get("/").text
    assert "alice" in start and 'id="start-drills"' in start
    with Session(app.extensions["jipai_engine"]) as session:
        user = session.exec(select(User)).one()
    assert user.username == "alice" and "correct horse" not in user.password_hash
    assert user.password_hash.startswith("pbkdf2:sha256:1000$")


def test_register_refusals_are_in_words(client, accounts) -> None:
    accounts.sign_up("alice")
    accounts.logout()
    taken = accounts.register("ALICE", "another password")
    assert taken.status_code == 422 and "这个用户名已被占用" in taken.text
    short = accounts.register("bob", "short")
    assert short.status_code == 422 and "bob" not in client.get("/").text.split("<main>")[0]
    differ = client.post("/auth/register", data={"username": "carol", "password": "long enough 1",
                                                 "confirm": "long enough 2"})
    assert differ.status_code == 422 and "两次输入的密码不一样" in differ.text


def test_login_logout(client, accounts) -> None:
    accounts.sign_up("alice")
    accounts.logout()
    assert client.get("/deals").status_code == 303
    wrong = accounts.login("alice", "wrong password")
    assert wrong.status_code == 422 and "用户名或密码不对" in wrong.text
    unknown = accounts.login("nobody", "correct horse")
    assert unknown.status_code == 422 and "用户名或密码不对" in unknown.text
    good = accounts.login("Alice", "correct horse")
    assert good.status_code == 303
    assert client.get("/deals").status_code == 200
    assert accounts.logout().status_code == 303
    assert client.get("/deals").status_code == 303


def test_assigning_g_user_signs_the_request_in(app, accounts) -> None:
    from flask import g

    from trainer.web.auth import current_user_id

    accounts.sign_up("alice")
    with Session(app.extensions["jipai_engine"]) as db:
        alice = db.exec(select(User)).one()
    with app.test_request_context():  # no session cookie: nobody signed in
        assert g.user is None and current_user_id() is None
        g.user = alice
        assert g.user is alice and current_user_id() == alice.id
        g.user = None
        assert g.user is None and current_user_id() is None


def test_login_with_htmx_answers_fragment_or_client_redirect(client, accounts) -> None:
    accounts.sign_up("alice")
    accounts.logout()
    wrong = client.post("/auth/login", data={"username": "alice", "password": "nope"}, headers=HX)
    assert wrong.status_code == 422 and "<html" not in wrong.text and "用户名或密码不对" in wrong.text
    good = client.post("/auth/login", data={"username": "alice", "password": "correct horse"}, headers=HX)
    assert good.status_code == 200 and good.headers["HX-Redirect"] == "/"


def test_login_required_sends_to_login_and_back(client, accounts) -> None:
    away = client.get("/deals/new")
    assert away.status_code == 303 and away.headers["Location"] == "/auth/login?next=/deals/new"
    login_page = client.get(away.headers["Location"])
    assert 'value="/deals/new"' in login_page.text
    accounts.sign_up("alice")
    accounts.logout()
    back = client.post("/auth/login", data={"username": "alice", "password": "correct horse", "next": "/deals/new"})
    assert back.headers["Location"] == "/deals/new"
    htmx = client.get("/deals", headers=HX)
    assert htmx.status_code == 200


def test_htmx_request_without_login_gets_a_client_redirect(client) -> None:
    response = client.get("/deals", headers=HX)
    assert response.status_code == 200 and response.headers["HX-Redirect"].startswith("/auth/login")


def test_next_never_leaves_the_site(client, accounts) -> None:
    accounts.sign_up("alice")
    accounts.logout()
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)"):
        response = client.post("/auth/login", data={"username": "alice", "password": "correct horse",
                                                    "next": target})
        assert response.headers["Location"] == "/", target
        accounts.logout()


def test_logout_is_a_post(alice) -> None:
    assert alice.get("/auth/logout").status_code == 405


def test_csrf_refuses_a_post_without_token(make_app) -> None:
    client = make_app(WTF_CSRF_ENABLED=True).test_client()
    refused = client.post("/auth/register", data={"username": "mallory", "password": "correct horse",
                                                  "confirm": "correct horse"})
    assert refused.status_code == 400
    assert "表单已过期" in refused.text and "Traceback" not in refused.text
    refused_htmx = client.post("/auth/login", data={"username": "a", "password": "b"}, headers=HX)
    assert refused_htmx.status_code == 400 and "<html" not in refused_htmx.text


def test_csrf_accepts_the_form_token_and_the_htmx_header(make_app) -> None:
    client = make_app(WTF_CSRF_ENABLED=True).test_client()
    page = client.get("/auth/register")
    token = _token(page.text)
    assert f'hx-headers:inherited=\'{{"X-CSRFToken": "{token}"}}\'' in page.text
    registered = client.post("/auth/register", data={"username": "alice", "password": "correct horse",
                                                     "confirm": "correct horse", "csrf_token": token})
    assert registered.status_code == 303
    token = _token(client.get("/deals/new").text)
    made = client.post("/deals/generate", data={"rules": "standard", "count": "1"},
                       headers={**HX, "X-CSRFToken": token})
    assert made.status_code == 200 and "1 局" in made.text
    assert client.post("/deals/generate", data={"rules": "standard", "count": "1"}, headers=HX).status_code == 400
    assert client.post("/auth/logout").status_code == 400


def test_every_post_form_carries_a_token(make_app) -> None:
    client = make_app(WTF_CSRF_ENABLED=True).test_client()
    token = _token(client.get("/auth/register").text)
    client.post("/auth/register", data={"username": "alice", "password": "correct horse", "confirm": "correct horse",
                                        "csrf_token": token})
    token = _token(client.get("/deals/new").text)  # signing in starts a new session, with a new token
    client.post("/deals/generate", data={"rules": "standard", "count": "1", "csrf_token": token})
    deal_id = re.search(r'/deals/([0-9a-f]{16})"', client.get("/deals?whose=mine").text).group(1)
    for path in ("/", "/auth/login", "/deals", "/deals/new", f"/deals/{deal_id}", "/account/password"):
        text = client.get(path).text
        forms = re.findall(r"<form[^>]*>.*?</form>", text, re.DOTALL)
        posts = [form for form in forms if 'method="post"' in form]
        assert posts, path
        assert all('name="csrf_token"' in form for form in posts), path


def test_login_attempts_are_rate_limited(make_app) -> None:
    client = make_app(RATELIMIT_ENABLED=True, LOGIN_RATE_LIMIT="3 per minute").test_client()
    for _ in range(3):
        assert client.post("/auth/login", data={"username": "x", "password": "y"}).status_code == 422
    limited = client.post("/auth/login", data={"username": "x", "password": "y"})
    assert limited.status_code == 429 and "尝试次数太多" in limited.text
    assert client.get("/auth/login").status_code == 200


def test_behind_a_proxy_the_limit_is_per_client(make_app) -> None:
    client = make_app(RATELIMIT_ENABLED=True, LOGIN_RATE_LIMIT="2 per minute", PROXY_FIX=1).test_client()
    for address in ("203.0.113.1", "203.0.113.2"):
        headers = {"X-Forwarded-For": address}
        for _ in range(2):
            assert client.post("/auth/login", data={"username": "x", "password": "y"},
                               headers=headers).status_code == 422
        assert client.post("/auth/login", data={"username": "x", "password": "y"},
                           headers=headers).status_code == 429
