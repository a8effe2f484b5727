"""Whether a value looks like a credential, for many values that share one end (T-5, T-6).

A line can give one long value to many prose names: in ``:password:password:…`` or
``密码是密码是…`` every name's bare value runs to the end of the same run of value characters,
and in ``pw «pw «pw «… »`` every name's quoted value ends at the same ``»``. Judged one by one,
each a copy given to :func:`~memory_core.credential_values.looks_secret`, that work is quadratic
in the line's length (finding the credentials in 30,000 characters of ``密码是`` took 52 s, of
``pw „`` with one closing ``“`` 36 s, and a topic file is read up to 1 MiB), though only the
starts of the values differ.

:class:`ValueSuffixes` gives the verdicts of looks_secret for every value ending at one place.
A value of at most :data:`SHORT` characters, and the first longer one, is judged by looks_secret
itself. From the second longer one on, the shared text is summarised once, read from its end
(:class:`_Tails`: where each kind of character last occurs, where the tail that a pattern of
looks_secret accepts whole begins, the words of the text), and each value is judged from those
summaries and its first few characters. Each method of _Tails is one test of looks_secret
rewritten for a suffix, giving the same answer; ``tests/core/test_t6_credential_value_suffixes.py``
compares them with looks_secret on every suffix of generated values, so a change to a test of
:mod:`memory_core.credential_values` must be made here too.

>>> line = "example-" * 10 + "Lm29xQ!kZ" * 8
>>> judge = ValueSuffixes(line, len(line))
>>> [judge.looks_secret(start) for start in (0, 8, 80)]
[False, False, True]
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from array import array
from bisect import bisect_left
from functools import cached_property

from memory_core.credential_values import (
    _CODE,
    _DIGITS,
    _KEPT_ELSEWHERE,
    _PLACEHOLDER_MARKERS,
    _PLACEHOLDER_WORDS,
    _REFERENCE,
    _STORE_PATH,
    _TOKEN_PART,
    _WORD_RE,
    _is_word,
    character_classes,
    is_placeholder,
    looks_random,
    looks_secret,
)

__all__ = ["SHORT", "ValueSuffixes"]

SHORT = 64
"""A value of at most this many characters is judged by looks_secret itself. Longer than every
string looks_secret compares whole (sample passwords, dates), so a longer value is decided by
its first few characters and the summaries of the text it ends."""

# Patterns matched on the reversed text: each finds the longest tail of the text that a
# pattern of credential_values accepts whole (those reading the same both ways are reused).
_MASK_TAIL = re.compile(r"(?i)[*x.•…_-]*")  # credential_values._MASK
_YAML_REST_TAIL = re.compile(r"(?:[a-z]+[A-Z])*[a-z]*")  # _YAML_TAG after its first letter
_ENV_TAIL = re.compile(r"[A-Z0-9]+(?:_[A-Z0-9]+)*")  # _ENV_NAME
_VERSION_TAIL = re.compile(r"\d+(?:\.\d+)*")  # the third form of _DATE_OR_VERSION
_CLOCK_TAIL = re.compile(r"[\d:.]*")  # the time of day of its first form
_NUMBER_TAIL = re.compile(r"\d+(?:[.,]\d+)*")  # the quantity of _CODE
_UNIT_TAIL = re.compile(r"[A-Za-z%]*")  # … and its unit
_SPACE = re.compile(r"\s")
# Patterns matched at a value's start: the fixed beginnings of looks_secret's patterns.
_DATE_HEAD = re.compile(r"\d{4}-\d{2}-\d{2}[T ]")
_PATH_HEAD = re.compile(r"(?:~|\.{1,2})?/|[A-Za-z]:\\")
_ASCII_LETTER = re.compile(r"[A-Za-z]")
_IDENTIFIER_START = re.compile(r"[A-Za-z_$]")
_OTHER_SCRIPT_LETTER = re.compile(r"[^\x00-\x7f\W\d_]")
# Characters that end a part of a value (the first one at or after a place, found by bisection).
_STOPS = {
    "flag": re.compile(r"[^\w-]"),
    "setting": re.compile(r"[^\w.-]"),
    "identifier": re.compile(r"[^\w$]"),
    "token": re.compile(r"[^A-Za-z0-9_-]"),
    "digits": re.compile(r"\D"),
    "unquoted": re.compile(r"[^\"']"),
    "dot": re.compile(r"\."),
}


def _tail_start(pattern: re.Pattern[str], reversed_text: str, skip: int = 0) -> int:
    """Where the longest tail of the text (before its last ``skip`` characters) that
    ``pattern``, matched on the text reversed, accepts begins."""
    match = pattern.match(reversed_text, skip)
    length = match.end() - skip if match else 0
    return len(reversed_text) - skip - length


class _Tails:
    """Summaries of ``text`` read from its end, from which each suffix
    ``text[at:]`` longer than :data:`SHORT` is judged as looks_secret would judge it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.size = len(text)
        self.reversed = text[::-1]
        self.elided = text.endswith(("...", "…"))
        self._stops: dict[str, array[int]] = {}

    def looks_secret(self, at: int, *, password: bool, strong: bool) -> bool:
        """:func:`~memory_core.credential_values.looks_secret` of ``text[at:]``, in its order."""
        if password and self._digits(at) and not self._date(at):
            return True  # more than SHORT characters: far more than six digits
        if self._lower_letters(at):
            return False
        if self.placeholder(at) or self._env_name(at):
            return False
        if self._last_space >= at or self.elided:
            return False
        if _PATH_HEAD.match(self.text, at) or self._store_path(at):
            return False
        if self._flag(at) or self._setting(at):
            return False
        if self._date(at) or (self.code(at) and not self._random_head(at)):
            return False
        if self.word(at):
            return self._random_letters(at)
        return not strong or self._classes(at) >= 3

    # ---- where things are ----
    def _next_stop(self, kind: str, at: int) -> int:
        """The first position at or after ``at`` of a character of ``_STOPS[kind]``, else the
        text's length."""
        stops = self._stops.get(kind)
        if stops is None:
            found = (stop.start() for stop in _STOPS[kind].finditer(self.text))
            stops = self._stops[kind] = array("q", found)
        after = bisect_left(stops, at)
        return stops[after] if after < len(stops) else self.size

    @cached_property
    def _last_space(self) -> int:
        space = _SPACE.search(self.reversed)
        return self.size - 1 - space.start() if space else -1

    # ---- paths ----
    @cached_property
    def _store_path_start(self) -> tuple[int, int]:
        """(start of the longest tail that ``_STORE_PATH`` accepts whole, its last ``/``)."""
        return _tail_start(_STORE_PATH, self.reversed), self.text.rfind("/")

    def _store_path(self, at: int) -> bool:
        """``_STORE_PATH.fullmatch``: any part of such a tail that starts with a letter or digit
        and still holds a ``/`` (its segments are letters or digits, never both glued)."""
        start, slash = self._store_path_start
        return start <= at < slash and self.text[at].isascii() and self.text[at].isalnum()

    # ---- digits, dates and versions ----
    @cached_property
    def _digits_start(self) -> int:
        return _tail_start(_DIGITS, self.reversed)

    def _digits(self, at: int) -> bool:
        """``_DIGITS.fullmatch``: digits, single ``-`` or spaces between them."""
        return at >= self._digits_start and self.text[at].isdecimal()

    @cached_property
    def _clock_start(self) -> int:
        return _tail_start(_CLOCK_TAIL, self.reversed, 1 if self.text.endswith("Z") else 0)

    @cached_property
    def _version_dots(self) -> tuple[int, list[int]]:
        start = _tail_start(_VERSION_TAIL, self.reversed)
        return start, [m.start() for m in _STOPS["dot"].finditer(self.text, start)][-4:]

    def _date(self, at: int) -> bool:
        """``_DATE_OR_VERSION.fullmatch``: ``2024-01-01T10:00Z`` or ``v1.2.3`` (its second form
        is never longer than ten characters)."""
        text, time = self.text, at + 11
        end = self.size - 1 if text.endswith("Z") else self.size
        if _DATE_HEAD.match(text, at) and self._clock_start <= time < end:
            return True
        number = at + 1 if text[at] == "v" else at
        start, dots = self._version_dots
        if number < start or not text[number].isdecimal():
            return False
        return bool(dots) and dots[-1] >= number and (len(dots) < 4 or dots[0] < number)

    # ---- words, placeholders and names ----
    @cached_property
    def _letters(self) -> tuple[int, int, int]:
        """(start of the tail of letters, start of its tail without an upper-case or title-case
        letter, last lower-case letter in it or -1)."""
        text = self.text
        start = self.size
        while start > 0 and text[start - 1].isalpha():
            start -= 1
        uncased = self.size
        while uncased > start and not text[uncased - 1].istitle():
            uncased -= 1
        lower = self.size - 1
        while lower >= start and not text[lower].islower():
            lower -= 1
        return start, uncased, lower if lower >= start else -1

    def _lower_letters(self, at: int) -> bool:
        """``value.isalpha() and value.islower()``."""
        start, uncased, lower = self._letters
        return at >= start and at >= uncased and lower >= at

    @cached_property
    def _keeper(self) -> int:
        """Where the last name of a password manager (``1password``, ``vault``) starts."""
        text = self.text
        lowered = text.lower()
        if len(lowered) != len(text):  # "İ" lowers to two characters, none a keeper's
            lowered = "".join(char.lower() if len(char.lower()) == 1 else char for char in text)
        return max(lowered.rfind(place) for place in _KEPT_ELSEWHERE)

    @cached_property
    def _words(self) -> tuple[array[int], array[int], int, int]:
        """(where each word of the text starts, where each ends, index of its last placeholder
        marker, index of its last word that is no placeholder word), -1 where there is none."""
        starts, ends = array("q"), array("q")
        marker = other = -1
        for index, match in enumerate(_WORD_RE.finditer(self.text)):
            starts.append(match.start())
            ends.append(match.end())
            word = match.group().lower()
            if word in _PLACEHOLDER_MARKERS:
                marker = index
            if word not in _PLACEHOLDER_WORDS:
                other = index
        return starts, ends, marker, other

    def _placeholder_words(self, at: int) -> bool:
        """The word tests of ``is_placeholder``. The words of ``text[at:]`` are those of the
        text from the first one at or after ``at`` on, but for a word ``at`` cuts: from there
        its own words (``Key`` of ``apiKey``) until one starts where a word of the text does."""
        starts, ends, marker, other = self._words
        shared = bisect_left(starts, at)
        own: list[str] = []
        if shared > 0 and ends[shared - 1] > at:
            shared = len(starts)
            for match in _WORD_RE.finditer(self.text, at):
                index = bisect_left(starts, match.start())
                if index < len(starts) and starts[index] == match.start():
                    shared = index
                    break
                own.append(match.group().lower())
        if marker >= shared or any(word in _PLACEHOLDER_MARKERS for word in own):
            return True
        return (
            (bool(own) or shared < len(starts))
            and other < shared
            and all(word in _PLACEHOLDER_WORDS for word in own)
        )

    @cached_property
    def _mask_start(self) -> int:
        return _tail_start(_MASK_TAIL, self.reversed)

    @cached_property
    def _yaml_rest_start(self) -> int:
        return _tail_start(_YAML_REST_TAIL, self.reversed)

    def placeholder(self, at: int) -> bool:
        """``is_placeholder`` (no sample password is this long)."""
        text = self.text
        if _REFERENCE.match(text, at) or at >= self._mask_start or self._keeper >= at:
            return True
        if text[at] == "!":  # _YAML_TAG: !Ref DbPassword, !!binary
            name = at + 2 if text[at + 1] == "!" else at + 1
            if _ASCII_LETTER.match(text, name) and name + 1 >= self._yaml_rest_start:
                return True
        return self._placeholder_words(at)

    @cached_property
    def _env_start(self) -> int:
        return _tail_start(_ENV_TAIL, self.reversed)

    def _env_name(self, at: int) -> bool:
        """``_ENV_NAME.fullmatch``: ``DB_PASSWORD``."""
        return at >= self._env_start and "A" <= self.text[at] <= "Z" and self._underscore > at

    @cached_property
    def _underscore(self) -> int:
        return self.text.rfind("_")

    # ---- flags, settings and code ----
    def _flag(self, at: int) -> bool:
        """``_FLAG.fullmatch`` of a value without spaces: ``--frozen-lockfile``, ``-o=x``."""
        text = self.text
        if text[at] != "-":
            return False
        if text[at + 1] == "-" and _ASCII_LETTER.match(text, at + 2):
            rest = at + 3
        elif _ASCII_LETTER.match(text, at + 1):
            rest = at + 2
        else:
            return False
        stop = self._next_stop("flag", rest)
        return stop == self.size or text[stop] == "="

    @cached_property
    def _unquoted_end(self) -> int:
        return len(self.text.rstrip("\"'"))

    @cached_property
    def _right_sides(self) -> _Tails:
        """The summaries of the text without its closing quotes, which a setting's right side
        (``mode='fast'``) is judged without."""
        if self._unquoted_end == self.size:
            return self
        return _Tails(self.text[: self._unquoted_end])

    def _setting(self, at: int) -> bool:
        """``_is_setting`` of a value without spaces: ``maxRetries=3``, ``mode=fast``."""
        text = self.text
        if not (text[at] == "_" or _ASCII_LETTER.match(text, at)):
            return False
        equals = self._next_stop("setting", at + 1)
        if equals + 1 >= self.size or text[equals] != "=" or text[equals + 1] == "=":
            return False
        start, end = self._next_stop("unquoted", equals + 1), self._unquoted_end
        if start >= end:
            return False  # nothing but quotes
        if end - start <= SHORT:
            right = text[start:end]
            return _is_word(right) or _CODE.fullmatch(right) is not None or is_placeholder(right)
        sides = self._right_sides
        return sides.word(start) or sides.code(start) or sides.placeholder(start)

    @cached_property
    def _number_start(self) -> int:
        """Where the quantity before the text's unit (``4096``, ``1.5GB``) begins, or the
        text's length when the unit is longer than three letters."""
        unit = self.size - _tail_start(_UNIT_TAIL, self.reversed)
        return self.size if unit > 3 else _tail_start(_NUMBER_TAIL, self.reversed, unit)

    def code(self, at: int) -> bool:
        """``_CODE.fullmatch`` of a value without spaces: ``os.environ[…]``, ``varchar(500)``,
        ``1.5GB``, ``12文字以上``."""
        text = self.text
        if _IDENTIFIER_START.match(text, at):
            stop = self._next_stop("identifier", at + 1)
            if stop < self.size and text[stop] in "([<":
                return True
            if text[stop : stop + 1] == "." and _IDENTIFIER_START.match(text, stop + 1):
                return True
        if not text[at].isdecimal():
            return False
        if at >= self._number_start:
            return True
        return _OTHER_SCRIPT_LETTER.match(text, self._next_stop("digits", at)) is not None

    def _random_head(self, at: int) -> bool:
        """``_random_head``: a dotted value whose first part is a random token."""
        dot = self._next_stop("dot", at)
        if dot == self.size or dot - at < 16 or self._next_stop("token", at) < dot:
            return False
        head = self.text[at:dot]
        return (
            _TOKEN_PART.fullmatch(head) is not None
            and looks_random(head)
            and character_classes(head) >= 3
        )

    # ---- words of letters, and kinds of character ----
    @cached_property
    def _word_span(self) -> tuple[int, int]:
        """(start, end) of the tail ``_is_word`` accepts: letters and marks joined by single
        ``-``, ``_`` or ``'``, before a final ``[]`` and ``?`` or ``!``."""
        text = self.text
        end = len(text.removesuffix("[]").rstrip("?!"))
        start, joined = end, False
        while start > 0:
            char = text[start - 1]
            if char in "-_'":
                if joined:
                    break
                joined = True
            elif char.isalpha() or unicodedata.category(char).startswith("M"):
                joined = False
            else:
                break
            start -= 1
        return start, end

    def word(self, at: int) -> bool:
        """``_is_word``: ``see-the-docs``, ``проходит``, ``String?``."""
        start, end = self._word_span
        return start <= at < end and self.text[at].isalpha() and self.text[end - 1].isalpha()

    @cached_property
    def _upper_counts(self) -> tuple[array[int], array[int]]:
        """For each place in the tail of letters: how many upper-case letters are at or after
        it, and how many changes between upper and lower case."""
        upper = [int(char.isupper()) for char in self.text[self._letters[0] :]]
        uppers = array("q", itertools.accumulate(reversed(upper)))
        changes = array("q", [0])
        flips = (int(a != b) for a, b in itertools.pairwise(reversed(upper)))
        changes.extend(itertools.accumulate(flips))
        uppers.reverse()
        changes.reverse()
        return uppers, changes

    def _random_letters(self, at: int) -> bool:
        """``_random_letters``: mixed-case letters with no word shape."""
        start = self._letters[0]
        if at < start:
            return False
        uppers, changes = self._upper_counts
        length = self.size - at
        upper = uppers[at - start] / length
        return 0.2 <= upper <= 0.8 and changes[at - start] >= length / 4

    @cached_property
    def _class_ends(self) -> tuple[int, int, int, int]:
        """Where the last lower-case letter, upper-case letter, digit and symbol are (as
        ``character_classes`` counts them), -1 where there is none."""
        last = [-1, -1, -1, -1]
        at = self.size - 1
        while at >= 0 and min(last) == -1:
            char = self.text[at]
            for index, member in enumerate(
                (
                    char.isalpha() and not char.isupper(),
                    char.isupper(),
                    char.isdigit(),
                    not char.isalnum() and char not in "-_./:",
                )
            ):
                if member and last[index] == -1:
                    last[index] = at
            at -= 1
        return last[0], last[1], last[2], last[3]

    def _classes(self, at: int) -> int:
        return sum(end >= at for end in self._class_ends)


