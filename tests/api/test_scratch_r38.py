from __future__ import annotations
import pytest
from tests.api.conftest import AgentHome, Client
from tests.api.test_s1_search import search, topic

CASES = [
    # Thai
    ("ผู้ใช้ชอบดื่มกาแฟตอนเช้า", "ชอบ"), ("ผู้ใช้ชอบดื่มกาแฟตอนเช้า", "ตอนเช้า"), ("ผู้ใช้ชอบดื่มกาแฟตอนเช้า", "ผู้ใช้"),
    ("ผู้ใช้ชอบดื่มกาแฟตอนเช้า", "ใช้"), ("ภาษาไทยไม่มีช่องว่าง", "ช่องว่าง"),
    # Lao, Khmer, Myanmar
    ("ພາສາລາວບໍ່ມີຍະຫວ່າງ", "ລາວ"), ("ភាសាខ្មែរគ្មានដកឃ្លា", "ខ្មែរ"), ("မြန်မာဘာသာစကား", "ဘာသာ"),
    # Devanagari
    ("शुक्रवार को डिप्लॉय नहीं", "डिप्लॉय"), ("शुक्रवार को डिप्लॉय नहीं", "शुक्र"), ("हिन्दीभाषा", "भाषा"),
    # Arabic
    ("النشر ممنوع يوم الجمعة", "ممنوع"), ("النشر ممنوع يوم الجمعة", "الجمعة"), ("والنشر", "النشر"), ("بالجمعة", "الجمعة"),
    # Hebrew
    ("הפריסה אסורה ביום שישי", "שישי"),
    # Hangul jamo (NFD) and compatibility jamo
    ("\u1112\u1161\u11ab\u1100\u1173\u11af", "한글"), ("한글", "\u1112\u1161\u11ab\u1100\u1173\u11af"),
    ("데이터베이스마이그레이션", "마이그"), ("서울에서", "서울"),
    # Japanese/Chinese
    ("用户周末喜欢玩成语接龙游戏", "周末喜欢"), ("毎朝コーヒーを飲む", "コーヒ"), ("ｺｰﾋｰを飲む", "コーヒー"),
    ("ガイド", "ｶﾞｲﾄﾞ"), ("カﾞイド", "ガイド"),
    # Tamil, Bengali, Georgian, Armenian, Ethiopic, Tibetan, Sinhala
    ("தமிழ் மொழி", "மொழி"), ("বাংলা ভাষা", "ভাষা"), ("ქართული ენა", "ენა"), ("Հայերեն լեզու", "լեզու"),
    ("አማርኛ ቋንቋ", "ቋንቋ"), ("བོད་ཡིག", "ཡིག"), ("སྐད་ཡིག", "སྐད"), ("සිංහල භාෂාව", "භාෂාව"),
    # Cyrillic/Greek
    ("Деплой запрещён", "запрещен"), ("Ελληνικά", "ελληνικα"),
    # Vietnamese
    ("Tiếng Việt có dấu", "tieng viet"),
    ("Tiếng Việt có dấu", "dau"),
]

@pytest.mark.parametrize(("body", "query"), CASES)
async def test_scratch(client: Client, agent: AgentHome, body: str, query: str) -> None:
    topic(agent.user, "note.md", "note", "x", body)
    topic(agent.user, "other.md", "other", "x", "nothing")
    results = await search(client, query)
    hits = [(h["file"], [p["text"] for p in h["snippet"] if p["hit"]]) for h in results["hits"]]
    assert hits and hits[0][0] == "note.md" and hits[0][1], (body, query, hits)
    print(body, query, hits)
