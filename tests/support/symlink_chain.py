"""A folder reached through a chain of symlinks: the kernel follows 40 (Linux's MAXSYMLINKS)
and answers ELOOP beyond, where ``os.path.realpath`` follows any number (K-1)."""

from __future__ import annotations

from pathlib import Path


def chain_of_links(tmp: Path, links: int) -> str:
    """A folder ``tmp/real`` reached through ``links`` symlinks, each naming the one before
    (absolute); the last link's path."""
    (tmp / "real").mkdir(parents=True)
    previous = tmp / "real"
    for number in range(links):
        link = tmp / f"link-{number}"
        link.symlink_to(previous)
        previous = link
    return str(previous)
