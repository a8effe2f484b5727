"""``make bench``: the service's speed and memory as ratios within one run (SPEC Q-3, Q-4).

Run from the repository root: ``python -m bench.perf`` (see :mod:`bench.perf`). Nothing here is
collected by pytest; ``tests/api/test_bench_smoke.py`` runs the script at a tiny size.
"""
