"""Astral Action: game length and victory conditions (seed 004 L341-L349); the Resolution phase's
upkeep (L137-L138, L259) is the phase hook, ``phase``."""
from __future__ import annotations

from companion.actions import action, chance, entered_dice, needed
from companion.errors import RuleError
from companion.games.astral_action.rules import turn as tn
from companion.games.astral_action.rules import victory as vc
from companion.games.astral_action.state import SYSTEMS, game, roll, turn
from companion.said import Said, _, joined, kept
from companion.schema import Dice, Int, Ref, Text


@action("aa-end-roll", systems=SYSTEMS, chance=True, phase="Resolution", doing="The end-of-game roll",
        fields={"dice": Dice(6, 1)})
def aa_end_roll(state: dict, p: dict) -> str:
    """The end-of-turn d6 from turn 5 on: 4-6 ends the game (L342)."""
    g = game(state)
    if g["end"]:
        raise RuleError(_("The game already ended on turn %(turn)s.", turn=g["end"]["turn"]), "dice")
    rolled = turn(state).get("end_roll")
    if rolled:
        raise RuleError(_("The end-of-game roll for turn %(turn)s was already made (%(roll)s).", turn=state["round"],
                          roll=rolled), "dice")
    value = p["dice"][0]
    ends = tn.game_ends(state["round"], value)
    turn(state)["end_roll"] = value
    if ends:
        g["end"] = {"turn": state["round"], "roll": value}
    if ends:
        return Said("End of turn %(turn)s: d6 = %(roll)s: the game ends (4-6, L342)", turn=state["round"], roll=value)
    return Said("End of turn %(turn)s: d6 = %(roll)s: play on", turn=state["round"], roll=value)


@aa_end_roll.decider
def decide_aa_end_roll(state: dict, args: dict, ctx) -> dict:
    return {"dice": args.get("dice") or roll(ctx, 1)}


def scoring_ships(state: dict) -> list[dict]:
    out = []
    for uid, ship in game(state)["ships"].items():
        unit = state["units"][uid]
        if unit["template"] == "fighter":
            continue  # L233 "Unless the Scenario dictates otherwise, Fighters do not count as a Ship"
        out.append({"side": unit["side"], "size": ship["card"]["size"], "points": ship["card"]["points"]["total"],
                    "destroyed": ship["destroyed"],
                    "fled": ship.get("fled", False) or (unit["removed"] and not ship["destroyed"]),
                    "conditions": ship["conditions"]})
    return out


@action("aa-victory", systems=SYSTEMS, chance=True, fields={
    "count": Int(1, 2), "drawn": Dice(4, 2, "the Victory Conditions drawn (1 to 4), or empty to draw")})
def aa_victory(state: dict, p: dict) -> str:
    """Draw the victory conditions after the game and score those the app can count (L344-L349)."""
    count = needed(p, "count")
    drawn = vc.draw(p["drawn"], count)
    ships = scoring_ships(state)
    results, texts = [], []  # texts: each result's text as said (the state keeps its message: kept)
    for n, sub in zip(drawn, p["rolls"], strict=False):
        entry = {"number": n, "name": vc.VICTORY_CONDITIONS[n], "roll": sub}
        if n == 1:
            entry["areas"], entry["axis"] = sub[0], "X" if sub[1] <= 3 else "Y"
            text = Said("%(n)s equal area(s) along the %(axis)s axis: sum Ship Sizes per area (enter the winner)",
                        n=sub[0], axis=entry["axis"])
            entry["winner"] = None
        elif n in (2, 3):
            by = vc.SIZE_OR_POINTS[sub[0]]
            scores = (vc.scores_remaining if n == 2 else vc.scores_lost)(ships, state["sides"], by)
            entry["scores"], entry["winner"] = scores, vc.winner(scores, highest=(n == 2))
            listed = ", ".join(f"{s} {v:g}" for s, v in scores.items())
            text = (Said("by size (d6 %(roll)s): %(scores)s", roll=sub[0], scores=listed) if by == "size"
                    else Said("by points (d6 %(roll)s): %(scores)s", roll=sub[0], scores=listed))
        else:
            scores = vc.scores_conditions(ships, state["sides"])
            entry["scores"], entry["winner"] = scores, vc.winner(scores, highest=False)
            text = ", ".join(f"{s} {v}" for s, v in scores.items())
        entry["text"] = kept(text)  # kept in the state as its message: each reader's language (say)
        results.append(entry)
        texts.append(text)
    patrol = {s: 0 for s in state["sides"]}
    for uid, ship in game(state)["ships"].items():
        if ship.get("patrol") and not ship["destroyed"]:
            patrol[state["units"][uid]["side"]] += 1  # L353: tokens on ships that were not destroyed
    if any(patrol.values()):
        results.insert(0, {"number": 0, "name": "Patrol (scenario)", "scores": patrol,
                           "winner": vc.winner(patrol, highest=True),
                           "text": ", ".join(f"{s} {v}" for s, v in patrol.items())})
        texts.insert(0, results[0]["text"])
    game(state)["victory"] = {"drawn": drawn, "results": results, "verdict": kept(_verdict(state, results))}
    said = [_result(r, text) for r, text in zip(results, texts, strict=True)]
    return Said("Victory conditions: %(results)s", results=joined("; ", said))


