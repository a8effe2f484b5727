"""T-2, I-3/Q-2b: an index in a legacy CJK encoding is named, never injected as mojibake.

Bytes that are not UTF-8 used to be read as Windows-1252 whatever they were: a ``MEMORY.md``
saved as Shift-JIS, GB18030, Big5, EUC-JP or EUC-KR reached the model as mojibake and lint said
nothing. Which of those encodings short text is cannot be told reliably (one or two lines of
GB18030 are read as another CJK encoding most of the time), but that it is one of them, and not
Western text, can: such an index is not decoded, its readers say so and name the likely
encoding with the command that converts it. Western 8-bit text is still read as cp1252.
"""

from __future__ import annotations

import random
import re

import pytest
from memory_core.decoding import (
    CP1252_UNDEFINED,
    NOT_DECODED,
    decode_exact,
    decode_file,
    decode_text,
    legacy_multibyte,
    not_decoded_why,
)
from memory_core.lint import lint_topic
from memory_core.topics import parse_topic

JAPANESE = (
    "# メモリ\n- [デプロイ](deploy.md) - 金曜日はデプロイしない\n- [テスト](testing.md) - pytest\n"
)
CHINESE = "# 记忆\n- [部署](deploy.md) - 周五不部署\n- [测试](testing.md) - 使用 pytest\n"
TRADITIONAL = "# 記憶\n- [部署](deploy.md) - 週五不部署\n- [測試](testing.md) - 使用 pytest\n"
KOREAN = "# 메모리\n- [배포](deploy.md) - 금요일에는 배포하지 않음\n"

CJK_CASES = [
    (JAPANESE, "cp932", "Shift-JIS", "iconv -f CP932 -t UTF-8"),
    (JAPANESE, "euc_jp", "EUC-JP", "iconv -f EUC-JP -t UTF-8"),
    (CHINESE, "gb18030", "GBK/GB18030", "iconv -f GB18030 -t UTF-8"),
    (TRADITIONAL, "big5", "Big5", "iconv -f BIG5 -t UTF-8"),
    (KOREAN, "euc_kr", "EUC-KR", "iconv -f EUC-KR -t UTF-8"),
]
WESTERN = [
    "- [Café](cafe.md) - Noël, élève\n",
    "- [niño](nino.md) - año\n",  # ñ + o is a valid Big5 pair: lone accents are no CJK text
    "- [Größe](groesse.md) - Übergröße, Maße und Füße\n",
    "# Mémoire\n- [Déploiement](deploy.md) - pas de déploiement le vendredi\n",
]


@pytest.mark.parametrize(("text", "codec", "known", "iconv"), CJK_CASES, ids=lambda v: str(v)[:8])
def test_t2_a_cjk_index_is_not_decoded_and_why_names_the_encoding_and_the_fix(
    text: str, codec: str, known: str, iconv: str
) -> None:
    raw = text.encode(codec)
    assert legacy_multibyte(raw) is not None
    why = not_decoded_why(raw)
    assert why is not None
    assert why.startswith("does not decode it: it is not UTF-8, and looks like ")
    # the likeliest first, with its iconv command; the others that read it too named after it
    assert known in why
    assert "; convert it to UTF-8 (iconv -f " in why


@pytest.mark.parametrize(("text", "codec", "known", "iconv"), CJK_CASES, ids=lambda v: str(v)[:8])
def test_t2_a_cjk_topic_file_is_not_decoded_and_its_problem_names_the_encoding_and_the_fix(
    text: str, codec: str, known: str, iconv: str
) -> None:
    """One decision per file: a topic file is judged as an index is, never read as mojibake."""
    raw = f"---\nname: x\ndescription: {text.splitlines()[1]}\n---\n{text}".encode(codec)
    topic = parse_topic(raw, "notes.md")
    assert (topic.name, topic.description, topic.body, topic.links) == ("notes", None, "", [])
    [problem] = topic.problems
    assert problem.startswith(NOT_DECODED + "it is not UTF-8, and looks like ")
    assert known in problem and iconv in problem
    assert decode_file(raw) == (None, [problem])
    # decode_text alone still reads cp1252, byte by byte (a byte it does not define, as Shift-JIS
    # and Big5 lead bytes often are, its C1 control: never a whole line as Latin-1), saying what
    # it looks like
    text, [read_as, *_] = decode_text(raw)
    undefined = (
        ", lines? [0-9, and more]+ holds? bytes cp1252 does not define \\(shown as hidden text\\)"
    )
    assert re.search(f"; read as cp1252({undefined})?, but looks like ", read_as), read_as
    assert text == raw.decode("cp1252", CP1252_UNDEFINED)
    assert {ord(char) for char in text} & set(range(0x80, 0xA0)) <= set(b"\x81\x8d\x8f\x90\x9d")


