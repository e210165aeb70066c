"""Tables of the ns-2 agreement matrix (agreement.json) for docs/validation-ns2.md.

    python benchmarks/ns2/report.py          # prints the tables (Markdown)
    python benchmarks/ns2/report.py --write  # replaces the generated part of the page

The page's hand-written text (causes, experiments) sits outside the markers
`<!-- ns2-tables:begin -->` / `<!-- ns2-tables:end -->`; only what is between them is rewritten.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PAGE = ROOT / "docs" / "validation-ns2.md"
BEGIN, END = "<!-- ns2-tables:begin -->", "<!-- ns2-tables:end -->"
SHOWN = [
    ("goodput_mbps", "goodput Mb/s", 1),
    ("utilisation", "util.", 3),
    ("queue_mean_packets", "queue mean", 1),
    ("queue_std_packets", "queue std", 1),
    ("loss_percent", "loss %", 3),
]
COUNTS = [
    ("timeouts_per_flow", "TO/flow"),
    ("retransmits_per_flow", "rexmit/flow"),
    ("reductions_per_flow", "cuts/flow"),
]


def fmt(value: float, digits: int) -> str:
    return "–" if not math.isfinite(value) else f"{value:.{digits}f}"


def pct(value: float) -> str:
    return "–" if not math.isfinite(value) else f"{value * 100:+.0f}%"


def tables(store: dict, title: str) -> str:
    rows = store["rows"]
    lines = [f"### {title}", ""]
    head = "| row | verdict | " + " | ".join(f"{label} aqmlab / ns-2 (Δ)" for _, label, _ in SHOWN)
    lines += [head + " |", "|" + "---|" * (len(SHOWN) + 2)]
    agree = 0
    for name, row in rows.items():
        a, n, d = row["aqmlab"], row["ns2"], row["relative_difference"]
        verdict = "agrees" if not row["disagreements"] else "**differs**: " + ", ".join(row["disagreements"])
        agree += not row["disagreements"]
        cells = [f"{fmt(a[k], p)} / {fmt(n[k], p)} ({pct(d[k])})" for k, _, p in SHOWN]
        lines.append(f"| {name} | {verdict} | " + " | ".join(cells) + " |")
    lines += ["", f"{agree} of {len(rows)} rows agree within the thresholds.", ""]
    lines += ["Per-flow loss-recovery counts (whole run, mean over flows and seeds), aqmlab / ns-2:", ""]
    lines += ["| row | " + " | ".join(label for _, label in COUNTS) + " | ECN marks % |", "|" + "---|" * 5]
    for name, row in rows.items():
        a, n = row["aqmlab"], row["ns2"]
        cells = [f"{fmt(a[k], 1)} / {fmt(n[k], 1)}" for k, _ in COUNTS]
        marks = f"{fmt(a['mark_percent'], 3)} / {fmt(n['mark_percent'], 3)}"
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {marks} |")
    meta = store.get("meta", {})
    lines += [
        "",
        f"Command: `{meta.get('command', '?')}`; machine: {meta.get('machine', {}).get('cpu', '?')}, "
        f"{meta.get('machine', {}).get('cores', '?')} cores.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    parts = []
    for path, title in (
        (HERE / "agreement.json", "The matrix"),
        (HERE / "experiments.json", "One-factor experiments (rows that differ, one setting changed)"),
        (HERE / "agreement-quick.json", "Quick rows (make validate-ns2-quick)"),
    ):
        if path.is_file():
            parts.append(tables(json.loads(path.read_text()), title))
    text = "\n".join(parts)
    if not args.write:
        print(text)
        return
    page = PAGE.read_text()
    if BEGIN not in page or END not in page:
        sys.exit(f"{PAGE}: markers {BEGIN} / {END} missing")
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    PAGE.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}")


if __name__ == "__main__":
    main()
