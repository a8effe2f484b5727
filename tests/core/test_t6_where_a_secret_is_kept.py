"""T-6: a secret manager's path and a public key are no credential; secrets beside them are.

Notes say where a secret is kept (``secret: projects/123/secrets/db-pass/versions/4`` in GCP
Secret Manager, ``kv/data/shop/db`` in Vault, ``prod/db/password`` in AWS Secrets Manager) and
paste Stripe's publishable key (``pk_live_…``, public by design: it ships in every checkout
page's JavaScript). Each was an ``error`` finding telling the user to rotate a credential.
"""

from __future__ import annotations

import pytest
from memory_core.credentials import find_secrets
from memory_core.lint import lint_topic
from memory_core.topics import parse_topic

NOT_SECRETS = [
    "secret: projects/123/secrets/db-pass/versions/4",
    "DB_PASSWORD=secret/data/shop/db",
    "password: kv/data/shop/db",
    "secret: prod/db/password",
    "token: team/ci/deploy-token",
    "The login reads `password: shop/prod/db_password` from Secrets Manager",
    "pk_live_51H8xYzAbCdEfGhIjKlMnOpQr",
    "STRIPE_PUBLISHABLE_KEY=pk_test_TYooMQauvdEDq54NiTphI7jx",
]

SECRETS = [
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQWERTYKEY", "secret-assignment"),
    ("password: Tr0ub4dor/3", "password-assignment"),
    ("password: shop/Prod/Db9x", "password-assignment"),
    ("STRIPE_SECRET_KEY=sk_live_51H8xYzAbCdEfGhIjKlMnOpQr", "stripe-key"),
    ("rk_live_51H8xYzAbCdEfGhIjKlMnOpQr", "stripe-key"),
]


@pytest.mark.parametrize("line", NOT_SECRETS)
def test_t6_a_secret_managers_path_or_a_publishable_key_is_no_credential(line: str) -> None:
    assert find_secrets(line) == []


@pytest.mark.parametrize(("line", "kind"), SECRETS)
def test_t6_a_credential_beside_them_is_still_found(line: str, kind: str) -> None:
    assert [found for found, _ in find_secrets(line)] == [kind]


def test_t6_a_note_on_where_secrets_are_kept_has_no_finding() -> None:
    body = "\n".join(["Secrets of the shop API:", *NOT_SECRETS])
    text = f"---\nname: shop-secrets\ndescription: where the shop keeps its secrets\n---\n{body}\n"
    assert lint_topic(parse_topic(text.encode(), "shop-secrets.md")) == []
    leaked = text + SECRETS[3][0] + "\n"
    findings = lint_topic(parse_topic(leaked.encode(), "shop-secrets.md"))
    assert [(finding.code, finding.line) for finding in findings] == [("secret", 14)]