@pytest.mark.parametrize("text", WESTERN, ids=lambda v: v[:12])
def test_t2_western_8bit_text_is_still_read_as_cp1252(text: str) -> None:
    raw = text.encode("cp1252")
    assert legacy_multibyte(raw) is None
    assert not_decoded_why(raw) is None
    assert decode_text(raw)[0] == text


@pytest.mark.parametrize(
    "raw",
    [
        JAPANESE.encode("utf-8"),
        b"\xef\xbb\xbf" + JAPANESE.encode("utf-8"),
        JAPANESE.encode("utf-16"),
    ],
    ids=["utf-8", "utf-8-bom", "utf-16"],
)
def test_t2_unicode_indexes_are_decoded(raw: bytes) -> None:
    assert not_decoded_why(raw) is None
    assert decode_text(raw)[0] == JAPANESE


@pytest.mark.parametrize(("text", "codec", "known", "iconv"), CJK_CASES, ids=lambda v: str(v)[:8])
def test_t2_a_cjk_index_still_decodes_exactly_so_a_delete_can_prune_it(
    text: str, codec: str, known: str, iconv: str
) -> None:
    """A-6: its bytes are kept one for one (read as cp1252, never re-encoded)."""
    raw = text.encode(codec)
    exact = decode_exact(raw)
    assert exact is not None and exact.encode(exact.text) == raw


# --- one or two index lines, generated: how often each is told right ------------------------

_WORDS = {
    "ja": "設定 ビルド手順 デプロイ テスト 金曜日 議事録 環境構築 認証 データベース 障害対応 "
    "手順書 レビュー リリース ログ 監視 バックアップ キャッシュ 東京 しりとり 確認 メモ ユーザー "
    "コード規約 本番",
    "zh": "设置 构建步骤 部署 测试 周五 会议 记录 环境 认证 数据库 故障 手册 审查 发布 日志 监控 "
    "备份 缓存 北京 用户 喜欢 代码规范 迁移 成语接龙 喝咖啡",
    "zh-tw": "設定 建置步驟 部署 測試 週五 會議 紀錄 環境 認證 資料庫 故障 手冊 審查 發佈 日誌 "
    "監控 備份 快取 效能 臺北 使用者 喜歡 程式規範 遷移 網路",
    "ko": "설정 빌드 절차 배포 테스트 금요일 회의 기록 환경 인증 데이터베이스 장애 검토 출시 로그 "
    "감시 백업 캐시 서울 사용자 선호 코드 규칙 작업 개발 운영",
    "de": "Größe Übergröße Maße Füße Bücher schön Straße Prüfung Lösung Gebäude Änderung "
    "Übersicht Käse für über Äpfel hören Öl Fußöl »Zitat« 20°C",
    "fr": "Café Noël élève Déploiement réunion données sécurité préférences à faire théâtre forêt "
    "garçon français où déjà très hôtel reçu naïve l’été œuvre",
    "es": "niño año configuración reunión mañana señor está después información canción "
    "pequeño también así árbol fácil último aquí ¿Qué? ¡Hola! acción",
    "ru": "настройка сборка развертывание тестирование пятница встреча запись окружение база "
    "данных сбой журнал проверка кэш пользователь кофе зерна «итог» №5 ещё",
    "uk": "налаштування збірка розгортання тестування пʼятниця зустріч запис середовище база "
    "даних збій журнал перевірка кеш користувач кава їжа",
    "bg": "настройка сглобяване внедряване тестване петък среща запис среда база данни срив "
    "дневник преглед кеш потребител кафе",
    "pt": "São Paulo configuração ação não informações reunião você também é coração órgão",
}
_CJK_ENCODINGS = [("ja", "cp932"), ("ja", "euc_jp"), ("zh", "gb18030"), ("zh-tw", "big5")]
_CJK_ENCODINGS.append(("ko", "euc_kr"))


