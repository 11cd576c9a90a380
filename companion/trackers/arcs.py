"""Arc shields: named arcs (Fore, Starboard, Aft, Port ...), each its own row of boxes."""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import Said, _
from companion.trackers import need_int


def create(spec: dict, stats: dict) -> dict:
    return {"arcs": [{"name": a["name"], "marked": [False] * a["boxes"]} for a in spec["arcs"]]}


def _arc(tracker: dict, args: dict) -> dict:
    return tracker["arcs"][need_int(args, "arc", 0, len(tracker["arcs"]) - 1)]


def mark(tracker: dict, args: dict, clock) -> str:
    arc = _arc(tracker, args)
    box = need_int(args, "box", 0, len(arc["marked"]) - 1)
    if arc["marked"][box]:
        raise RuleError(_("%(arc)s box %(box)s is already marked.", arc=arc["name"], box=box + 1), "box")
    arc["marked"][box] = True
    return Said("%(tracker)s %(arc)s box %(box)s marked", tracker=tracker["label"], arc=arc["name"], box=box + 1)


def unmark(tracker: dict, args: dict, clock) -> str:
    arc = _arc(tracker, args)
    box = need_int(args, "box", 0, len(arc["marked"]) - 1)
    if not arc["marked"][box]:
        raise RuleError(_("%(arc)s box %(box)s is not marked.", arc=arc["name"], box=box + 1), "box")
    arc["marked"][box] = False
    return Said("%(tracker)s %(arc)s box %(box)s restored", tracker=tracker["label"], arc=arc["name"], box=box + 1)


def hit(tracker: dict, args: dict, clock) -> str:
    """Damage to one arc: marks its free boxes; the rest is overflow (it goes on to the hull)."""
    arc = _arc(tracker, args)
    n = need_int(args, "n", 1, 1000)
    free = [i for i, m in enumerate(arc["marked"]) if not m]
    for i in free[:n]:
        arc["marked"][i] = True
    said = {"tracker": tracker["label"], "arc": arc["name"], "taken": min(n, len(free))}
    if n > len(free):
        return Said("%(tracker)s %(arc)s takes %(taken)s, %(overflow)s overflow", overflow=n - len(free), **said)
    return Said("%(tracker)s %(arc)s takes %(taken)s", **said)


OPS = {"mark": mark, "unmark": unmark, "hit": hit}
