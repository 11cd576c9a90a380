"""Odds before rolling, for the broadside and boarding tool forms (an htmx fragment in ``views``)."""
from __future__ import annotations

from companion.game_pages import read_as
from companion.games.dreadfleet import rules as df
from companion.games.dreadfleet.actions.broadsides import PREVIEWED, shot_options
from companion.games.dreadfleet.state import now_stat, wounds
from companion.said import _


def shot_preview(state: dict, args: dict) -> dict:
    """What a broadside would be, before rolling: odds of 0, 1, 2 ... Damage cards; hits of typed dice."""
    units = state["units"]
    firer, target = units.get(args.get("firer") or ""), units.get(args.get("target") or "")
    if not firer or not target:
        return {"message": _("Choose the firing ship and its target.")}
    args = read_as("df-broadside", PREVIEWED, args)  # as df-broadside reads them
    distance = args.get("distance")
    if distance is None:
        return {"message": _("Enter the range in inches (closest points of the bases).")}
    options = shot_options(state, args, firer, target)
    odds = df.broadside_odds(firer["stats"].get("broadside", 0), distance, target["stats"]["armour"], **options)
    out = {"odds": odds, "firer": firer, "target": target, "first": options["first_broadside"]}
    typed = args.get("dice")
    if typed:
        shot = df.broadside(firer["stats"].get("broadside", 0), distance, target["stats"]["armour"], **options,
                            dice=typed, save_dice=args.get("save_dice"))
        out["typed"] = shot
    return out


def boarding_preview(state: dict, args: dict) -> dict:
    picked = args.get("ships") if isinstance(args.get("ships"), dict) else {}
    ships = [state["units"][uid] for uid in picked if uid in state["units"]]
    first, second = state["sides"][:2]
    groups = [[u for u in ships if u["side"] == side] for side in (first, second)]
    if not all(groups):
        return {"message": _("Tick the ships in base contact, at least one of each side.")}

    def captains(group):
        return sum(u["stats"].get("swashbuckling", 0) for u in group
                   if u["template"] == "warship" and wounds(u) < df.MORTAL_WOUNDS)
    return {"sides": (first, second),
            "duel": df.contest_odds(captains(groups[0]), captains(groups[1])),
            "boarding": df.contest_odds(*(sum(now_stat(u, "crew") for u in g) for g in groups)),
            "crews": [sum(now_stat(u, "crew") for u in g) for g in groups],
            "swash": [captains(g) for g in groups]}
