"""What the reproductions' figure functions share."""

from __future__ import annotations

from pathlib import Path


def saved(fig, out: Path, name: str, *, dpi: int = 110) -> list[str]:
    """Write `fig` as out/name, close it, and return [name] (a figure function's result)."""
    import matplotlib.pyplot as plt

    fig.savefig(Path(out) / name, dpi=dpi)
    plt.close(fig)
    return [name]