def _index_lines(lang: str, codec: str, lines: int, count: int = 150) -> list[bytes]:
    """``count`` indexes of ``lines`` lines such as ``- [設定](settings.md) ― ビルド手順``, in
    ``lang`` written in ``codec`` (the dash it cannot hold written as one it can)."""
    rng = random.Random(f"{lang} {codec} {lines}")  # noqa: S311 - test data, seeded
    words = _WORDS[lang].split()
    joiner = " " if lang in ("ko", "de", "fr", "es", "pt", "ru", "uk", "bg") else ""
    found: list[bytes] = []
    while len(found) < count:
        text = "\n".join(
            f"- [{rng.choice(words)}]({rng.choice(['settings', 'build', 'db'])}.md) "
            f"{rng.choice(['—', '-', ':'])} "
            + joiner.join(rng.choice(words) for _ in range(rng.randint(1, 3)))
            for _ in range(lines)
        ) + rng.choice(["\n", ""])
        for dash in ("—", "―", "-"):
            try:
                raw = text.replace("—", dash).encode(codec)
            except UnicodeEncodeError:
                continue
            found.append(raw)
            break
    return found


_WESTERN = ("cp1252", "latin_1")
_WESTERN_ENCODINGS = [(lang, codec) for lang in ("de", "fr", "es", "pt") for codec in _WESTERN]


@pytest.mark.parametrize("lines", [1, 2])
@pytest.mark.parametrize(("lang", "codec"), _CJK_ENCODINGS, ids=lambda v: str(v))
def test_t2_short_cjk_indexes_are_told_as_cjk(lang: str, codec: str, lines: int) -> None:
    """A one-line Shift-JIS index (katakana's trail bytes are ASCII, ``デ`` is ``0x83 0x66``)
    was read as cp1252 about one time in ten, Big5 one time in eight: now at most 2 %."""
    samples = _index_lines(lang, codec, lines)
    told = [raw for raw in samples if legacy_multibyte(raw) is not None]
    assert len(told) >= 0.98 * len(samples), [
        raw.decode(codec) for raw in samples if raw not in told
    ][:5]
    assert all(not_decoded_why(raw) is not None for raw in told)


@pytest.mark.parametrize("lines", [1, 2])
@pytest.mark.parametrize(("lang", "codec"), _WESTERN_ENCODINGS, ids=lambda v: str(v))
def test_t2_short_western_indexes_are_never_told_as_cjk(lang: str, codec: str, lines: int) -> None:
    """``ação``, ``Füße``: two accented letters in a row are valid Big5 or GBK pairs, yet stand
    where Western letters do; such an index is read as cp1252 (or Latin-1), never refused."""
    samples = _index_lines(lang, codec, lines)
    taken = [raw.decode(codec) for raw in samples if legacy_multibyte(raw) is not None]
    assert taken == []
    assert all(not_decoded_why(raw) is None for raw in samples)


_CYRILLIC = [("ru", "cp1251"), ("uk", "cp1251"), ("bg", "cp1251")]


@pytest.mark.parametrize("lines", [1, 2])
@pytest.mark.parametrize(("lang", "codec"), _CYRILLIC, ids=lambda v: str(v))
def test_t2_short_cyrillic_indexes_are_told_as_windows_1251(
    lang: str, codec: str, lines: int
) -> None:
    """``Кофе`` in Windows-1251 is ``Êîôå`` in cp1252, every byte an accented Latin letter:
    such an index was read as cp1252 and injected as mojibake; now it is named as Windows-1251
    and its lines are shown in it."""
    samples = _index_lines(lang, codec, lines)
    told = [raw for raw in samples if legacy_multibyte(raw) == "cp1251"]
    assert len(told) >= 0.98 * len(samples), [
        raw.decode(codec) for raw in samples if raw not in told
    ][:5]
    assert all("looks like Windows-1251 (Cyrillic)" in (not_decoded_why(raw) or "") for raw in told)


