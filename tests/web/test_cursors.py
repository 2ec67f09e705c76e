"""Where a run's cursor is stored: at a checkpoint when its question is shown (with the showing
time), kept there when it is answered, at every play only for a browser without JavaScript; a run
resumes at its last stored point, in this process or another; a stale page moves nothing."""
from __future__ import annotations

from .drilling import HX, attempts, expected_question, form_values, run_row, start


def _answer_first(client, app, run_id: int) -> tuple[int, int]:
    """Reach and answer the run's first checkpoint as drill.js does; the first two checkpoints."""
    first, second = run_row(app, run_id).checkpoints[:2]
    client.post(f"/runs/{run_id}/step?at=0&to={first}", headers=HX)
    question, _position = expected_question(app, run_row(app, run_id), 0)
    client.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": form_values(question.answer)}, headers=HX)
    return first, second


def test_revealing_writes_nothing_and_the_question_stores_the_cursor(app, alice) -> None:
    run_id = start(alice, "trumps")
    first = run_row(app, run_id).checkpoints[0]
    for headers in (HX, {}):
        alice.get(f"/runs/{run_id}", headers=headers)
    assert run_row(app, run_id).cursor == 0 and run_row(app, run_id).shown_at is None
    alice.post(f"/runs/{run_id}/step?at=0&to={first}", headers=HX)
    reached = run_row(app, run_id)
    assert reached.cursor == first and reached.shown_at is not None
    question, _position = expected_question(app, reached, 0)
    alice.post(f"/runs/{run_id}/answer", data={"checkpoint": 0, "answer": form_values(question.answer)}, headers=HX)
    answered = run_row(app, run_id)
    assert answered.cursor == first and answered.shown_at == reached.shown_at and len(attempts(app, run_id)) == 1


def test_a_run_resumes_at_its_last_stored_point_in_another_process(make_app, app, alice) -> None:
    run_id = start(alice, "trumps")
    first, second = _answer_first(alice, app, run_id)
    other = make_app()
    client = other.test_client()
    assert client.post("/auth/login", data={"username": "alice", "password": "correct horse"}).status_code == 303
    for headers in (HX, {}):
        page = client.get(f"/runs/{run_id}", headers=headers).text
        assert 'class="verdict"' in page and f'step?at={first}&amp;to={second}"' in page
    client.post(f"/runs/{run_id}/step?at={first}&to={second}", headers=HX)
    assert run_row(app, run_id).cursor == second


def test_a_stale_page_or_a_second_tab_moves_nothing(app, alice) -> None:
    run_id = start(alice, "trumps")
    first = run_row(app, run_id).checkpoints[0]
    alice.post(f"/runs/{run_id}/step", data={"at": 0})  # without JavaScript: one play, stored
    assert run_row(app, run_id).cursor == 1
    stale = alice.post(f"/runs/{run_id}/step?at=0&to={first}", headers=HX)  # a tab still at play 0
    assert stale.status_code == 200 and run_row(app, run_id).cursor == 1 and run_row(app, run_id).shown_at is None
    alice.post(f"/runs/{run_id}/step?at=1&to={first}", headers=HX)
    shown = run_row(app, run_id).shown_at
    again = alice.post(f"/runs/{run_id}/step?at=1&to={first}", headers=HX)  # the same reach from a second tab
    assert 'id="answer-form"' in again.text and run_row(app, run_id).shown_at == shown
