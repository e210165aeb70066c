"""The one-factor assignment that gives a reproduction's flows the round-trip times seed 002 draws:
each of a flow's two edge links (sender and receiver side) takes a delay uniform over the same
range (Section V-A: "the delays of all other links being uniformly distributed between 1 and
20 ms"; Section V-F: user links "uniformly distributed between 0 ms and 10 ms"), so the RTT,
twice the sum of the core delay and the two edge delays, is triangular over the range aqmlab draws
uniformly. The triangle is approximated by 8 equal-width uniform pieces holding its mass per
piece, 1:3:5:7:7:5:3:1 of 32 (each half's counts rounded, the other half mirrored); every other
field of the group is kept.

    python benchmarks/ns2/referee/triangular_rtts.py seed002-fig2-5 lc-ered
    # → topology.groups=[...], the factor for aqmlab_factors.py (--runs lc-red,lc-ered)
"""

from __future__ import annotations

import argparse
import copy
import json
from typing import Any

from aqmlab.reproduce import REGISTRY
from aqmlab.units import seconds

#: The mass of a symmetric triangle in 8 equal-width pieces, in 32nds.
PIECE_WEIGHTS = (1, 3, 5, 7, 7, 5, 3, 1)


def triangular_groups(groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each group with a uniform `rtt` split into 8 pieces of the triangle on [low, high]."""
    out = []
    for group in groups:
        rtt = group.get("rtt")
        if not isinstance(rtt, dict) or rtt.get("kind", "uniform") != "uniform":
            out.append(copy.deepcopy(group))
            continue
        low, high = seconds(rtt["low"]), seconds(rtt["high"])
        half = [round(group["count"] * weight / 32) for weight in PIECE_WEIGHTS[:4]]
        counts = half + half[::-1]
        if sum(counts) != group["count"]:
            raise ValueError(f"group {group.get('name')!r}: count {group['count']} does not split as 1:3:5:7:7:5:3:1")
        width = (high - low) / len(counts)
        for index, count in enumerate(counts):
            piece = copy.deepcopy(group)
            piece["name"] = f"{group['name']}-{index + 1}"
            piece["count"] = count
            edges = (low + index * width, low + (index + 1) * width)
            piece["rtt"] = {"kind": "uniform", "low": f"{edges[0] * 1e3:g}ms", "high": f"{edges[1] * 1e3:g}ms"}
            out.append(piece)
    return out


def factor(reproduction_id: str, run_name: str) -> str:
    items = {item.name: item for item in REGISTRY[reproduction_id].runs(False)}
    if run_name not in items:
        raise ValueError(f"run: unknown run {run_name!r} of {reproduction_id}; allowed: {', '.join(items)}")
    groups = triangular_groups(items[run_name].scenario["topology"]["groups"])
    return "topology.groups=" + json.dumps(groups, separators=(",", ":"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reproduction")
    parser.add_argument("run", help="the run whose groups are split (the runs sharing them take the same factor)")
    args = parser.parse_args()
    if args.reproduction not in REGISTRY:
        parser.error(f"reproduction: unknown id {args.reproduction!r}")
    try:
        print(factor(args.reproduction, args.run))
    except ValueError as error:
        parser.error(str(error))


if __name__ == "__main__":
    main()