class ValueSuffixes:
    """Verdicts of looks_secret on values of one line that end at one place (T-6).

    ``ValueSuffixes(line, end).looks_secret(start, password=…, strong=…)`` is
    ``looks_secret(line[start:end], password=…, strong=…)``. Asked for many starts, the work is
    linear in the length of the longest value, not in the sum of their lengths.
    """

    def __init__(self, line: str, end: int) -> None:
        self.line = line
        self.end = end
        self._tails: _Tails | None = None
        self._base = end  # _tails summarise line[_base:end]
        self._judged_long = False

    def looks_secret(self, start: int, *, password: bool = False, strong: bool = False) -> bool:
        """Whether ``line[start:end]`` is a credential (as
        :func:`~memory_core.credential_values.looks_secret`)."""
        tails = self._tails_from(start) if self.end - start > SHORT else None
        if tails is None:
            return looks_secret(self.line[start : self.end], password=password, strong=strong)
        return tails.looks_secret(start - self._base, password=password, strong=strong)

    def _tails_from(self, start: int) -> _Tails | None:
        """The summaries ``line[start:end]`` (longer than SHORT) is judged from: none for the
        first such value, which is judged as it is (most values share their end with none)."""
        if self._tails is not None and start >= self._base:
            return self._tails
        if not self._judged_long:
            self._judged_long = True
            return None
        self._tails, self._base = _Tails(self.line[start : self.end]), start
        return self._tails
