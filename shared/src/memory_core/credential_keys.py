"""Which keys and words name a credential (T-6): the half of detection that looks at the key.

Two kinds of key:

- an **identifier** (``DB_PASSWORD``, ``adminPass``, ``SSHPASS``, ``root_pw``, ``api_key``,
  ``Client-Secret``) whose last word is a credential word; a word glued to ``pass`` is one only
  when it is no English word that ends so (``bypass``, ``compass``, ``surpass`` … are not);
- a **phrase** in prose, in the language of the note: ``password``, ``pw``, ``Passwort``,
  ``пароль``, ``mot de passe``, ``contraseña``, ``密码``, ``パスワード``, ``비밀번호`` … (and
  ``token``, ``API key`` and theirs), found as a word of its own, or inside a run of a script
  written without spaces.

>>> credential_key_kind("SSHPASS"), credential_key_kind("bypass"), credential_key_kind("root_pw")
('password', None, 'password')
>>> phrases("Пароль от роутера: x; API-Schlüssel: y")
[('password', 0, 6), ('api-key', 22, 35)]
"""

from __future__ import annotations

import re

__all__ = [
    "NAME_HINTS",
    "PHRASE_HINTS",
    "credential_key_kind",
    "lower_in_place",
    "phrase_kind",
    "phrases",
]

_KEY_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+")
# A key's last word that names a credential by itself …
_WHOLE = frozenset(
    (
        *("password", "passwd", "passphrase", "passcode", "pass", "pwd", "pw"),
        *("secret", "token", "credential", "credentials"),
        # the same in other languages, as they appear in identifiers (``WLAN-Passwort``)
        *("passwort", "kennwort", "wachtwoord", "haslo", "heslo", "parola", "sifre", "senha"),
        *("losenord", "salasana", "jelszo", "contrasena", "lozinka", "geslo", "mdp", "parol"),
    )
)
# … or glued to another word (``sshpass``, ``pgpassword``, ``authtoken``, ``apikey``) …
_GLUED = ("password", "passwd", "passphrase", "passcode", "pass", "pwd", "token", "secret")
# … unless it is an English word that ends so.
_NOT_PASS = frozenset(
    ("bypass", "compass", "encompass", "surpass", "trespass", "overpass", "underpass", "impass")
)
# ``key`` names a credential after one of these (``api_key``, ``SECRET_KEY``; not ``sort_key``).
_KEY_PREFIXES = frozenset(
    (
        *("api", "access", "account", "auth", "secret", "signing", "encryption", "master"),
        *("private", "client"),
    )
)
_PASSWORD_ENDS = ("password", "passwd", "passphrase", "passcode", "pass", "pwd")


def credential_key_kind(key: str) -> str | None:
    """``"password"``, ``"token"``, ``"secret"``, ``"api-key"`` or ``"credential"`` for an
    identifier (``DB_PASSWORD``, ``apiKey``, ``SSHPASS``) that names that credential, else None.

    The key's last word decides (split at ``_``, ``-``, ``.`` and camelCase humps); the kind is
    that of the first credential word of the key (``APP_SECRET_KEY`` is a secret).
    """
    words = [word.lower() for word in _KEY_WORDS.findall(key)]
    if not words:
        return None
    last = words[-1]
    if last == "key":
        named = len(words) > 1 and words[-2] in _KEY_PREFIXES
    else:
        named = (
            last in _WHOLE
            or (last.endswith(_GLUED) and last not in _NOT_PASS)
            or (last.endswith("key") and last.removesuffix("key") in _KEY_PREFIXES)
        )
    return _kind_of(words) if named else None


def _kind_of(words: list[str]) -> str:
    """The kind named by the first credential word of a key's (lower-case) words."""
    for word in words:
        if word in _WHOLE - {"secret", "token", "credential", "credentials"} or (
            word.endswith(_PASSWORD_ENDS) and word not in _NOT_PASS
        ):
            return "password"
        if "token" in word:
            return "token"
        if "secret" in word:
            return "secret"
        if word.endswith("key"):
            return "api-key"
    return "credential"


