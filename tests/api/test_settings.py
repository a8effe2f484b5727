"""A-11 configuration from environment variables."""

from __future__ import annotations

import os
from pathlib import Path

import memory_api
import pytest
from memory_api.bearer import hash_secret
from memory_api.settings import Settings, SettingsError


def test_a11_defaults(tmp_path: Path) -> None:
    settings = Settings.from_env({"MEMORY_API_DATA_DIR": str(tmp_path)})
    assert settings.data_dir == tmp_path.resolve()
    assert (settings.host, settings.port) == ("127.0.0.1", 8765)
    assert settings.env_tokens == ()
    assert settings.log_format == "text"
    assert settings.chat_url is None
    assert settings.draft_ttl == 3600
    assert settings.max_body == 1024 * 1024
    assert (settings.header_timeout, settings.body_timeout) == (20, 30)
    assert (settings.history, settings.history_max_age_days, settings.history_max_versions) == (
        True,
        365,
        10_000,
    )


def test_a11_default_data_dir_follows_xdg(tmp_path: Path) -> None:
    settings = Settings.from_env({"XDG_DATA_HOME": str(tmp_path)})
    assert settings.data_dir == tmp_path.resolve() / "agent-memory"


@pytest.mark.parametrize(
    ("raw", "host"),
    [("[::1]", "::1"), (" [0:0::1] ", "0:0::1"), ("ip6-localhost ", "ip6-localhost"),
     ("", "127.0.0.1")],
)  # fmt: skip
def test_a10_memory_api_host_is_read_as_the_resolver_takes_it(raw: str, host: str) -> None:
    """``[::1]``, written as in a URL, was passed on with its brackets: the bind then failed
    with "Name or service not known" after the log said it bound to loopback."""
    assert Settings.from_env({"MEMORY_API_HOST": raw}).host == host


