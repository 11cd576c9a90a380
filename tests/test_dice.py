"""Dice: notation with limits, every die reported, real dice, exact pool odds."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from companion import dice
from companion.errors import RuleError


def test_roll_reports_each_die_and_the_total():
    r = dice.roll("4d6kh3+2")
    assert len(r["dice"]) == 4 and sum(1 for d in r["dice"] if d["kept"]) == 3
    assert r["total"] == sum(d["value"] for d in r["dice"] if d["kept"]) + 2
    assert all(1 <= d["value"] <= 6 for d in r["dice"])


@pytest.mark.parametrize("expr, message", [("", "Enter a dice expression"), ("101d6", "At most 100 dice"),
                                           ("d1001", "2 to 1000 sides"), ("2d", "not dice notation"),
                                           ("1d6+" * 20, "at most 60 characters")])
def test_bad_expressions_get_a_reason(expr, message):
    with pytest.raises(RuleError, match=message):
        dice.roll(expr)


def test_real_dice_are_checked_one_by_one():
    assert dice.real_dice(6, ["5", 3]) == [5, 3]
    with pytest.raises(RuleError, match="from 1 to 6; got 7"):
        dice.real_dice(6, [7])


def brute_force(n, target, save):
    counts = {}
    for hits in itertools.product(range(1, 7), repeat=n):
        for saves in itertools.product(range(1, 7), repeat=n):
            k = sum(1 for h, s in zip(hits, saves) if h >= target and not (save and s >= save))
            counts[k] = counts.get(k, 0) + 1
    total = 36 ** n
    return {k: Fraction(v, total) for k, v in counts.items()}


@pytest.mark.parametrize("n, target, save", [(1, 4, None), (2, 5, 4), (3, 4, 6), (2, 2, 2)])
def test_pool_odds_match_brute_force(n, target, save):
    odds = dice.pool_odds(n, target, save)
    exact = brute_force(n, target, save)
    for k, p in odds["probabilities"]:
        assert p == pytest.approx(float(exact.get(k, 0)), abs=1e-12)
    assert sum(p for _, p in odds["probabilities"]) == pytest.approx(1)


def test_pool_roll_with_real_dice_counts_successes_and_saves():
    r = dice.pool_roll(4, 4, 5, rolled=[6, 4, 3, 1], saves_rolled=[5, 2])
    assert (r["successes"], r["saved"], r["unsaved"]) == (2, 1, 1)
    with pytest.raises(RuleError, match="exactly 2 save results"):
        dice.pool_roll(4, 4, 5, rolled=[6, 4, 3, 1], saves_rolled=[5])
