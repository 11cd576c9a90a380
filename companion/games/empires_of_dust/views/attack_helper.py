"""Empires of Dust: the attack helper -- detection, effective armour, the D20 needed and the odds of
every hit, before rolling (rendered by the views).  Pure functions of the table state.
"""
from __future__ import annotations

import re

from companion.actions import check_phase, entered_flag
from companion.errors import RuleError
from companion.games.empires_of_dust import rules as eod
from companion.games.empires_of_dust.actions.attack import hit_odds, plan_attack
from companion.games.empires_of_dust.views.panel import eod_panel
from companion.said import N_, _

# Where a player would wonder how the app reads the seed, the preview says it (issue 9).
AUGMENTER_NOTES = {
    # seed 001, Scatter-Shot: "A pass on each roll deals damage at half of the base damage, rounding up"
    "scatter-shot": N_("%(augmenter)s (each passing roll: half the base damage, rounded up on its own)"),
}


def _units(state: dict) -> list[dict]:
    return [state["units"][u] for u in state["unit_order"]
            if not state["units"][u]["removed"] and "design" in state["units"][u]]


def attack_context(row: dict, args: dict, side: str | None = None) -> dict:
    state = row["state"]
    units = _units(state)
    attacker = state["units"].get(args.get("attacker")) if args.get("attacker") else None
    if attacker is None or attacker["removed"] or "design" not in attacker:
        own = [u for u in units if u["side"] == side]
        attacker = (own or units or [None])[0]
    weapons = [(i, w) for i, w in enumerate(attacker["design"]["weapons"]) if "drone" not in w] if attacker else []
    fitted = attacker["design"].get("equipment", []) if attacker else []
    args = dict(args)
    if attacker:
        args["attacker"] = attacker["id"]
        if weapons and str(args.get("weapon")) not in [str(i) for i, _ in weapons]:
            args["weapon"] = weapons[0][0]
        others = [u for u in units if u["id"] != attacker["id"]]
        if args.get("target") not in [u["id"] for u in others]:
            enemies = [u for u in others if u["side"] != attacker["side"]]
            args["target"] = (enemies or others or [{"id": None}])[0]["id"]
    return {"row": row, "state": state, "units": units, "attacker": attacker, "weapons": weapons,
            "fitted": fitted, "args": args, "roster": eod_panel(state)["roster"],
            "preview": preview(state, args)}


def _rolls_needed(plan: dict, hit: dict, odds: dict) -> list[str]:
    augs = set(plan["weapon"].get("augmenters", []))
    opts = hit["options"]
    out = []
    if opts["target_ecm"] and not opts["ally"]:
        out.append(_("ECM lock > %(n)s", n=eod._check_d20("ecm")))
    for aug, word in (("rending", "rending"), ("immolation", "immolation")):
        if aug in augs and not opts["ally"]:
            out.append(f"{word} > {eod._check_d20(aug)}")
    out.append(_("penetration > %(n)s", n=odds["needed"]))
    if "scatter-shot" in augs and not opts["ally"]:
        out.append(_("second scatter-shot penetration > %(n)s", n=odds["needed"]))
    for aug, word in (("critical-hit", "critical hit"), ("vampirism", "vampirism"), ("emp", "EMP")):
        if aug in augs and not opts["ally"]:
            out.append(_("%(roll)s (if it penetrates) > %(n)s", roll=word, n=eod._check_d20(aug)))
    return out


def preview(state: dict, args: dict) -> dict:
    """Detection, effective armour, the D20 needed and the odds of every hit, before rolling."""
    try:
        check_phase(state, "eod-attack")  # the attack's own phase, so the preview refuses as it would
        plan = plan_attack(state, args)
        hits = []
        for hit in plan["hits"]:
            odds = hit_odds(state, plan, hit)
            hits.append({"name": state["units"][hit["target"]]["name"], "position": hit["position"],
                         "shot": hit["shot"], "odds": odds, "ally": hit["ally"],
                         "rolls": _rolls_needed(plan, hit, odds), "target": hit["target"]})
        notes = []
        if "overloader" in plan["uses"] or entered_flag(args, "overloader", type_="eod-attack"):
            notes.append(_("Overloader: +%(n)s damage", n=eod.OVERLOADER_DAMAGE))
        if entered_flag(args, "assassins_touch", type_="eod-attack"):
            notes.append(_("Assassin's touch: +%(n)s penetration", n=eod.ASSASSINS_TOUCH_PENETRATION))
        if entered_flag(args, "fine_tuned", type_="eod-attack"):
            notes.append(_("Fine-tuned detector: +%(n)s detection", n=eod.FINE_TUNED_DETECTION))
        augs = plan["weapon"].get("augmenters", [])
        notes += [_(AUGMENTER_NOTES[a], augmenter=eod.augmenters()[a]["name"]) if a in AUGMENTER_NOTES
                  else eod.augmenters()[a]["name"] for a in augs if a in eod.augmenters()]
        aim = {**plan["aim"], "summary": eod.spoken(plan["aim"]["summary"])}
        return {"ok": True, "aim": aim, "hits": hits, "notes": notes,
                "base": state["settings"].get("detection_base", eod.DEFAULT_DETECTION_BASE),
                "expected": sum(h["odds"]["expected"] for h in hits)}
    except RuleError as exc:
        return {"ok": False, "message": players_words(exc.message), "field": exc.field}


SOURCE = re.compile(r" ?\(seed \d+(, [^()]*(\([^()]*\)[^()]*)*)?\)")


def players_words(message: str) -> str:
    """A rule's sentence as the preview shows it: without the rulebook citation the rules carry
    ("... (seed 001, Blast Damage, Transference)."), which players do not need on screen."""
    return SOURCE.sub("", message)
