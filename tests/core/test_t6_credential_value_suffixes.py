"""T-6: values that share one end are judged together, with looks_secret's very verdicts.

Many prose names can give one long value (``:password:password:…``, ``pw «pw «… »``); the scan
judges all the values ending at one place from one summary of the text
(:mod:`memory_core.credential_suffixes`). Each suffix of generated values, mixing every kind of
text looks_secret tells apart (digits, dates, versions, quantities, paths, flags, settings,
code, environment names, YAML tags, masks, placeholder words, password managers, words of any
script, random letters), gets the verdict looks_secret gives it, and so does each test of
looks_secret rewritten for suffixes.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from memory_core import credential_values as values
from memory_core.credential_suffixes import _PATH_HEAD, SHORT, ValueSuffixes, _Tails
from memory_core.credential_values import looks_secret

_FLAGS = [(False, False), (True, False), (False, True), (True, True)]  # (password, strong)

# (characters a value is mostly made of, pieces mixed in now and then), by what looks_secret
# tells apart: each family makes one of its tests decide.
_FAMILIES = {
    "digits": ("0123456789" * 10 + "- ", ["--", "  ", "2024-01-01 ", "a", "."]),
    "versions": ("0123456789" * 20 + ".", ["..", "v", "a", "1.2.3"]),
    "dates": ("0123456789:.", ["2024-01-01T", "2024-01-01 ", "Z", "T", "-"]),
    "quantities": ("0123456789" * 2 + ".,", ["GB", "%", "abc", "abcd", "k", "文字", " "]),
    "environment names": ("ABCDEFGHXYZ0123" * 2 + "_", ["__", "a", "-", "B_"]),
    "words": ("abcdefXYZéßΣ密码-_'\u0301", ["--", "''", "1", "[]", "?", "!", " ", "."]),
    "random letters": ("abcdefghijKLMNOPQRST", ["ǅ", "1", "é", "Σ", "-"]),
    "lower-case words": ("abcdefghijklmnop", ["A", "ǅ", "密", "ß", "\u0301", "Ⓐ", "é"]),
    "YAML tags": ("abcdefghijABC", ["!", "!!", "AB", "1", "é"]),
    "masks": ("*x.•…_-X", ["a", "y", "K"]),
    "flags": ("abcdefg_-密", ["=", "--", "-a", ".", "/", "x=y z"]),
    "settings": ("abcDEF_.-", ["=", "'", '"', "==", "fast", "3", "os.environ[", "your-key", "$X"]),
    "code": ("abcABC_$密1", [".", "(", "[", "<", ".a", "..", "x.y", "$"]),
    "dotted tokens": (
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789_", [".", ".x.y", "-", "xxxx"]
    ),
    "password managers": (
        "abc12!", ["vault", "VAULT", "1password", "\u212aeepass", "İ", "keychaİn"]
    ),
    "placeholder words": (
        "-_:.=/", ["your", "api", "key", "Token", "PASSWORD", "My", "Example", "12"]
    ),
    "references": ("abc", ["$x", "${", "$(", "%(", "%X", "{", "<", "[", "(", "#", "?", "}"]),
    "symbols": ("aB3!@#~^&+=", ["-", "_", ".", "/", ":", "é", " ", "\n"]),
}  # fmt: skip
_STARTS = [
    *("", "", "", "", "a", "A", "1", "-", "--", "!", "!!", "_", "$", "v", "~/", "./", "C:\\"),
    *(":", "2024-01-01T", "2024-01-01 "),
]
_ENDS = ["", "", "", "", "", "", "...", "…", "[]", "?!", "Z", "'", "\"'", "GB", "%", "=", "[]?"]


def _generated_values(seed: int, per_family: int) -> list[str]:
    generator = random.Random(seed)  # noqa: S311 - generated test values, no secret
    generated = []
    for _ in range(per_family):
        for characters, pieces in _FAMILIES.values():
            rate = generator.choice([0, 0, 0.005, 0.02, 0.1])  # how often a piece breaks in
            parts = [generator.choice(_STARTS)]
            length = generator.choice([SHORT + 2, 70, 80, 100, 150])
            while sum(map(len, parts)) < length:
                if generator.random() < rate:
                    parts.append(generator.choice(pieces))
                else:
                    parts.append(generator.choice(characters))
            parts.append(generator.choice(_ENDS))
            generated.append("".join(parts))
    return generated


def _assert_every_suffix_judged_alike(text: str) -> None:
    tails = _Tails(text)
    for at in range(len(text) - SHORT):
        for password, strong in _FLAGS:
            expected = looks_secret(text[at:], password=password, strong=strong)
            assert tails.looks_secret(at, password=password, strong=strong) == expected, (
                text[at:],
                password,
                strong,
            )


@pytest.mark.parametrize("seed", [1, 2])
def test_t6_every_suffix_of_a_generated_value_gets_looks_secrets_verdict(seed: int) -> None:
    """Values of every family, each suffix longer than SHORT, as a password or not and tied
    loosely to its name or not: the verdict is looks_secret's."""
    generated = _generated_values(seed, 12)
    verdicts = set()
    for text in generated:
        _assert_every_suffix_judged_alike(text)
        verdicts.add(looks_secret(text[len(text) // 3 :]))
    assert verdicts == {True, False}  # credentials and non-credentials both


@given(
    st.lists(
        st.sampled_from(
            [
                *"aZ09 -_.:=!?'\"$%/\\*x•…[]()<>{}#~@é密ΣİǅⓐK\u0301\u212a\n",
                *("password", "Token", "your", "example", "vault", "key", "api", "sk"),
                *("2024-01-01T", "v1.2", "os.environ", "--flag", "MY_ENV", "!Ref", "~/"),
                *("C:\\", "12GB", "12文字", "uKdMNKHWnfVaEpVwKZgT", "Lm29xQ!k", "mode=fast"),
                *("prod/db/", "/12/", "kv/data"),
            ]
        ),
        min_size=SHORT + 1,  # longer than SHORT, each piece a character at least
        max_size=SHORT + 40,
    ).map("".join)
)
def test_t6_every_suffix_of_any_value_gets_looks_secrets_verdict(text: str) -> None:
    """Any mix of the characters and words looks_secret looks for, line breaks too."""
    _assert_every_suffix_judged_alike(text)


def test_t6_each_test_of_looks_secret_holds_for_suffixes() -> None:
    """Each test of looks_secret, rewritten for a suffix, agrees with the original on every
    suffix it is asked about (one that the tests before it let through), each deciding some."""
    decided: dict[str, set[object]] = {}
    for text in _generated_values(3, 12):
        tails = _Tails(text)
        for at in range(len(text) - SHORT):
            value = text[at:]
            spaced = any(char.isspace() for char in value)
            checks = {
                "digits": (values._DIGITS.fullmatch(value) is not None, tails._digits(at)),
                "date": (values._DATE_OR_VERSION.fullmatch(value) is not None, tails._date(at)),
                "lower": (value.isalpha() and value.islower(), tails._lower_letters(at)),
                "placeholder": (values.is_placeholder(value), tails.placeholder(at)),
                "env": (values._ENV_NAME.fullmatch(value) is not None, tails._env_name(at)),
                "space": (spaced, tails._last_space >= at),
                "word": (values._is_word(value), tails.word(at)),
                "classes": (values.character_classes(value), tails._classes(at)),
            }
            if values._is_word(value):
                checks["letters"] = (values._random_letters(value), tails._random_letters(at))
            if not spaced:  # the tests after the one for white space
                checks["path"] = (
                    values._PATH.fullmatch(value) is not None,
                    _PATH_HEAD.match(text, at) is not None,
                )
                checks["flag"] = (values._FLAG.fullmatch(value) is not None, tails._flag(at))
                checks["setting"] = (values._is_setting(value), tails._setting(at))
                checks["code"] = (values._CODE.fullmatch(value) is not None, tails.code(at))
                if checks["code"][0]:
                    checks["head"] = (values._random_head(value), tails._random_head(at))
            for name, (expected, got) in checks.items():
                assert got == expected, (name, value)
                decided.setdefault(name, set()).add(expected)
    assert {name for name, outcomes in decided.items() if len(outcomes) == 1} == set(), decided


def test_t6_a_secret_managers_path_is_told_for_suffixes() -> None:
    """``kv/data/shop/db``-like values (``_STORE_PATH``), with now and then a capital, an
    accented letter, a lone hyphen or a doubled slash: the suffix test agrees on every suffix,
    and so does the whole verdict."""
    generator = random.Random(5)  # noqa: S311 - generated test values, no secret
    outcomes: set[bool] = set()
    for _ in range(40):
        parts: list[str] = []
        while sum(map(len, parts)) < SHORT + 30:
            parts.append(generator.choice(["shop", "db", "kv", "data", "12", "db-pass", "v_1.2"]))
            if generator.random() < 0.05:
                parts.append(generator.choice(["A", "1", "/", "-", "é"]))
        text = "/".join(parts)
        tails = _Tails(text)
        for at in range(len(text) - SHORT):
            expected = values._STORE_PATH.fullmatch(text[at:]) is not None
            assert tails._store_path(at) == expected, text[at:]
            outcomes.add(expected)
        _assert_every_suffix_judged_alike(text)
    assert outcomes == {True, False}


def test_t6_values_sharing_an_end_are_judged_in_any_order() -> None:
    """ValueSuffixes, asked for the values of a line ending at one place (in order, backwards,
    again, short and long), answers looks_secret's verdict each time."""
    generator = random.Random(4)  # noqa: S311 - generated test values, no secret
    for text in _generated_values(4, 2):
        line = f"pw: {text} and more"
        end = 4 + len(text)
        starts = list(range(4, end + 1))
        for order in (starts, starts[::-1], generator.sample(starts, len(starts))):
            judge = ValueSuffixes(line, end)
            for start in order:
                password, strong = generator.choice(_FLAGS)
                expected = looks_secret(line[start:end], password=password, strong=strong)
                assert judge.looks_secret(start, password=password, strong=strong) == expected
