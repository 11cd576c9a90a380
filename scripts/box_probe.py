"""The box's own speed during a load run (not a test): how long the disk takes to make a small write
durable, and how much CPU a fixed piece of work takes, measured by a process of its own beside the
server (scripts/load.py starts one for each run's measured window).

The same tree on this project's VM took 30-47 ms of CPU per phone-minute within two hours, and a
PostgreSQL run's worst moments were COMMITs of 100-300 ms (docs/performance.md, sessions 20 and 21).
A run's figures mean little without the box's own state beside them, so each run says:

- ``fsync``: every ``EVERY`` s, 4 KB appended to a file in the run's folder (the database's filesystem)
  and ``fdatasync``ed, timed: p50 / p99 / max, and each flush that took ``STALL_MS`` or more (its clock
  time, for setting beside the run's slow moments).  Every commit of the app waits for such a flush.
- ``cpu_unit_ms``: every second, one fixed piece of the app's kind of work (``unit``: a state decoded,
  changed and encoded), timed in this process's own CPU time: its median.  When the host gives the VM
  less, the same work costs more; the server's CPU per phone-minute in these units is the figure to
  compare between runs.  (Not against the unit on an idle box: this VM ran it in 5.2 ms when idle and
  3.3 ms a minute later under load, and 3.0 ms idle ten minutes on: an idle CPU is not the floor.)
- ``slow_seconds``: the seconds whose unit took ``SLOW`` times the run's fastest tenth or more: the
  host gave the VM less then (its median hides a few such seconds, and a few are enough to queue a
  busy server's phones for a second).

Run alone: python scripts/box_probe.py FOLDER SECONDS OUT.json
"""
from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time

EVERY = 0.02  # s between two flushes: 50 a second of 4 KB each (the app commits ~100 a second at 2,000 phones)
STALL_MS = 50.0  # a flush this slow holds every commit of the app for as long
SLOW = 1.5  # a second whose CPU unit took this many times the run's fastest tenth is a slow second
BLOCK = b"x" * 4096
KEEP_BYTES = 8 << 20  # the probe's file starts over at this size


# the unit's work: a table's state as the app handles it at every move (decoded, changed, encoded),
# ~44 KB of JSON (allocation and memory, not only the interpreter's loop)
_RNG = random.Random(1)
STATE = json.dumps({
    "units": {f"u{i}": {f"k{j}": (_RNG.random() if j % 3 else f"text {j} " * 3) for j in range(40)} for i in range(30)},
    "decks": {"fate": {"cards": [f"card {i}" for i in range(60)], "discard": []}},
    "log": [{"seq": i, "label": f"Anna: move {i}", "dice": [_RNG.randint(1, 6) for _ in range(8)]} for i in range(100)]})


def unit() -> float:
    """One fixed piece of work (3-5 ms on this VM): its CPU time in ms."""
    t = time.thread_time()
    for _ in range(3):
        state = json.loads(STATE)
        state["units"]["u1"]["k1"] = 0
        json.dumps(state)
    return (time.thread_time() - t) * 1000


def probe(folder: str, seconds: float) -> dict:
    """Flush and work for ``seconds``; the samples (see the module's text)."""
    path = os.path.join(folder, f"box-probe.{os.getpid()}")
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600)
    flushes: list[tuple[float, float]] = []
    units: list[float] = []
    try:
        end = time.monotonic() + seconds
        next_unit = time.monotonic()
        while time.monotonic() < end:
            os.write(fd, BLOCK)
            t = time.perf_counter()
            os.fdatasync(fd)
            flushes.append((round(time.time(), 3), round((time.perf_counter() - t) * 1000, 3)))
            if len(flushes) * len(BLOCK) % KEEP_BYTES == 0:
                os.ftruncate(fd, 0)
            if time.monotonic() >= next_unit:
                units.append(unit())
                next_unit += 1.0
            time.sleep(EVERY)
    finally:
        os.close(fd)
        os.unlink(path)
    return {"flushes": flushes, "units": units}


def summary(samples: dict) -> dict:
    """What a run reports of its probe: flush p50 / p99 / max ms, the stalls (clock time, ms), the
    unit's median CPU ms and the slow seconds (of how many)."""
    from load import pct  # (the load test's one percentile; load imports this module first)
    ms = sorted(m for _, m in samples["flushes"])
    units = sorted(samples["units"])
    cpu = statistics.median(units) if units else float("nan")
    floor = units[len(units) // 10] if units else float("nan")
    return {"fsync_p50": pct(ms, 50), "fsync_p99": pct(ms, 99), "fsync_max": ms[-1] if ms else float("nan"),
            "flushes": len(ms), "stalls": [(at, m) for at, m in samples["flushes"] if m >= STALL_MS],
            "cpu_unit_ms": cpu, "slow_seconds": sum(1 for u in units if u >= SLOW * floor), "seconds": len(units)}


def line(box: dict, cpu_ms_per_phone_min: float | None = None) -> str:
    """The box's state during a run, in words; with the server's CPU per phone-minute, that in units."""
    stalls = box["stalls"]
    ratio = f" (a phone-minute of the server's: {cpu_ms_per_phone_min / box['cpu_unit_ms']:.1f} units)" \
        if cpu_ms_per_phone_min else ""
    return (f"the box meanwhile: a 4 KB flush p50 {box['fsync_p50']:.1f} / p99 {box['fsync_p99']:.1f} / max "
            f"{box['fsync_max']:.0f} ms, {len(stalls)} of {box['flushes']} took {STALL_MS:.0f} ms or more"
            + (f" (at {', '.join(time.strftime('%H:%M:%S', time.localtime(at)) + f' {m:.0f} ms' for at, m in stalls[:8])}"
               + (" ...)" if len(stalls) > 8 else ")") if stalls else "")
            + f"; the CPU unit {box['cpu_unit_ms']:.2f} ms{ratio}, {SLOW}x slower or more in "
            f"{box.get('slow_seconds', 0)} of {box.get('seconds', 0)} seconds")


if __name__ == "__main__":  # (a host can check its database's disk the same way: docs/deploying.md)
    folder, seconds, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    samples = probe(folder, seconds)
    with open(out, "w") as f:
        json.dump(samples, f)
    print(line(summary(samples)).replace("the box meanwhile: ", ""))