def test_a11_every_variable(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {
            "MEMORY_API_DATA_DIR": str(tmp_path),
            "MEMORY_API_HOST": "0.0.0.0",  # noqa: S104 - only parsed
            "MEMORY_API_PORT": "9000",
            "MEMORY_API_TOKENS": "admin=0123456789abcdef0123, bot:acme|globex=fedcba9876543210fedc",
            "MEMORY_API_LOG_FORMAT": "JSON",
            "MEMORY_API_LOG_LEVEL": "debug",
            "MEMORY_API_CHAT_URL": "https://chat/{project}/{agent}?draft={draftId}",
            "MEMORY_API_DRAFT_TTL": "60",
            "MEMORY_API_MAX_BODY": "4096",
            "MEMORY_API_HISTORY": "off",
            "MEMORY_API_HISTORY_MAX_AGE_DAYS": "30",
            "MEMORY_API_HISTORY_MAX_VERSIONS": "0",
            "MEMORY_API_MAX_CONNECTIONS_PER_CLIENT": "8",
            "MEMORY_API_HEADER_TIMEOUT": "5",
            "MEMORY_API_BODY_TIMEOUT": "7",
            "MEMORY_API_IDLE_TIMEOUT": "30",
        }
    )
    assert (settings.host, settings.port, settings.log_format) == ("0.0.0.0", 9000, "json")  # noqa: S104
    assert settings.log_level == "DEBUG"
    admin, bot = settings.env_tokens
    assert (admin.name, admin.projects, admin.sha256) == (
        "admin",
        None,
        hash_secret("0123456789abcdef0123"),
    )
    assert (bot.name, bot.projects) == ("bot", ("acme", "globex"))
    assert "fedcba" not in repr(settings)
    assert (settings.draft_ttl, settings.max_body) == (60, 4096)
    assert (settings.history, settings.history_max_age_days, settings.history_max_versions) == (
        False,
        30,
        0,
    )
    assert (
        settings.max_connections_per_client,
        settings.header_timeout,
        settings.body_timeout,
        settings.idle_timeout,
    ) == (8, 5.0, 7.0, 30.0)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("MEMORY_API_PORT", "http", "MEMORY_API_PORT must be a whole number from 0 to 65535"),
        ("MEMORY_API_PORT", "70000", "MEMORY_API_PORT must be a whole number from 0 to 65535"),
        # read as serve --port is: decimal digits only (int() took these)
        ("MEMORY_API_PORT", "+80", "MEMORY_API_PORT must be a whole number from 0 to 65535"),
        ("MEMORY_API_PORT", "8_0", "MEMORY_API_PORT must be a whole number from 0 to 65535"),
        ("MEMORY_API_LOG_FORMAT", "xml", "'text' or 'json'"),
        ("MEMORY_API_LOG_LEVEL", "LOUD", "logging level"),
        ("MEMORY_API_TOKENS", "nosecret", "name=secret"),
        ("MEMORY_API_TOKENS", "a=short", "at least 16"),
        ("MEMORY_API_TOKENS", "a:Bad Project=0123456789abcdef", "invalid project"),
        # a reach meant, none written: it left the token reaching every project
        ("MEMORY_API_TOKENS", "a:=0123456789abcdef", "no project after ':'"),
        ("MEMORY_API_TOKENS", "a: =0123456789abcdef", "no project after ':'"),
        ("MEMORY_API_TOKENS", "a=0123456789abcdef,a=0123456789abcdeg", "unique"),
        ("MEMORY_API_CHAT_URL", "https://chat/new", "{draftId}"),
        ("MEMORY_API_CHAT_URL", "ftp://x/{draftId}", "http(s)"),
        ("MEMORY_API_DRAFT_TTL", "0", ">= 1"),
        ("MEMORY_API_HISTORY", "maybe", "'on' or 'off'"),
        ("MEMORY_API_HISTORY_MAX_VERSIONS", "-1", ">= 0"),
        ("MEMORY_API_MAX_CONNECTIONS_PER_CLIENT", "-1", ">= 0"),
        ("MEMORY_API_HEADER_TIMEOUT", "0", "between 1 and 3600"),
        ("MEMORY_API_BODY_TIMEOUT", "0", "between 1 and 3600"),
        ("MEMORY_API_IDLE_TIMEOUT", "soon", "MEMORY_API_IDLE_TIMEOUT must be an integer"),
    ],
)
def test_a11_bad_values_name_the_variable(
    tmp_path: Path, name: str, value: str, message: str
) -> None:
    with pytest.raises(SettingsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Settings.from_env({"MEMORY_API_DATA_DIR": str(tmp_path), name: value})


def test_token_secret_never_in_settings_errors(tmp_path: Path) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"MEMORY_API_TOKENS": "a:Bad=topsecretvalue0000000"})
    assert "topsecretvalue" not in str(caught.value)


def test_a10_tokens_file_is_read_like_the_variable(tmp_path: Path) -> None:
    """A mounted secret (docs/deploy.md): one entry a line, comment lines, hashed at load."""
    tokens = tmp_path / "tokens"
    tokens.write_text(
        "# issued 2026-11\nadmin=0123456789abcdef0123\n\n  bot:acme=fedcba9876543210#fedc\n",
        encoding="utf-8",
    )
    settings = Settings.from_env(
        {
            "MEMORY_API_DATA_DIR": str(tmp_path),
            "MEMORY_API_TOKENS": "ci=aaaaaaaaaaaaaaaaaaaa",
            "MEMORY_API_TOKENS_FILE": str(tokens),
        }
    )
    assert [(entry.name, entry.projects) for entry in settings.env_tokens] == [
        ("ci", None),
        ("admin", None),
        ("bot", ("acme",)),
    ]
    assert settings.env_tokens[2].sha256 == hash_secret("fedcba9876543210#fedc")


