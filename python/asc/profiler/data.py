"""The timing results of one launch as Python objects: the estimate, the
per-pipe table, bytes per memory path, per-line hotspots, and the
per-instruction records the trace and the HTML report draw."""

from __future__ import annotations

import csv
import io
import linecache
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

PIPES: Tuple[str, ...] = ("S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX")
PATHS: Tuple[str, ...] = ("", "GM->UB", "UB->GM", "UB->UB", "GM->S", "S->GM", "UB->S", "S->UB")
PATH_PIPES: Dict[str, str] = {"GM->UB": "MTE2", "UB->GM": "MTE3", "UB->UB": "V", "GM->S": "S", "S->GM": "S",
                              "UB->S": "S", "S->UB": "S"}
KINDS: Tuple[str, ...] = ("op", "set", "wait", "barrier", "scalar")

# AscTimingRecord (src/sim/timing.h)
RECORD_DTYPE = np.dtype([("start", "=i8"), ("end", "=i8"), ("done", "=i8"), ("issue", "=i8"), ("bytes", "=i8"),
                         ("site", "=i4"), ("flow", "=i4"), ("pipe", "u1"), ("kind", "u1"), ("path", "u1"),
                         ("pad", "V5")])


@dataclass
class BlockStats:
    """One block (one AI Core's run of the kernel)."""

    index: int
    cycles: int
    offset: int  # cycle at which the block starts in the launch (launch overhead, earlier waves)
    busy: Dict[str, int]
    stall: Dict[str, int]
    instrs: Dict[str, int]
    bytes: Dict[str, int]
    truncated: bool
    records: np.ndarray = field(repr=False)


@dataclass
class Site:
    """One instruction of the compiled kernel and what it cost, summed over blocks."""

    op: str
    api: str
    file: str
    line: int
    col: int
    pipe: str
    count: int
    scalar: int  # scalar-unit cycles (issuing it, or running it)
    busy: int  # cycles on its pipe (DMA: until the data is complete)
    stall: int  # cycles its pipe waited (wait_flag, deque, alloc_tensor)
    detail: str = ""  # the HardEvent of set_flag/wait_flag, the PipeID of pipe_barrier

    @property
    def cycles(self) -> int:
        """The work it cost: scalar and pipe cycles (a pipe's waiting is in `stall`)."""
        return self.scalar + self.busy


@dataclass
class Hotspot:
    """The estimated cycles of one line of the kernel's Python source."""

    file: str
    line: int
    source: str
    count: int
    scalar: int
    busy: int
    stall: int
    share: float  # of all attributed cycles
    apis: List[str]

    @property
    def cycles(self) -> int:
        """The work of the line: scalar-unit and pipe cycles. Waiting (`stall`: cycles a pipe
        spent in this line's wait_flag, deque or alloc_tensor) is reported apart: it
        overlaps other pipes' work."""
        return self.scalar + self.busy


def _api_name(op: str) -> str:
    from ..runtime.launcher import api_name

    return api_name(op)