def _result(r: dict, text: str) -> Said:
    """One victory condition's result as the label says it (its name and scores are plain values)."""
    if r.get("winner"):
        return Said("%(name)s: %(text)s → %(winner)s", name=r["name"], text=text, winner=r["winner"])
    if "scores" in r:
        return Said("%(name)s: %(text)s → tie", name=r["name"], text=text)
    return Said("%(name)s: %(text)s", name=r["name"], text=text)


def _verdict(state: dict, results: list[dict]) -> Said:
    """L349 over the conditions decided so far (an entered one counts once entered)."""
    if any("winner" in r and r["winner"] is None and "scores" not in r and not r.get("tie") for r in results):
        return Said("Enter the conditions the app cannot count (positions on the table).")
    wins = {s: 0 for s in state["sides"]}
    for r in results:
        if r.get("winner"):
            wins[r["winner"]] += 1
    return vc.verdict(wins)


@action("aa-victory-result", systems=SYSTEMS, fields={"winner": Ref("side"), "name": Text(60)})
def aa_victory_result(state: dict, p: dict) -> str:
    """Enter who won a condition the app cannot count (Area control, Contested Objective, L345, L356)."""
    v = game(state)["victory"]
    if not v:
        raise RuleError(_("Draw the victory conditions first."), "name")
    winner = p.get("winner")
    if winner not in state["sides"] and winner != "tie":
        raise RuleError(_("winner must be one of %(sides)s or tie.", sides=", ".join(state["sides"])), "winner")
    name = p.get("name")
    entry = next((r for r in v["results"] if r["name"] == name and "scores" not in r), None)
    if entry is None:
        if name != "Contested Objective (scenario)":
            raise RuleError(_("Enter a result only for Area control or the Contested Objective."), "name")
        entry = {"number": 0, "name": name, "text": kept(Said("ships within Ship Size x 2 of each objective (L356)"))}
        v["results"].insert(0, entry)
    entry["winner"], entry["tie"] = (None, True) if winner == "tie" else (winner, False)
    verdict = _verdict(state, v["results"])
    v["verdict"] = kept(verdict)  # kept in the state as its message: each reader's language (say)
    if winner == "tie":
        return Said("%(name)s: a tie. %(verdict)s", name=name, verdict=verdict)
    return Said("%(name)s: %(winner)s. %(verdict)s", name=name, winner=winner, verdict=verdict)


@aa_victory.decider
def decide_aa_victory(state: dict, args: dict, ctx) -> dict:
    count = args.get("count", 2)
    entered = entered_dice(args, "drawn", count=count)
    if entered:
        vc.draw(entered, count)
    drawn = entered or ctx.rng.sample(sorted(vc.VICTORY_CONDITIONS), count)
    # each drawn condition's own roll: area control 1-6 areas and the axis; 2 and 3 Size or Points
    rolls = [[ctx.rng.randint(1, 6), ctx.rng.randint(1, 6)] if n == 1 else [ctx.rng.randint(1, 6)] for n in drawn]
    return {"count": count, "drawn": drawn, "rolls": rolls}


@aa_end_roll.dice_check
def aa_end_roll_dice(state: dict, p: dict) -> None:
    """An imported aa-end-roll (issue 15): every die it records is a D6 (the seed rolls D6s)."""
    chance.every_die(p, 6)


@aa_victory.dice_check
def aa_victory_dice(state: dict, p: dict) -> None:
    """An imported Victory Conditions draw (issue 15): as many conditions as the count, each one of
    the four, and each condition's own D6 roll (two for area control)."""
    drawn = chance.dice(p["drawn"], 4, "conditions drawn", count=p["count"])
    rolls = chance.part(p, "rolls", list)
    chance.same(len(rolls), len(drawn), "number of condition rolls")
    for n, sub in zip(drawn, rolls, strict=False):
        chance.dice(sub, 6, "condition rolls", count=2 if n == 1 else 1)
