"""Measurements outside the test suite (Q-3): ``make bench`` (``bench.perf*``, the service's
speed and memory as ratios within one run) and ``make soak`` (``bench/soak.py``).

Run from the repository root: ``python -m bench.perf`` (see :mod:`bench.perf`). Nothing here is
collected by pytest; ``tests/api/test_q3_bench_smoke.py`` runs the benchmark at a tiny size.
"""
