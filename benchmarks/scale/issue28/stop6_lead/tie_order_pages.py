"""Issue 28, stop 6: the published full pages against today's engine, both event orders.

Senders computed inline change which of two same-nanosecond events runs first. This compares
the per-claim aqmlab values of `docs/reproduction/seedNNN.md` with fresh full runs
(`aqmlab reproduce ID --out DIR`) made with the development switch `AQMLAB_DEV_ACK_INLINE=0`
(the event order before stop 6) and with the default (inline senders):

- `--switch-off DIR`: every claim's value must be identical to the page's (the pages are what
  today's engine gives in the old order);
- `--inline DIR`: each claim whose value moved, its verdict before and after, and the largest
  move of its means in units of the seeds' standard deviation (sd = the larger 95 % half-width
  × √n / t(0.975, n − 1)).

Since stop 7 the pages are recorded from the `--inline` runs (`docs/reproduction.md`), so today
`--switch-off` compares against them and `--inline` finds nothing moved; `tie_order_pages.json`
is the comparison made against the pages of before.

    PYTHONPATH=python .venv/bin/python benchmarks/scale/issue28/stop6_lead/tie_order_pages.py \\
        --switch-off /tmp/rr_off --inline /tmp/rr --json benchmarks/scale/issue28/stop6_lead/tie_order_pages.json
"""

from __future__ import annotations

import argparse
import json
import math
import re
from pathlib import Path

from scipy import stats

ROOT = Path(__file__).resolve().parents[4]
PAGES = ROOT / "docs" / "reproduction"
MEAN = re.compile(
    r"(-?[0-9.]+(?:e[-+]?[0-9]+)?)(?:\s?[A-Za-z%/]+)?\s*± ([0-9.]+(?:e[-+]?[0-9]+)?) \(95 % CI of the mean; (\d+) seeds"
)


def page_values() -> dict[str, str]:
    """claim id → the page's aqmlab cell."""
    values = {}
    for page in sorted(PAGES.glob("seed*.md")):
        for section in page.read_text().split("\n### ")[1:]:
            section_id = section.split(":")[0].strip()
            for line in section.splitlines():
                if line.startswith("| `"):
                    cells = line.split(" | ")
                    values[f"{section_id}/{cells[0].strip('| `')}"] = cells[6] if len(cells) > 7 else cells[5]
    return values


def runs(directory: Path):
    for file in sorted(directory.glob("*/reproduction.json")):
        yield json.loads(file.read_text())


def largest_move(old: str, new: str) -> float | None:
    """The largest |mean change| over the cell's means, in seed standard deviations."""
    moves = []
    for (mean_old, half_old, n_old), (mean_new, half_new, _) in zip(MEAN.findall(old), MEAN.findall(new), strict=False):
        n = int(n_old)
        sd = max(float(half_old), float(half_new)) * math.sqrt(n) / float(stats.t.ppf(0.975, n - 1))
        change = abs(float(mean_new) - float(mean_old))
        moves.append(change / sd if sd > 0 else (0.0 if change == 0 else math.inf))
    return max(moves) if moves else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--switch-off", type=Path, required=True)
    parser.add_argument("--inline", type=Path, required=True)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    pages = page_values()
    published = json.loads((PAGES / "verdicts.json").read_text())["verdicts"]
    report: dict = {"switch_off": {"sections": [], "claims": 0, "identical": 0, "differ": []}, "inline": {}}
    for run in runs(args.switch_off):
        report["switch_off"]["sections"].append(run["id"])
        for claim in run["comparison"]:
            report["switch_off"]["claims"] += 1
            if pages.get(claim["id"], "").strip() == claim["aqmlab"].replace("|", "\\|").strip():
                report["switch_off"]["identical"] += 1
            else:
                report["switch_off"]["differ"].append(claim["id"])
    sections, compared, moved = [], 0, []
    for run in runs(args.inline):
        sections.append(run["id"])
        for claim in run["comparison"]:
            compared += 1
            old, new = pages.get(claim["id"], "").strip(), claim["aqmlab"].replace("|", "\\|").strip()
            if old == new:
                continue
            verdict = claim.get("verdict") or ("agrees" if claim["agrees"] else "differs")
            moved.append(
                {
                    "id": claim["id"],
                    "largest_move_sd": largest_move(old, new),
                    "verdict_page": published.get(claim["id"], {}).get("verdict"),
                    "verdict_inline": verdict,
                    "page": old,
                    "inline": new,
                }
            )
    moved.sort(key=lambda m: -(m["largest_move_sd"] or 0))
    sds = [m["largest_move_sd"] for m in moved if m["largest_move_sd"] is not None]
    report["inline"] = {
        "sections": sections,
        "claims": compared,
        "moved": len(moved),
        "moved_at_most_1_sd": sum(s <= 1 for s in sds),
        "moved_1_to_2_sd": sum(1 < s <= 2 for s in sds),
        "moved_over_2_sd": sum(s > 2 for s in sds),
        "verdicts_changed": [m["id"] for m in moved if m["verdict_page"] != m["verdict_inline"]],
        "claims_moved": moved,
    }
    off = report["switch_off"]
    sections_off = len(off["sections"])
    print(f"switch 0: {off['identical']} of {off['claims']} claims identical to the pages ({sections_off} sections)")
    inline = report["inline"]
    print(
        f"inline: {inline['moved']} of {inline['claims']} claims moved ({len(sections)} sections): "
        f"{inline['moved_at_most_1_sd']} by ≤ 1 sd, {inline['moved_1_to_2_sd']} by 1-2 sd, "
        f"{inline['moved_over_2_sd']} by > 2 sd; verdicts changed: {inline['verdicts_changed']}"
    )
    for m in moved:
        if m["verdict_page"] != m["verdict_inline"] or (m["largest_move_sd"] or 0) > 1:
            print(f"  {m['id']}: {m['verdict_page']} -> {m['verdict_inline']}, {m['largest_move_sd']:.2f} sd")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
