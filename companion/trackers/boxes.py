"""Box track: a row (or rows) of boxes marked one by one; some flagged, e.g. critical hull boxes."""
from __future__ import annotations

from companion.errors import RuleError
from companion.trackers import need_int


def create(spec: dict, stats: dict) -> dict:
    count = stats[spec["count_stat"]] if "count_stat" in spec else spec["count"]
    return {"marked": [False] * count, "flagged": list(spec.get("flagged", [])),
            "flag_label": spec.get("flag_label", "critical"), "rows": spec.get("rows", 1)}


def _box(tracker: dict, args: dict) -> int:
    return need_int(args, "box", 0, len(tracker["marked"]) - 1)


def _flag(tracker: dict, box: int) -> str:
    return f" ({tracker['flag_label']}!)" if box in tracker["flagged"] else ""


def mark(tracker: dict, args: dict, clock) -> str:
    box = _box(tracker, args)
    if tracker["marked"][box]:
        raise RuleError(f"{tracker['label']} box {box + 1} is already marked.", "box")
    tracker["marked"][box] = True
    return f"{tracker['label']} box {box + 1} marked{_flag(tracker, box)}"


def unmark(tracker: dict, args: dict, clock) -> str:
    box = _box(tracker, args)
    if not tracker["marked"][box]:
        raise RuleError(f"{tracker['label']} box {box + 1} is not marked.", "box")
    tracker["marked"][box] = False
    return f"{tracker['label']} box {box + 1} cleared"


def hit(tracker: dict, args: dict, clock) -> str:
    """Mark the next ``n`` free boxes in order; what does not fit is reported as overflow."""
    n = need_int(args, "n", 1, 1000)
    free = [i for i, m in enumerate(tracker["marked"]) if not m]
    if not free:
        raise RuleError(f"Every {tracker['label']} box is already marked.", "n")
    taken = free[:n]
    for i in taken:
        tracker["marked"][i] = True
    flags = sum(1 for i in taken if i in tracker["flagged"])
    text = f"{tracker['label']} {len(taken)} marked ({sum(tracker['marked'])}/{len(tracker['marked'])})"
    if flags:
        text += f", {flags} {tracker['flag_label']}!"
    if n > len(taken):
        text += f", {n - len(taken)} more did not fit"
    return text


OPS = {"mark": mark, "unmark": unmark, "hit": hit}
