"""The instruction pipeline chart as a Chrome trace event JSON object
(opens in Perfetto, https://ui.perfetto.dev, and chrome://tracing).

One process per block ("core"), one thread (track) per pipe; one complete
("X") slice per instruction, named by its API and Python line; each
set_flag → wait_flag pair (also the implicit ones of TQue enque → deque and
free_tensor → alloc_tensor) is a flow arrow. Times are microseconds, from
the launch's start (launch overhead first, then each core's blocks)."""

from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, List, Optional

import numpy as np

from .data import KINDS, PATHS, PIPES, LaunchProfile, records_of

# tracks top to bottom: the scalar unit, then the data flow of a vector core
TRACK_ORDER = ("S", "MTE2", "V", "MTE3", "MTE1", "M", "FIX")
CATEGORIES = {"op": "op", "scalar": "scalar", "set": "sync", "wait": "sync", "barrier": "sync"}


def slice_name(api: str, detail: str, file: str, line: int) -> str:
    what = f"{api} {detail}" if detail else api
    return f"{what} @ {os.path.basename(file)}:{line}" if file else what


def chrome_trace(p: LaunchProfile, max_blocks: Optional[int] = None) -> Dict[str, Any]:
    events: List[Dict[str, Any]] = []
    names = [slice_name(s.api or s.op, s.detail, s.file, s.line) for s in p.sites]
    lines = [f"{os.path.basename(s.file)}:{s.line}" if s.file else "" for s in p.sites]
    ghz = p.clock_ghz
    chosen = None if max_blocks is None else set(range(max_blocks))
    per_block = records_of(p, chosen)
    # flow ids present at both ends (records may have been truncated)
    ends: Dict[int, int] = {}
    for bi, r in per_block:
        for kind in (1, 2):  # set, wait
            for f in np.unique(r["flow"][(r["kind"] == kind) & (r["flow"] >= 0)]):
                key = (bi << 32) | int(f)
                ends[key] = ends.get(key, 0) | kind
    # the launch overhead, on a process of its own after the blocks
    lpid = len(p.blocks)
    events.append({"ph": "M", "name": "process_name", "pid": lpid, "tid": 0, "args": {"name": "launch"}})
    events.append({"ph": "M", "name": "process_sort_index", "pid": lpid, "tid": 0, "args": {"sort_index": -1}})
    events.append({"ph": "M", "name": "thread_name", "pid": lpid, "tid": 1, "args": {"name": "overhead"}})
    events.append({"ph": "X", "name": "launch overhead", "cat": "scalar", "pid": lpid, "tid": 1, "ts": 0,
                   "dur": math.floor(p.launch_overhead_cycles / ghz) / 1000,
                   "args": {"line": "", "cycles": p.launch_overhead_cycles, "start_cycle": 0, "issue_cycle": 0}})
    startup = p.block_start_cycles
    for bi, r in per_block:
        block = p.blocks[bi]
        if startup > 0:
            s0 = math.floor(block.offset / ghz)
            events.append({"ph": "X", "name": "block start-up", "cat": "scalar", "pid": bi, "tid": 1,
                           "ts": s0 / 1000, "dur": (math.floor((block.offset + startup) / ghz) - s0) / 1000,
                           "args": {"line": "", "cycles": startup, "start_cycle": 0, "issue_cycle": 0}})
        events.append({"ph": "M", "name": "process_name", "pid": bi, "tid": 0,
                       "args": {"name": f"block {bi} (core {bi % max(p.cores, 1)})"}})
        events.append({"ph": "M", "name": "process_sort_index", "pid": bi, "tid": 0, "args": {"sort_index": bi}})
        used = sorted(({int(x) for x in np.unique(r["pipe"])} if len(r) else set()) | ({0} if startup > 0 else set()),
                      key=lambda x: TRACK_ORDER.index(PIPES[x]) if x < len(PIPES) else 99)
        for order, pipe in enumerate(used):
            if pipe >= len(PIPES):
                continue
            events.append({"ph": "M", "name": "thread_name", "pid": bi, "tid": pipe + 1,
                           "args": {"name": PIPES[pipe]}})
            events.append({"ph": "M", "name": "thread_sort_index", "pid": bi, "tid": pipe + 1,
                           "args": {"sort_index": order}})
        if not len(r):
            continue
        # cycles → whole nanoseconds (monotonic, so nested slices stay nested)
        off = block.offset
        ns_start = np.floor((r["start"] + off) / ghz).astype(np.int64)
        ns_end = np.floor((r["end"] + off) / ghz).astype(np.int64)
        for i in range(len(r)):
            rec = r[i]
            kind = KINDS[rec["kind"]] if rec["kind"] < len(KINDS) else "op"
            site = int(rec["site"])
            pipe = int(rec["pipe"])
            ts = int(ns_start[i]) / 1000
            ev: Dict[str, Any] = {"ph": "X", "name": names[site] if 0 <= site < len(names) else kind,
                                  "cat": CATEGORIES[kind], "pid": bi, "tid": pipe + 1, "ts": ts,
                                  "dur": int(ns_end[i] - ns_start[i]) / 1000}
            args: Dict[str, Any] = {"line": lines[site] if 0 <= site < len(lines) else "",
                                    "cycles": int(rec["done"] - rec["start"]), "start_cycle": int(rec["start"]),
                                    "issue_cycle": int(rec["issue"])}
            if rec["bytes"]:
                args["bytes"] = int(rec["bytes"])
                args["path"] = PATHS[rec["path"]] if rec["path"] < len(PATHS) else ""
            if rec["done"] != rec["end"]:
                args["complete_us"] = round(p.us(int(rec["done"]) + off), 4)
            ev["args"] = args
            events.append(ev)
            flow = int(rec["flow"])
            if flow >= 0 and kind in ("set", "wait") and ends.get((bi << 32) | flow) == 3:
                fe = {"ph": "s" if kind == "set" else "f", "id": (bi << 32) | flow, "name": "flag", "cat": "sync",
                      "pid": bi, "tid": pipe + 1, "ts": ts}
                if kind == "wait":
                    fe["bp"] = "e"
                events.append(fe)
    return {
        "traceEvents": events,
        "displayTimeUnit": "ns",
        "otherData": {"generator": "pyasc timing model", "kernel": p.kernel, "platform": p.platform,
                      "blocks": p.core_num, "cores": p.cores, "clock_ghz": p.clock_ghz,
                      "estimated_duration_us": round(p.duration_us, 4),
                      "launch_overhead_us": round(p.launch_overhead_us, 4), "truncated": p.truncated},
    }


def trace_schema() -> Dict[str, Any]:
    """The JSON schema (draft 2020-12) of the traces chrome_trace writes."""
    path = os.path.join(os.path.dirname(__file__), "trace_schema.json")
    with open(path, encoding="utf-8") as f:
        return json.load(f)
