"""The log page and the battle report on long logs: the log comes a page at a time (newest first,
an "Older" link), and the report, which replays the whole log, is built once per change and view."""
from __future__ import annotations

import re

import pytest

from companion import play, report
from tests.test_hidden_information import SECRET, Phone


LOG_PAGE = 10  # a short page keeps the test quick; the app's own is companion.play.LOG_PAGE


@pytest.fixture(autouse=True)
def short_pages(monkeypatch):
    monkeypatch.setattr(play, "LOG_PAGE", LOG_PAGE)


@pytest.fixture
def long_table(table):
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    table.act(do="add-unit", name="Falcon", side="Red", hp=999)
    for _ in range(LOG_PAGE + 5):  # seqs 3 .. LOG_PAGE + 7
        table.act(do="adjust unit=u1 tracker=hp by=-1")
    return table


def seqs(page: str) -> list[int]:
    return [int(n) for n in re.findall(r"<small>#(\d+) ·", page)]


def test_the_log_comes_newest_first_a_page_at_a_time(long_table):
    last = LOG_PAGE + 7
    first = long_table.client.get(f"/t/{long_table.code}/log").data.decode()
    assert seqs(first) == list(range(last, last - LOG_PAGE, -1))
    older = re.search(r'href="([^"]+)" rel="next">Older', first).group(1).replace("&amp;", "&")
    assert older.endswith(f"before={last - LOG_PAGE + 1}")
    second = long_table.client.get(older).data.decode()
    assert seqs(second) == list(range(last - LOG_PAGE, 0, -1))  # the rest, down to the table's creation
    assert "rel=\"next\"" not in second and "Newest" in second


@pytest.mark.parametrize("before", ["x", "-3", "0", "999999999999"])
def test_a_strange_page_asked_for_is_the_newest_or_empty(long_table, before):
    resp = long_table.client.get(f"/t/{long_table.code}/log?before={before}")
    assert resp.status_code == 200


def test_an_older_page_never_shows_another_sides_sealed_order(app, table):
    table.create(seat="Anna", side="Red", sides="Red,Blue")
    table.act(do="add-unit", name="Falcon", side="Red", hp=999)
    table.act(do="seal unit=u1", text=SECRET, _control="seal-u1")
    for _ in range(LOG_PAGE + 5):
        table.act(do="adjust unit=u1 tracker=hp by=-1")
    player, _ = table.secrets()
    ben = Phone(app.test_client()).join(table.code, player, "Ben", "Blue")
    page = ben.client.get(f"/t/{table.code}/log?before=10").data.decode()
    assert "Anna</small> <span>sealed an order for Falcon" in page and SECRET not in page


def test_the_report_carries_each_phones_own_token_and_follows_a_change(app, long_table, monkeypatch):
    """The report is drawn for each phone (its page carries the phone's own token and seat); what it
    counts is built on from the totals kept for the undo chain (companion/report_cache.py), not by
    replaying the log: the totals' length grows by one per change, never from zero."""
    built = []
    real = report.finish
    monkeypatch.setattr(report, "finish", lambda state, totals, withdrawn: built.append(totals.length)
                        or real(state, totals, withdrawn))
    player, spectator = long_table.secrets()
    ada = Phone(app.test_client()).join(long_table.code, player, "Ada", "Red")
    sam = Phone(app.test_client()).join(long_table.code, spectator, "Sam")
    for phone in (long_table, ada, long_table, sam, sam):
        resp = phone.client.get(f"/t/{long_table.code}/report")
        assert resp.status_code == 200 and "Battle report" in resp.data.decode()
        token = re.search(r'"X-CSRF-Token": "([^"]+)"', resp.data.decode()).group(1)
        assert token == phone.csrf
    assert len(set(built)) == 1  # the same kept totals for every phone
    long_table.act(do="adjust unit=u1 tracker=hp by=-1")
    ada.client.get(f"/t/{long_table.code}/report")
    assert built[-1] == built[0] + 1  # a change: one more move counted on


def test_the_reports_timeline_is_the_newest_events_and_a_link_to_the_log(long_table, monkeypatch):
    monkeypatch.setattr(play, "REPORT_TIMELINE", 5)
    page = long_table.client.get(f"/t/{long_table.code}/report").data.decode()
    timeline = page.split("<h2>Timeline", 1)[1]
    assert f"({LOG_PAGE + 7} events)" in timeline and "The newest 5" in timeline
    assert timeline.count("<li") == 5 and f'href="/t/{long_table.code}/log"' in timeline