@pytest.mark.parametrize(("lang", "codec"), _CJK_ENCODINGS, ids=lambda v: str(v))
def test_t2_short_cjk_indexes_are_seldom_told_as_cyrillic(lang: str, codec: str) -> None:
    """CJK bytes read as Windows-1251 hold signs no Cyrillic text has (``Ѓ``, ``ў``) or pairs
    glued to ASCII letters: at most 1 % of one-line indexes."""
    samples = _index_lines(lang, codec, 1)
    cyrillic = [raw.decode(codec) for raw in samples if legacy_multibyte(raw) == "cp1251"]
    assert len(cyrillic) <= 0.01 * len(samples), cyrillic


def test_t2_q2b_a_cjk_topic_file_is_linted_unreadable_and_nothing_else() -> None:
    """Its missing description or name is no finding of its own: none of its text is read."""
    raw = "---\nname: 設定\ndescription: ビルド手順\n---\n本文\n".encode("cp932")
    [finding] = lint_topic(parse_topic(raw, "settings.md"))
    assert (finding.code, finding.severity, finding.file) == ("unreadable", "error", "settings.md")
    assert finding.message.startswith("settings.md is there but the service does not decode it: ")
    assert "Shift-JIS" in finding.message and "iconv -f CP932 -t UTF-8" in finding.message


# --- one CJK word in English text, generated: a short run in mostly-ASCII legacy text --------

_ENGLISH = [
    "Use the {} before deploying to production.",
    "- [{}](db.md) - the database notes",
    "The team calls it {}.\nAnother English line about deploys.\n",
    "---\nname: db\ndescription: database notes\n---\nWe keep the schema in {} now.\n",
    "Deploys go out on Tuesday ({}) after review.",
]


def _in_english(lang: str, codec: str) -> list[bytes]:
    """Each word of two or more characters of ``lang`` in each English line, in ``codec``."""
    found: list[bytes] = []
    for word in _WORDS[lang].split():
        for line in _ENGLISH:
            try:
                found.append(line.format(word).encode(codec))
            except UnicodeEncodeError:
                continue
    return found


@pytest.mark.parametrize(
    ("lang", "codec"), [*_CJK_ENCODINGS, ("zh-tw", "gb18030"), ("ja", "big5")], ids=str
)
def test_t2_one_cjk_word_in_english_text_is_told_as_cjk(lang: str, codec: str) -> None:
    """GBK writes traditional characters, and Big5 and Shift-JIS many of theirs, with an ASCII
    trail byte (``資料`` in GB18030 is ``ÙYÁÏ`` read as cp1252): a word of them in an English
    line showed too few bytes unlike Western text and was read as cp1252, mojibake that no
    search finds. A word of two or more such characters standing apart from ASCII letters is
    CJK text; one character alone (two bytes, as ``Öl`` or ``ça``) cannot be told."""
    samples = [raw for raw in _in_english(lang, codec) if len(raw.decode(codec)) < len(raw)]
    assert len(samples) > 50
    missed = [raw.decode(codec) for raw in samples if legacy_multibyte(raw) is None]
    assert missed == []


@pytest.mark.parametrize(("lang", "codec"), _WESTERN_ENCODINGS, ids=str)
def test_t2_one_accented_word_in_english_text_is_never_told_as_cjk(lang: str, codec: str) -> None:
    """The same English lines with a German, French, Spanish or Portuguese word (``Öl``,
    ``ça``, ``¿Qué?``, ``São``) stay Windows-1252 or Latin-1."""
    samples = _in_english(lang, codec)
    assert len(samples) > 50
    assert [raw.decode(codec) for raw in samples if legacy_multibyte(raw) is not None] == []
