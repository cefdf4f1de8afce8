"""Blocks in blockIdx order (the devkit's determine-compute sync): notify_next_block, wait_pre_block.

The devkit's protocol (kernel_operator_determine_compute_sync_impl.h): ub_workspace[block_num * 8] holds the
round, 1 after InitDetermineComputeWorkspace (write it with `ub_workspace.set_value(block_num * 8, 1)` and give a
zeroed gm_workspace). wait_pre_block waits until every block before this one has notified this round;
notify_next_block tells the next block it may go (the last block resets the workspace) and counts the round up.
gm_workspace holds block_num * 8 int32, ub_workspace block_num * 8 + 8.
"""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core.checks import usage
from .block_sync import _workspaces


@usage("asc.notify_next_block(gm_workspace, ub_workspace)")
def notify_next_block(gm_workspace: Any, ub_workspace: Any) -> None:
    """`AscendC::NotifyNextBlock`: lets the next block (in blockIdx order) pass its wait_pre_block."""
    gm, ub = _workspaces("asc.notify_next_block", gm_workspace, ub_workspace)
    _b.current().create("asc.notify_next_block", [gm, ub])


@usage("asc.wait_pre_block(gm_workspace, ub_workspace)")
def wait_pre_block(gm_workspace: Any, ub_workspace: Any) -> None:
    """`AscendC::WaitPreBlock`: waits until every block with a lower blockIdx called notify_next_block this
    round."""
    gm, ub = _workspaces("asc.wait_pre_block", gm_workspace, ub_workspace)
    _b.current().create("asc.wait_pre_block", [gm, ub])