def test_a10_a_tokens_file_starting_with_a_bom_is_read_without_it(tmp_path: Path) -> None:
    """Windows editors (Notepad, "UTF-8 with BOM") start a file with U+FEFF: no part of the
    first token's name. A BOM anywhere else is still a character of its entry."""
    tokens = tmp_path / "tokens"
    tokens.write_bytes(b"\xef\xbb\xbfops=0123456789abcdef0123\r\nbot=fedcba9876543210fedc\r\n")
    env = {"MEMORY_API_DATA_DIR": str(tmp_path), "MEMORY_API_TOKENS_FILE": str(tokens)}
    settings = Settings.from_env(env)
    assert [entry.name for entry in settings.env_tokens] == ["ops", "bot"]
    assert settings.env_tokens[0].sha256 == hash_secret("0123456789abcdef0123")
    tokens.write_bytes(b"ops=0123456789abcdef0123\n\xef\xbb\xbfbot=fedcba9876543210fedc\n")
    with pytest.raises(SettingsError, match=r"token name '\\ufeffbot'"):
        Settings.from_env(env)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        (b"\xff\xfe", "not UTF-8"),
        (b"admin=short", "at least 16"),
        (b"ci=0123456789abcdef0123", "unique"),
        (b"x" * (1024 * 1024 + 1), "is over"),
    ],
)
def test_a10_bad_tokens_file_names_the_variable(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    tokens = tmp_path / "tokens"
    if content is not None:
        tokens.write_bytes(content)
    env = {
        "MEMORY_API_DATA_DIR": str(tmp_path),
        "MEMORY_API_TOKENS": "ci=aaaaaaaaaaaaaaaaaaaa",
        "MEMORY_API_TOKENS_FILE": str(tokens),
    }
    with pytest.raises(SettingsError, match="MEMORY_API_TOKENS_FILE") as caught:
        Settings.from_env(env)
    assert message in str(caught.value)


SECRET_HEAD = "mem_0123456789ab"
SECRET_TAIL = "cdef0123456789"


@pytest.mark.parametrize(
    ("char", "said"),
    [
        ("\n", "a line break (LF) (U+000A)"),
        ("\r", "a line break (CR) (U+000D)"),
        ("\t", "a control character (U+0009)"),
        ("\x1b", "a control character (U+001B)"),
        ("\x7f", "a control character (U+007F)"),
        ("\x85", "non-ASCII (U+0085)"),
        ("\u00e9", "non-ASCII (U+00E9)"),
        ("\u2028", "non-ASCII (U+2028)"),
    ],
)
def test_a10a_a_secret_no_authorization_header_can_carry_is_refused_at_load(
    tmp_path: Path, char: str, said: str
) -> None:
    """A secret holding a line break, a control or a non-ASCII character was loaded as a token
    no client could ever send (``Authorization: Bearer …`` ends at a line break; clients send
    other bytes as Latin-1, UTF-8 or not at all): refused naming the variable, the token and
    the character, never the secret."""
    secret = f"{SECRET_HEAD}{char}{SECRET_TAIL}"
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(
            {"MEMORY_API_DATA_DIR": str(tmp_path), "MEMORY_API_TOKENS": f"ci={secret}"}
        )
    message = str(caught.value)
    assert message.startswith("MEMORY_API_TOKENS: token 'ci': the secret holds ")
    assert f"{said} at character {len(SECRET_HEAD) + 1}" in message
    assert "Authorization header cannot carry" in message
    assert SECRET_HEAD not in message and SECRET_TAIL not in message


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\t", "\u00e9"])
def test_a10a_a_tokens_file_secret_no_header_can_carry_is_refused_at_load(
    tmp_path: Path, char: str
) -> None:
    """The same in ``MEMORY_API_TOKENS_FILE`` (a line break there ends the entry)."""
    tokens = tmp_path / "tokens"
    tokens.write_text(f"ok=0123456789abcdef0123\nbot:acme={SECRET_HEAD}{char}{SECRET_TAIL}\n")
    env = {"MEMORY_API_DATA_DIR": str(tmp_path), "MEMORY_API_TOKENS_FILE": str(tokens)}
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(env)
    message = str(caught.value)
    assert message.startswith("MEMORY_API_TOKENS_FILE: token 'bot': the secret holds ")
    assert f"(U+{ord(char):04X}) at character {len(SECRET_HEAD) + 1}" in message
    assert SECRET_HEAD not in message and SECRET_TAIL not in message


def test_a10a_a_secret_of_visible_ascii_and_spaces_is_loaded(tmp_path: Path) -> None:
    """Every character a header carries as written still makes a secret (a space inside too:
    ``Bearer a b`` is read as the secret ``a b``)."""
    secret = "".join(chr(code) for code in range(0x20, 0x7F)).replace(",", "").replace("=", "")
    env = {"MEMORY_API_DATA_DIR": str(tmp_path), "MEMORY_API_TOKENS": f"ci=x{secret}"}
    [entry] = Settings.from_env(env).env_tokens
    assert entry.sha256 == hash_secret(f"x{secret}")


def test_public_surface() -> None:
    assert memory_api.__all__ == ["Settings", "create_app"]
    for name in memory_api.__all__:
        assert getattr(memory_api, name) is not None


@pytest.mark.parametrize(
    "content", ["", "\n\n", "# issued 2026-11\n\n   # rotate monthly\n", ",\n"]
)
def test_a10a_tokens_file_without_a_token_refuses_to_start(tmp_path: Path, content: str) -> None:
    """Naming a tokens file asks for tokens: one holding none must not start the service open."""
    tokens = tmp_path / "tokens"
    tokens.write_text(content, encoding="utf-8")
    env = {"MEMORY_API_DATA_DIR": str(tmp_path), "MEMORY_API_TOKENS_FILE": str(tokens)}
    with pytest.raises(SettingsError, match="MEMORY_API_TOKENS_FILE") as caught:
        Settings.from_env(env)
    assert f"{tokens} holds no token" in str(caught.value)
    assert "unset MEMORY_API_TOKENS_FILE" in str(caught.value)


@pytest.mark.parametrize("value", [",", " , ,"])
def test_a10a_tokens_variable_without_a_token_refuses_to_start(tmp_path: Path, value: str) -> None:
    env = {"MEMORY_API_DATA_DIR": str(tmp_path), "MEMORY_API_TOKENS": value}
    with pytest.raises(SettingsError, match="MEMORY_API_TOKENS holds no token") as caught:
        Settings.from_env(env)
    assert "unset it: then the service takes the data dir's token files" in str(caught.value)


@pytest.mark.parametrize("value", ["", " ", "\t"])
@pytest.mark.parametrize("name", ["MEMORY_API_TOKENS", "MEMORY_API_TOKENS_FILE"])
def test_a10a_a_token_variable_set_empty_refuses_to_start(
    tmp_path: Path, name: str, value: str
) -> None:
    """Set but empty (a ``${TOKENS}`` of an env file, a systemd unit or Compose with nothing in
    it) asks for tokens as ``" , "`` does: it never starts the service open (A-10a)."""
    env = {"MEMORY_API_DATA_DIR": str(tmp_path), name: value}
    with pytest.raises(SettingsError, match=f"{name} is set but empty") as caught:
        Settings.from_env(env)
    unset = (  # not "run without tokens": the data dir's token files still apply
        "give tokens, or unset it: then the service takes the data dir's token files "
        "(`memory-api token create` makes one), and with none it runs open, on loopback only"
    )
    assert unset in str(caught.value)


def test_a10a_token_variables_unset_mean_no_tokens(tmp_path: Path) -> None:
    """Unset is open loopback mode, said at start."""
    assert Settings.from_env({"MEMORY_API_DATA_DIR": str(tmp_path)}).env_tokens == ()


@pytest.mark.parametrize("kind", ["fifo", "folder", "device", "link to a fifo"])
def test_a10a_tokens_file_that_is_not_a_regular_file_is_refused_unread(
    tmp_path: Path, kind: str
) -> None:
    """A FIFO nobody writes would block the start for ever: it is refused before any read."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # nobody writes it
    folder = tmp_path / "folder"
    folder.mkdir()
    link = tmp_path / "link"
    link.symlink_to(fifo)
    path = {"fifo": fifo, "folder": folder, "device": Path(os.devnull), "link to a fifo": link}
    said = {
        "fifo": "a FIFO",
        "folder": "a folder",
        "device": "a device",
        "link to a fifo": "a FIFO",
    }
    env = {"MEMORY_API_DATA_DIR": str(tmp_path), "MEMORY_API_TOKENS_FILE": str(path[kind])}
    with pytest.raises(SettingsError, match="MEMORY_API_TOKENS_FILE") as caught:
        Settings.from_env(env)
    assert f"{path[kind]} is {said[kind]}, not a regular file" in str(caught.value)
