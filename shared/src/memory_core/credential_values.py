"""Whether a value given to a credential key is a credential (T-6): the half of detection that
looks at the value, in every form people write it.

A value is no credential when it is a word in any script (``sunshine``, ``проходит``), code
(``torch.autograd.grad(loss``, ``os.environ[…]``), a type (``varchar(500)``, ``String?``), a
reference (``$TOKEN``, ``${{ secrets.X }}``, ``DB_PASSWORD``, ``see 1Password``), a placeholder
(``your-api-key-here``, ``<token>``, ``****``, ``hunter2``), a quantity (``4096``, ``30s``), a
date or version, a path (``/home/alex/app`` after ``pwd:``, a secret manager's
``prod/db/password`` after ``secret:``) or a command-line flag
(``--frozen-lockfile`` after ``pass``). Digits alone are a credential only for a password key
(``SSHPASS='200152'``, a PIN).

>>> looks_secret("Winter2025!"), looks_secret("проходит"), looks_secret("200152", password=True)
(True, False, True)
>>> looks_secret("4096"), looks_secret("/home/alex/app", password=True)
(False, False)
"""

from __future__ import annotations

import itertools
import re
import unicodedata

__all__ = ["is_placeholder", "looks_random", "looks_secret"]

# credential_suffixes rewrites each test of looks_secret for the suffixes of one value: a change
# to a test here is made there too (its tests compare the two).
# References and templates: $VAR, ${VAR}, $(cmd), %(x)s, %VAR%, {{ x }}, {x}, <x>, (x), [x].
_REFERENCE = re.compile(r"(?:\$[({A-Za-z_]|%[({A-Za-z_]|[{<[(#?}])")
# A YAML tag standing for a value kept elsewhere: ``!vault |``, ``!Ref DbPassword``, ``!!binary``.
_YAML_TAG = re.compile(r"!!?[A-Za-z][a-z]*(?:[A-Z][a-z]+)*")
_MASK = re.compile(r"(?i)[*x.•…_-]+")
_CODE = re.compile(
    r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+.*"  # a dotted path: os.environ[...], a.b.c
    r"|[A-Za-z_$][\w$]*[(\[<].*"  # a call, an index or a generic: varchar(500), Optional[str]
    r"|\d+(?:[.,]\d+)*\s*[A-Za-z%]{0,3}"  # a number or quantity: 4096, 200k, 30s, 1.5GB
    r"|\d+\s*[^\x00-\x7f\W\d_]\S*"  # a quantity in another script: 12文字以上, 12자
)
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_DIGITS = re.compile(r"\d+(?:[- ]\d+)*")
_DATE_OR_VERSION = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?|\d{1,2}[./]\d{1,2}[./]\d{2,4}|v?\d+(?:\.\d+){1,3}"
)
_PATH = re.compile(r"(?:~|\.{1,2})?/[^\s]*|[A-Za-z]:\\[^\s]*")
# Where a secret manager keeps one, not the secret: lower-case words and numbers between
# slashes, as Vault, AWS Secrets Manager and GCP Secret Manager name them (``kv/data/shop/db``,
# ``prod/db/password``, ``projects/123/secrets/db-pass/versions/4``). A secret holding a slash
# has capitals or letters mixed with digits (``wJalrXUtnFEMI/K7MDENG/…``). Reads the same
# reversed, for credential_suffixes.
_SEGMENT = r"(?:[a-z]+|\d+)(?:[-_.](?:[a-z]+|\d+))*"
_STORE_PATH = re.compile(rf"{_SEGMENT}(?:/{_SEGMENT})+")
_TOKEN_PART = re.compile(r"[A-Za-z0-9_-]{16,}")
_FLAG = re.compile(r"--?[A-Za-z][\w-]*(?:=\S*)?")
_ASSIGNMENT = re.compile(r"[A-Za-z_][\w.-]*=(?P<right>[^=\s].*)")  # not base64's trailing =
# A value holding one of these words is a placeholder (``your-api-key-here``, ``REPLACE_ME``);
# so is a value made only of the words of the second set (``password``, ``sk-test-key``).
_PLACEHOLDER_MARKERS = frozenset(
    (
        *("your", "here", "example", "examples", "sample", "dummy", "fake", "placeholder"),
        *("changeme", "change", "replace", "redacted", "removed", "hidden", "todo", "fixme"),
        "xxxx",
    )
)
_PLACEHOLDER_WORDS = _PLACEHOLDER_MARKERS | frozenset(
    (
        *("my", "test", "xxx", "none", "null", "nil", "undefined", "empty", "tbd", "value"),
        *("password", "passwd", "pass", "pwd", "secret", "token", "key", "api", "apikey"),
        *("user", "username", "host", "db", "string", "sk", "pk", "undef"),
    )
)
# Where a credential is kept rather than the credential (``see 1Password``, ``KeePass entry``).
_KEPT_ELSEWHERE = ("1password", "bitwarden", "keepass", "lastpass", "vault", "keychain")
# Passwords that only ever appear as examples: the IRC joke, xkcd 936, Java's keystore default,
# the samples of vendor documentation.
_SAMPLE_PASSWORDS = frozenset(
    ("hunter2", "correcthorsebatterystaple", "changeit", "p@ssw0rd", "passw0rd", "p@$$w0rd")
)
_WORD_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def _words(value: str) -> list[str]:
    """The words of a value, split at symbols, digits and camelCase humps, lower-cased."""
    return [word.lower() for word in _WORD_RE.findall(value)]


