"""T-3, T-5b: a ``[[link]]`` commented out or holding a web address names no memory.

A body that keeps a retired link as an HTML comment (``<!-- see [[old-runbook]] -->``) or
wraps an address in wiki brackets (``[[https://wiki.example.com/runbook]]``) got a
``dangling-wiki-link`` warning for each, as if a memory were missing.
"""

from __future__ import annotations

from memory_core.lint import lint_scope
from memory_core.topics import extract_links, parse_topic

BODY = """On-call runbook for the shop API.
<!-- see [[old-runbook]] for the pre-2026 steps -->
Escalation: [[escalation-policy]], wiki page [[https://wiki.example.com/runbook|runbook]].
Dashboards: [[grafana-dashboards]] <!-- and [[kibana]] before the move -->
"""


def test_t3_commented_out_links_and_addresses_are_no_links() -> None:
    assert extract_links(BODY) == ["escalation-policy", "grafana-dashboards"]


def test_t5b_they_are_no_dangling_wiki_links() -> None:
    names = ["on-call", "escalation-policy", "grafana-dashboards"]
    topics = [
        parse_topic(
            f"---\nname: {n}\ndescription: d\n---\n{BODY if n == 'on-call' else 'x'}\n".encode(),
            f"{n}.md",
        )
        for n in names
    ]
    index = "".join(f"- [{n}]({n}.md) — d\n" for n in names)
    assert lint_scope(index, topics, [f"{n}.md" for n in names]) == []
    topics[1:] = topics[2:]  # escalation-policy.md gone: its link dangles, the others do not
    del names[1]
    index = "".join(f"- [{n}]({n}.md) — d\n" for n in names)
    findings = lint_scope(index, topics, [f"{n}.md" for n in names])
    assert [(f.code, f.file, f.line) for f in findings] == [("dangling-wiki-link", "on-call.md", 7)]