# Prose names of credentials, by kind: words of their own in scripts written with spaces …
_SPACED = {
    "password": (
        "password", "pw", "pass", "passphrase", "passcode", "passwort", "kennwort", "пароль",
        "пароля", "contraseña", "contrasena", "mot de passe", "mdp", "senha", "wachtwoord",
        "hasło", "haslo", "heslo", "parola", "parolă", "şifre", "sifre", "lösenord",
        "losenord", "salasana", "jelszó", "jelszo", "κωδικός", "κωδικος", "mật khẩu",
        "kata sandi", "lozinka", "geslo", "पासवर्ड", "كلمة المرور", "كلمة السر", "סיסמה",
        "סיסמא",
    ),
    "token": ("token", "токен", "jeton"),
    "api-key": (
        "api key", "api-key", "api-schlüssel", "api schlüssel", "clé api", "clef api",
        "clave api", "clave de api", "chave api", "chave de api", "ключ api", "api ключ",
        "api 키",
    ),
}  # fmt: skip
# … and inside runs of scripts written without spaces (Chinese, Japanese, Korean, Thai).
_UNSPACED = {
    "password": ("密码", "密碼", "口令", "パスワード", "비밀번호", "암호", "รหัสผ่าน"),
    "token": ("令牌", "トークン", "토큰"),
    "api-key": ("api密钥", "api 密钥", "密钥", "密鑰", "apiキー", "api キー"),
}


_WORDS = tuple(
    (word.lower(), kind, spaced)
    for spaced, table in ((True, _SPACED), (False, _UNSPACED))
    for kind, words in table.items()
    for word in words
)
PHRASE_HINTS = tuple(
    sorted(
        word
        for word, _, _ in _WORDS
        if not any(other != word and other in word for other, _, _ in _WORDS)
    )
)
"""Lower-case literals one of which a line holds when :func:`phrases` can find anything: the
names that hold no shorter name (``pass`` stands for ``password`` and ``passwort``)."""
# The kind each prose name is, spelled lower-case (a name of two kinds: the first by name).
_KIND_OF_PHRASE = {
    word: kind for word, kind, _ in sorted(_WORDS, key=lambda entry: entry[1], reverse=True)
}
_KEY_HINTS = (*_WHOLE, *_GLUED, "key")
NAME_HINTS = tuple(
    sorted(
        hint
        for hint in {*PHRASE_HINTS, *_KEY_HINTS}
        if not any(other != hint and other in hint for other in (*PHRASE_HINTS, *_KEY_HINTS))
    )
)
"""Lower-case literals one of which a text holds (:func:`lower_in_place`) when it names a
credential as a whole: a prose name (:func:`phrase_kind`) or a key
(:func:`credential_key_kind`, whose last word holds one)."""
_WORDS_BY_HINT = {
    hint: tuple(entry for entry in _WORDS if hint in entry[0]) for hint in PHRASE_HINTS
}


def lower_in_place(line: str) -> str:
    """``line`` lower-cased character by character, so offsets into it stay those of ``line``."""
    lowered = line.lower()
    if len(lowered) == len(line):
        return lowered
    return "".join(char.lower() if len(char.lower()) == 1 else char for char in line)


def phrase_kind(text: str) -> str | None:
    """The kind of credential ``text`` names when it is, as a whole, a prose name of one
    (``Password``, ``mot de passe``, ``API key``), else None: the name :func:`phrases` finds
    spanning all of ``text``, found by one look-up."""
    return _KIND_OF_PHRASE.get(lower_in_place(text))


def _is_boundary(text: str, at: int, joiners: str = "_-") -> bool:
    return at < 0 or at >= len(text) or not (text[at].isalnum() or text[at] in joiners)


def phrases(line: str) -> list[tuple[str, int, int]]:
    """``(kind, start, end)`` of each prose name of a credential in ``line``, left to right.

    A name in a script written with spaces is a word of its own or a compound's last part
    (``WLAN-Passwort``; not inside ``bypass``, ``DB_PASSWORD`` or ``pass-through``); one in
    Chinese, Japanese, Korean or Thai may sit inside a run of letters.
    Where names overlap (``api 密钥``, ``密钥``) the longest is kept.
    """
    lowered = lower_in_place(line)
    found: list[tuple[int, int, str]] = []
    for hint in PHRASE_HINTS:
        if hint not in lowered:
            continue
        for word, kind, spaced in _WORDS_BY_HINT[hint]:
            position = lowered.find(word)
            while position != -1:
                end = position + len(word)
                # a compound's last part names it too (``WLAN-Passwort``), its first does not
                alone = _is_boundary(lowered, position - 1, "_") and _is_boundary(lowered, end)
                if alone or not spaced:
                    found.append((position, -end, kind))
                position = lowered.find(word, position + 1)
    names: list[tuple[str, int, int]] = []
    for start, negative_end, kind in sorted(set(found)):
        if not names or start >= names[-1][2]:
            names.append((kind, start, -negative_end))
    return names
