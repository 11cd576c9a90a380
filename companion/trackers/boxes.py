"""Box track: a row (or rows) of boxes marked one by one; some flagged, e.g. critical hull boxes."""
from __future__ import annotations

from companion.errors import RuleError
from companion.said import Said, _, joined
from companion.trackers import need_int


def create(spec: dict, stats: dict) -> dict:
    count = stats[spec["count_stat"]] if "count_stat" in spec else spec["count"]
    return {"marked": [False] * count, "flagged": list(spec.get("flagged", [])),
            "flag_label": spec.get("flag_label", "critical"), "rows": spec.get("rows", 1)}


def _box(tracker: dict, args: dict) -> int:
    return need_int(args, "box", 0, len(tracker["marked"]) - 1)


def mark(tracker: dict, args: dict, clock) -> str:
    box = _box(tracker, args)
    if tracker["marked"][box]:
        raise RuleError(_("%(tracker)s box %(box)s is already marked.", tracker=tracker["label"], box=box + 1), "box")
    tracker["marked"][box] = True
    if box in tracker["flagged"]:  # (the flag's name is the game's: "critical")
        return Said("%(tracker)s box %(box)s marked (%(flag)s!)", tracker=tracker["label"], box=box + 1,
                    flag=tracker["flag_label"])
    return Said("%(tracker)s box %(box)s marked", tracker=tracker["label"], box=box + 1)


def unmark(tracker: dict, args: dict, clock) -> str:
    box = _box(tracker, args)
    if not tracker["marked"][box]:
        raise RuleError(_("%(tracker)s box %(box)s is not marked.", tracker=tracker["label"], box=box + 1), "box")
    tracker["marked"][box] = False
    return Said("%(tracker)s box %(box)s cleared", tracker=tracker["label"], box=box + 1)


def hit(tracker: dict, args: dict, clock) -> str:
    """Mark the next ``n`` free boxes in order; what does not fit is reported as overflow."""
    n = need_int(args, "n", 1, 1000)
    free = [i for i, m in enumerate(tracker["marked"]) if not m]
    if not free:
        raise RuleError(_("Every %(tracker)s box is already marked.", tracker=tracker["label"]), "n")
    taken = free[:n]
    for i in taken:
        tracker["marked"][i] = True
    flags = sum(1 for i in taken if i in tracker["flagged"])
    parts = [Said("%(tracker)s %(count)s marked (%(marked)s/%(boxes)s)", tracker=tracker["label"], count=len(taken),
                  marked=sum(tracker["marked"]), boxes=len(tracker["marked"]))]
    if flags:
        parts.append(f"{flags} {tracker['flag_label']}!")
    if n > len(taken):
        parts.append(Said("%(count)s more did not fit", count=n - len(taken)))
    return joined(", ", parts)


OPS = {"mark": mark, "unmark": unmark, "hit": hit}