def is_placeholder(value: str) -> bool:
    """A template, a reference, a mask or a value made of placeholder words (``YOUR_KEY``)."""
    if _REFERENCE.match(value) or _MASK.fullmatch(value) or _YAML_TAG.fullmatch(value):
        return True
    lowered = value.lower()
    if lowered in _SAMPLE_PASSWORDS or any(place in lowered for place in _KEPT_ELSEWHERE):
        return True
    words = _words(value)
    if any(word in _PLACEHOLDER_MARKERS for word in words):
        return True
    return bool(words) and all(word in _PLACEHOLDER_WORDS for word in words)


def looks_random(body: str) -> bool:
    """A token's random part: varied characters, no run of one character, no example word."""
    if len(set(body.lower())) < min(8, len(body) // 2):
        return False
    lowered = body.lower()
    return "example" not in lowered and "xxxx" not in lowered


def _is_word(value: str) -> bool:
    """Letters of any script (with their marks), joined by at most single ``-``, ``_`` or ``'``,
    perhaps ending in ``?``, ``!`` or ``[]`` (``see-the-docs``, ``проходит``, ``String?``)."""
    core = value.removesuffix("[]").rstrip("?!")
    if not core or not core[0].isalpha() or not core[-1].isalpha():
        return False
    previous_joiner = False
    for char in core:
        if char in "-_'":
            if previous_joiner:
                return False
            previous_joiner = True
        elif char.isalpha() or unicodedata.category(char).startswith("M"):
            previous_joiner = False
        else:
            return False
    return True


def _random_letters(value: str) -> bool:
    """Mixed-case letters with no word shape (``uKdMNKHWnfVaEpVwKZgT``, not ``SecretKeyRef``)."""
    letters = [char for char in value if char.isalpha()]
    if len(letters) < 12 or len(letters) != len(value):
        return False
    upper = sum(char.isupper() for char in value) / len(value)
    changes = sum(a.isupper() != b.isupper() for a, b in itertools.pairwise(value))
    return 0.2 <= upper <= 0.8 and changes >= len(value) / 4


def _is_setting(value: str) -> bool:
    """``maxRetries=3``, ``mode=fast``: a setting (after ``pass`` as a verb), not a password
    that holds ``=`` (``vVIES=BO#bY``)."""
    match = _ASSIGNMENT.fullmatch(value)
    if match is None:
        return False
    right = match.group("right").strip("\"'")
    return _is_word(right) or _CODE.fullmatch(right) is not None or is_placeholder(right)


def _random_head(value: str) -> bool:
    """A dotted value whose first part is long and random is a token (``MTIzNDU2Nzg5….GhJkLm.…``,
    a Discord bot token), not a dotted path of code (``os.environ``)."""
    head, dot, _ = value.partition(".")
    return (
        bool(dot)
        and _TOKEN_PART.fullmatch(head) is not None
        and looks_random(head)
        and (character_classes(head) >= 3)
    )


def character_classes(value: str) -> int:
    """How many of lower-case letters, upper-case letters, digits and symbols ``value`` uses
    (a letter of a script without case counts as lower-case; the joiners of names and
    versions, ``-_./:``, are no symbols: ``eu-west-1`` uses two classes)."""
    lower = any(char.isalpha() and not char.isupper() for char in value)
    upper = any(char.isupper() for char in value)
    digit = any(char.isdigit() for char in value)
    symbol = any(not char.isalnum() and char not in "-_./:" for char in value)
    return lower + upper + digit + symbol


def looks_secret(value: str, *, password: bool = False, strong: bool = False) -> bool:
    """Whether ``value``, given to a credential key, is a credential (T-6).

    ``password``: the key names a password, so digits alone (four or more, a PIN or
    ``200152``; six or more when ``strong``) are one. ``strong``: the key and value are only
    loosely tied (``password for the staging admin: …``, ``vnc password 83019274``), so the
    value must also mix three kinds of characters (lower, upper, digits, symbols).
    """
    if password and _DIGITS.fullmatch(value) and not _DATE_OR_VERSION.fullmatch(value):
        return sum(char.isdigit() for char in value) >= (6 if strong else 4)
    if value.isalpha() and value.islower():
        return False  # a word without capitals: the common case in prose, decided at C speed
    if len(value) < 6 or is_placeholder(value) or _ENV_NAME.fullmatch(value):
        return False
    if any(char.isspace() for char in value):
        return False  # words, a sentence or a command, not one credential
    if value.endswith(("...", "…")):
        return False  # an elided example: ``$2b$12$...``, ``ghp_Ab12…``
    if _PATH.fullmatch(value) or _STORE_PATH.fullmatch(value):
        return False
    if _FLAG.fullmatch(value) or _is_setting(value):
        return False
    if _DATE_OR_VERSION.fullmatch(value) or (_CODE.fullmatch(value) and not _random_head(value)):
        return False
    if _is_word(value):
        return _random_letters(value)  # mixed-case noise, not a word
    return not strong or character_classes(value) >= 3