class LaunchProfile:
    """The timing model's view of one kernel launch.

    `duration_us` is the estimate (the slowest core plus launch overhead);
    `pipe_table()`, `memory_table()`, `hotspots()` and `summary()` give the
    rest as plain Python data; `write(out_dir)` writes the Chrome trace,
    the CSV tables and the HTML report."""

    def __init__(self, raw: Dict[str, Any], kernel: str, platform: str, core_num: int):
        if raw["record_size"] != RECORD_DTYPE.itemsize:
            raise RuntimeError(f"timing record size {raw['record_size']} != {RECORD_DTYPE.itemsize}")
        self.kernel = kernel
        self.platform = platform
        self.core_num = core_num
        self.clock_ghz: float = raw["clock_ghz"]
        self.cores: int = raw["cores"]
        self.port_rate: float = raw["port_rate"]
        self.launch_overhead_cycles: int = raw["launch_overhead"]
        self.block_start_cycles: int = raw["block_start"]  # each block's start-up
        self.duration_cycles: int = raw["duration"]
        self.params: Dict[str, float] = dict(raw["params"])
        self.sites: List[Site] = []
        for op, file, line, col, pipe, count, scalar, busy, stall, detail in raw["sites"]:
            self.sites.append(Site(op or "", _api_name(op) if op else "", file, line, col,
                                   PIPES[pipe] if 0 <= pipe < len(PIPES) else "", count, scalar, busy, stall,
                                   detail))
        self.blocks: List[BlockStats] = []
        core_time = [self.launch_overhead_cycles] * max(self.cores, 1)
        for i, b in enumerate(raw["blocks"]):
            core = i % max(self.cores, 1)
            recs = np.frombuffer(b["records"], dtype=RECORD_DTYPE)
            self.blocks.append(BlockStats(
                index=i, cycles=b["cycles"], offset=core_time[core],
                busy=dict(zip(PIPES, b["busy"])), stall=dict(zip(PIPES, b["stall"])),
                instrs=dict(zip(PIPES, b["instrs"])),
                bytes={p: n for p, n in zip(PATHS, b["bytes"]) if p},
                truncated=bool(b["truncated"]), records=recs))
            core_time[core] += b["cycles"]

    # ---- units -----------------------------------------------------------------
    def us(self, cycles: float) -> float:
        """Cycles of this platform's clock in microseconds."""
        return float(cycles) / (self.clock_ghz * 1000.0)

    @property
    def duration_us(self) -> float:
        """The estimated duration of the launch (the slowest core plus launch overhead)."""
        return self.us(self.duration_cycles)

    @property
    def launch_overhead_us(self) -> float:
        return self.us(self.launch_overhead_cycles)

    @property
    def truncated(self) -> bool:
        """Some instruction records were dropped (the trace is incomplete; totals are exact)."""
        return any(b.truncated for b in self.blocks)

    def used_pipes(self) -> List[str]:
        return [p for p in PIPES if any(b.instrs[p] or b.busy[p] or b.stall[p] for b in self.blocks)]

    # ---- tables ------------------------------------------------------------------
    def summary(self) -> Dict[str, Any]:
        slowest = max(self.blocks, key=lambda b: b.cycles) if self.blocks else None
        return {
            "kernel": self.kernel, "platform": self.platform, "blocks": self.core_num, "cores": self.cores,
            "clock_ghz": self.clock_ghz, "estimated_duration_us": self.duration_us,
            "estimated_duration_cycles": self.duration_cycles, "launch_overhead_us": self.launch_overhead_us,
            "slowest_block": slowest.index if slowest else -1,
            "slowest_block_us": self.us(slowest.cycles) if slowest else 0.0,
            "gm_port_bytes_per_cycle": self.port_rate,
            "bytes": {p: sum(b.bytes.get(p, 0) for b in self.blocks) for p in PATHS if p},
            "truncated": self.truncated,
        }

    def pipe_table(self, per_block: bool = False) -> List[Dict[str, Any]]:
        """Per pipe: instructions, busy and stall cycles and utilisation (busy / block time).
        Block "all" sums instructions and averages busy and stall over blocks; `per_block`
        adds a row per block and pipe."""
        rows: List[Dict[str, Any]] = []
        pipes = self.used_pipes()
        total_cycles = sum(b.cycles for b in self.blocks) or 1
        n = max(len(self.blocks), 1)
        for p in pipes:
            busy = sum(b.busy[p] for b in self.blocks)
            stall = sum(b.stall[p] for b in self.blocks)
            rows.append({"block": "all", "pipe": p, "instructions": sum(b.instrs[p] for b in self.blocks),
                         "busy_cycles": busy / n, "busy_us": self.us(busy / n), "stall_cycles": stall / n,
                         "stall_us": self.us(stall / n), "utilisation": busy / total_cycles})
        if per_block:
            for b in self.blocks:
                for p in pipes:
                    rows.append({"block": b.index, "pipe": p, "instructions": b.instrs[p],
                                 "busy_cycles": b.busy[p], "busy_us": self.us(b.busy[p]),
                                 "stall_cycles": b.stall[p], "stall_us": self.us(b.stall[p]),
                                 "utilisation": b.busy[p] / b.cycles if b.cycles else 0.0})
        return rows

    def memory_table(self) -> List[Dict[str, Any]]:
        """Bytes moved per memory path, and the rate over the launch's estimated duration."""
        rows = []
        dur = self.duration_us
        for p in PATHS:
            if not p:
                continue
            total = sum(b.bytes.get(p, 0) for b in self.blocks)
            if total:
                rows.append({"path": p, "pipe": PATH_PIPES[p], "bytes": total,
                             "gb_per_s": total / (dur * 1e3) if dur > 0 else 0.0})
        return rows

    def hotspots(self, limit: Optional[int] = None) -> List[Hotspot]:
        """Estimated cycles per line of the kernel's Python source (scalar issue and
        execution, and pipe busy time of the line's instructions), costliest first; the
        stall of the line's waits is in Hotspot.stall."""
        lines: Dict[Tuple[str, int], Hotspot] = {}
        for s in self.sites:
            if not s.count or not s.file:
                continue
            h = lines.get((s.file, s.line))
            if h is None:
                h = Hotspot(s.file, s.line, linecache.getline(s.file, s.line).rstrip("\n"), 0, 0, 0, 0, 0.0, [])
                lines[(s.file, s.line)] = h
            h.count += s.count
            h.scalar += s.scalar
            h.busy += s.busy
            h.stall += s.stall
            if s.api and s.api not in h.apis:
                h.apis.append(s.api)
        total = sum(h.cycles for h in lines.values()) or 1
        for h in lines.values():
            h.share = h.cycles / total
        out = sorted(lines.values(), key=lambda h: (-h.cycles, -h.stall, h.file, h.line))
        return out[:limit] if limit else out

    # ---- outputs -------------------------------------------------------------------
    def table_csv(self) -> str:
        """The estimate, the pipe table (all blocks and per block) and bytes per path, one CSV."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["kind", "block", "name", "instructions", "cycles", "us", "stall_cycles", "utilisation",
                    "bytes", "gb_per_s"])
        w.writerow(["duration", "all", "estimated", "", self.duration_cycles, f"{self.duration_us:.4f}", "", "",
                    "", ""])
        w.writerow(["duration", "all", "launch_overhead", "", self.launch_overhead_cycles,
                    f"{self.launch_overhead_us:.4f}", "", "", "", ""])
        for b in self.blocks:
            w.writerow(["duration", b.index, "block", "", b.cycles, f"{self.us(b.cycles):.4f}", "", "", "", ""])
        for r in self.pipe_table(per_block=True):
            w.writerow(["pipe", r["block"], r["pipe"], r["instructions"], f"{r['busy_cycles']:.1f}",
                        f"{r['busy_us']:.4f}", f"{r['stall_cycles']:.1f}", f"{r['utilisation']:.4f}", "", ""])
        for r in self.memory_table():
            w.writerow(["path", "all", r["path"], "", "", "", "", "", r["bytes"], f"{r['gb_per_s']:.3f}"])
        return out.getvalue()

    def hotspots_csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["file", "line", "source", "apis", "count", "scalar_cycles", "pipe_cycles", "stall_cycles",
                    "total_cycles", "share"])
        for h in self.hotspots():
            w.writerow([h.file, h.line, h.source.strip(), " ".join(h.apis), h.count, h.scalar, h.busy, h.stall,
                        h.cycles, f"{h.share:.4f}"])
        return out.getvalue()

    def chrome_trace(self, max_blocks: Optional[int] = None) -> Dict[str, Any]:
        """The Chrome trace event JSON object (Perfetto, chrome://tracing)."""
        from .trace import chrome_trace

        return chrome_trace(self, max_blocks)

    def html(self) -> str:
        """A self-contained HTML report: timeline, pipe table, source lines shaded by cost."""
        from .report import html_report

        return html_report(self)

    def write_trace(self, path: str) -> str:
        import json

        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.chrome_trace(), f, separators=(",", ":"))
        return path

    def write_html(self, path: str) -> str:
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html())
        return path

    def write(self, out_dir: str, stem: Optional[str] = None) -> Dict[str, str]:
        """Writes <stem>.trace.json, <stem>.csv, <stem>.hotspots.csv and <stem>.html into out_dir."""
        os.makedirs(out_dir, exist_ok=True)
        stem = stem or self.kernel
        paths = {"trace": os.path.join(out_dir, stem + ".trace.json"), "csv": os.path.join(out_dir, stem + ".csv"),
                 "hotspots": os.path.join(out_dir, stem + ".hotspots.csv"),
                 "html": os.path.join(out_dir, stem + ".html")}
        self.write_trace(paths["trace"])
        with open(paths["csv"], "w", encoding="utf-8") as f:
            f.write(self.table_csv())
        with open(paths["hotspots"], "w", encoding="utf-8") as f:
            f.write(self.hotspots_csv())
        self.write_html(paths["html"])
        return paths

    def format(self, hotspots: int = 5) -> str:
        """A text summary: the estimate, the pipe table, bytes per path, the top lines."""
        lines = [f"{self.kernel} on {self.platform}: {self.core_num} blocks on {self.cores} cores, "
                 f"estimated {self.duration_us:.3f} us (launch overhead {self.launch_overhead_us:.3f} us)"]
        lines.append(f"  {'pipe':<6}{'instrs':>10}{'busy us':>12}{'stall us':>12}{'util':>8}")
        for r in self.pipe_table():
            lines.append(f"  {r['pipe']:<6}{r['instructions']:>10}{r['busy_us']:>12.3f}{r['stall_us']:>12.3f}"
                         f"{r['utilisation']:>8.1%}")
        for r in self.memory_table():
            lines.append(f"  {r['path']:<8} {r['bytes']:>14,} bytes  {r['gb_per_s']:9.1f} GB/s")
        for h in self.hotspots(hotspots):
            lines.append(f"  {os.path.basename(h.file)}:{h.line:<5} {h.share:6.1%}  {h.source.strip()[:60]}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"LaunchProfile({self.kernel!r}, {self.platform}, blocks={self.core_num}, "
                f"estimated={self.duration_us:.3f} us)")

    def __str__(self) -> str:
        return self.format()


def records_of(profile: LaunchProfile, blocks: Optional[Sequence[int]] = None) -> List[Tuple[int, np.ndarray]]:
    """(block index, records sorted by start) for the chosen blocks."""
    out = []
    for b in profile.blocks:
        if blocks is not None and b.index not in blocks:
            continue
        r = b.records
        if len(r):
            r = r[np.argsort(r["start"], kind="stable")]
        out.append((b.index, r))
    return out
