"""T-2, Q-2b: which legacy encoding a short index is in is told right, or said to be unknown.

One or two lines of a ``MEMORY.md`` written in GBK/GB18030 were taken for EUC-KR two times in
three (``咖啡`` shown as ``엣렸``, and ``iconv -f EUC-KR`` given as the fix), Big5 for
Shift-JIS one time in four, EUC-JP for GB18030 or EUC-KR one time in five; KOI8-R was named
Windows-1251. The lines here are index lines as people write them (a title, its file, a short
description), each alone and in pairs: every one is read in its own encoding. A title alone
(two to four characters) is often too short to tell Chinese from Japanese or Korean: then the
note names every encoding it may be in, with the command for each, and no reading of it is
shown as its text; it is never named as another one it is not in.
"""

from __future__ import annotations

import re

import pytest
from memory_core.decoding import (
    legacy_readings,
    not_decoded_why,
    shown_lines,
    shown_text,
)

from tests.core.test_t2_legacy_cjk_index import _index_lines

CHINESE = """- [部署流程](deploy.md) — 周五下午不要部署到生产环境
- [数据库迁移](db-migrations.md) - 迁移前先备份，用 alembic 升级
- [代码风格](style.md) - 用 ruff 格式化，行宽一百
- [用户偏好](prefs.md) - 喜欢简短的回答，不要表情符号
- [测试](testing.md) - 提交前运行全部单元测试
- [缓存](cache.md) - Redis 缓存键以项目名开头
- [日志](logging.md) - 错误日志写到文件，不要打印到控制台
- [接口约定](api.md) - 所有接口返回 JSON，时间用 UTC
- [发布](release.md) - 版本号按语义化版本规则递增
- [故障记录](incidents.md) - 上周三数据库连接池耗尽
- [权限](auth.md) - 令牌放在环境变量里，不要写进代码
- [前端](frontend.md) - 组件用函数式写法
- [会议](meetings.md) - 每周一上午十点站会
- [依赖](deps.md) - 新依赖要先经过审查
- [监控](monitoring.md) - 告警阈值是百分之九十
- [文档](docs.md) - 文档用中文写，术语保留英文
- [构建](build.md) - 用 make 构建，不要手动编译
- [性能](perf.md) - 首页加载要在两秒以内
- [安全](security.md) - 密码必须加盐哈希
- [备份](backup.md) - 每天凌晨三点自动备份
- [环境变量](env.md) - 本地开发用 .env 文件
- [分支策略](branching.md) - 主分支受保护，合并需要两人审批
- [客户](customers.md) - 北京的客户要求中文界面
- [咖啡](coffee.md) - 用户喜欢喝咖啡
- [翻译](i18n.md) - 界面文字放在资源文件里
- [队列](queue.md) - 任务失败后重试三次
- [配置](config.md) - 配置文件放在项目根目录
- [错误处理](errors.md) - 不要吞掉异常
- [类型检查](typing.md) - 新代码必须通过严格模式
- [周报](weekly.md) - 周五下班前发周报"""
TRADITIONAL = """- [部署流程](deploy.md) — 週五下午不要部署到正式環境
- [資料庫遷移](db-migrations.md) - 遷移前先備份，用 alembic 升級
- [程式風格](style.md) - 用 ruff 格式化，行寬一百
- [使用者偏好](prefs.md) - 喜歡簡短的回答，不要表情符號
- [測試](testing.md) - 提交前執行全部單元測試
- [快取](cache.md) - Redis 快取鍵以專案名稱開頭
- [日誌](logging.md) - 錯誤日誌寫到檔案，不要印到主控台
- [介面約定](api.md) - 所有介面回傳 JSON，時間用 UTC
- [發佈](release.md) - 版本號依語意化版本規則遞增
- [故障紀錄](incidents.md) - 上週三資料庫連線池耗盡
- [權限](auth.md) - 權杖放在環境變數裡，不要寫進程式碼
- [前端](frontend.md) - 元件用函式寫法
- [會議](meetings.md) - 每週一上午十點站立會議
- [相依套件](deps.md) - 新套件要先經過審查
- [監控](monitoring.md) - 警示門檻是百分之九十
- [文件](docs.md) - 文件用中文寫，術語保留英文
- [建置](build.md) - 用 make 建置，不要手動編譯
- [效能](perf.md) - 首頁載入要在兩秒以內
- [安全](security.md) - 密碼必須加鹽雜湊
- [備份](backup.md) - 每天凌晨三點自動備份
- [環境變數](env.md) - 本機開發用 .env 檔案
- [分支策略](branching.md) - 主分支受保護，合併需要兩人核准
- [客戶](customers.md) - 臺北的客戶要求中文介面
- [咖啡](coffee.md) - 使用者喜歡喝咖啡
- [翻譯](i18n.md) - 介面文字放在資源檔裡
- [佇列](queue.md) - 工作失敗後重試三次
- [設定](config.md) - 設定檔放在專案根目錄
- [錯誤處理](errors.md) - 不要吞掉例外
- [型別檢查](typing.md) - 新程式碼必須通過嚴格模式
- [週報](weekly.md) - 週五下班前寄週報"""
KOREAN = """- [배포 절차](deploy.md) — 금요일 오후에는 운영 서버에 배포하지 않는다
- [데이터베이스 마이그레이션](db-migrations.md) - 마이그레이션 전에 먼저 백업한다
- [코드 스타일](style.md) - ruff로 포맷하고 한 줄은 백 자까지
- [사용자 취향](prefs.md) - 짧은 답변을 좋아하고 이모지는 싫어한다
- [테스트](testing.md) - 커밋 전에 단위 테스트를 모두 실행한다
- [캐시](cache.md) - Redis 캐시 키는 프로젝트 이름으로 시작한다
- [로그](logging.md) - 오류 로그는 파일에 쓰고 콘솔에 출력하지 않는다
- [API 규칙](api.md) - 모든 응답은 JSON이고 시간은 UTC를 쓴다
- [릴리스](release.md) - 버전 번호는 유의적 버전을 따른다
- [장애 기록](incidents.md) - 지난 수요일 연결 풀이 고갈되었다
- [권한](auth.md) - 토큰은 환경 변수에 두고 코드에 넣지 않는다
- [프론트엔드](frontend.md) - 컴포넌트는 함수형으로 작성한다
- [회의](meetings.md) - 매주 월요일 오전 열 시에 회의가 있다
- [의존성](deps.md) - 새 의존성은 먼저 검토를 받는다
- [모니터링](monitoring.md) - 경보 기준은 구십 퍼센트이다
- [문서](docs.md) - 문서는 한국어로 쓰고 용어는 영어로 둔다
- [빌드](build.md) - make로 빌드하고 직접 컴파일하지 않는다
- [성능](perf.md) - 첫 화면은 이 초 안에 떠야 한다
- [보안](security.md) - 비밀번호는 반드시 솔트를 넣어 해시한다
- [백업](backup.md) - 매일 새벽 세 시에 자동으로 백업한다
- [환경 변수](env.md) - 로컬 개발에는 .env 파일을 쓴다
- [브랜치 전략](branching.md) - 메인 브랜치는 보호되고 두 명의 승인이 필요하다
- [고객](customers.md) - 서울 고객은 한국어 화면을 원한다
- [커피](coffee.md) - 사용자는 커피를 좋아한다
- [번역](i18n.md) - 화면 문구는 리소스 파일에 둔다
- [큐](queue.md) - 작업이 실패하면 세 번 다시 시도한다
- [설정](config.md) - 설정 파일은 프로젝트 루트에 둔다
- [오류 처리](errors.md) - 예외를 삼키지 않는다
- [타입 검사](typing.md) - 새 코드는 엄격 모드를 통과해야 한다
- [주간 보고](weekly.md) - 금요일 퇴근 전에 주간 보고를 보낸다"""
JAPANESE = """- [デプロイ手順](deploy.md) — 金曜日の午後は本番にデプロイしない
- [マイグレーション](db-migrations.md) - 移行の前に必ずバックアップを取る
- [コード規約](style.md) - ruff で整形し、一行は百文字まで
- [ユーザーの好み](prefs.md) - 短い回答が好きで、絵文字は使わない
- [テスト](testing.md) - コミット前に単体テストをすべて実行する
- [キャッシュ](cache.md) - Redis のキーはプロジェクト名で始める
- [ログ](logging.md) - エラーログはファイルに書き、画面に出さない
- [API の約束](api.md) - 応答はすべて JSON、時刻は UTC
- [リリース](release.md) - バージョン番号はセマンティックバージョニングに従う
- [障害記録](incidents.md) - 先週の水曜日に接続プールが枯渇した
- [権限](auth.md) - トークンは環境変数に置き、コードに書かない
- [フロントエンド](frontend.md) - コンポーネントは関数で書く
- [会議](meetings.md) - 毎週月曜日の十時に朝会
- [依存関係](deps.md) - 新しい依存はレビューを通してから入れる
- [監視](monitoring.md) - 警告のしきい値は九十パーセント
- [文書](docs.md) - 文書は日本語で書き、用語は英語のまま
- [ビルド](build.md) - make でビルドし、手で翻訳しない
- [性能](perf.md) - トップページは二秒以内に表示する
- [安全](security.md) - パスワードは必ずソルト付きでハッシュする
- [バックアップ](backup.md) - 毎日午前三時に自動で取る
- [環境変数](env.md) - ローカル開発では .env を使う
- [ブランチ戦略](branching.md) - main は保護され、二人の承認が要る
- [顧客](customers.md) - 東京の顧客は日本語の画面を求めている
- [コーヒー](coffee.md) - ユーザーはコーヒーが好き
- [翻訳](i18n.md) - 画面の文言はリソースファイルに置く
- [キュー](queue.md) - 失敗したジョブは三回まで再試行する
- [設定](config.md) - 設定ファイルはプロジェクトの直下に置く
- [例外処理](errors.md) - 例外を握りつぶさない
- [型検査](typing.md) - 新しいコードは厳格モードを通す
- [週報](weekly.md) - 金曜日の退勤前に週報を送る"""

RUSSIAN = """- [Развертывание](deploy.md) - не выкатывать в пятницу после обеда
- [Сборка](build.md) - собирать через make, не руками
- [Кофе](coffee.md) - пользователь любит кофе без сахара
- [Тесты](testing.md) - перед коммитом запускать все модульные тесты
- [Кэш](cache.md) - ключи Redis начинаются с имени проекта
- [Журнал](logging.md) - ошибки писать в файл, а не в консоль
- [Миграции](db-migrations.md) - перед миграцией делать резервную копию
- [Стиль кода](style.md) - форматировать ruff, строка до ста символов
- [Права](auth.md) - токены хранить в переменных окружения
- [Встречи](meetings.md) - по понедельникам в десять утра
- [Мониторинг](monitoring.md) - порог тревоги девяносто процентов
- [Выпуск](release.md) - номер версии по семантическому версионированию
- [Клиенты](customers.md) - московские клиенты просят русский интерфейс
- [Очередь](queue.md) - упавшую задачу повторять три раза
- [Настройки](config.md) - файл настроек лежит в корне проекта"""

_CASES = [
    (CHINESE, "gb18030"),
    (CHINESE, "gbk"),
    (TRADITIONAL, "big5"),
    (KOREAN, "euc_kr"),
    (JAPANESE, "cp932"),
    (JAPANESE, "euc_jp"),
    (RUSSIAN, "cp1251"),
    (RUSSIAN, "koi8_r"),
]
_OURS = {"gbk": "gb18030"}
"""GBK text is GB18030 text (its superset): named so, and converted from it."""


def _lines(text: str, codec: str) -> list[str]:
    """``text``'s lines, each dash a hyphen where ``codec`` has no em dash."""
    return [line if _fits(line, codec) else line.replace("—", "-") for line in text.splitlines()]


def _fits(line: str, codec: str) -> bool:
    try:
        line.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


@pytest.mark.parametrize("together", [1, 2])
@pytest.mark.parametrize(("text", "codec"), _CASES, ids=[codec for _, codec in _CASES])
def test_t2_each_short_index_is_read_in_its_own_encoding(
    text: str, codec: str, together: int
) -> None:
    lines = _lines(text, codec)
    indexes = [
        "".join(lines[at - part] + "\n" for part in range(together)) for at in range(len(lines))
    ]
    told = {index: legacy_readings(index.encode(codec)) for index in indexes}
    assert {
        index: found for index, found in told.items() if found != (_OURS.get(codec, codec),)
    } == {}


@pytest.mark.parametrize(("text", "codec"), _CASES[:6], ids=[codec for _, codec in _CASES[:6]])
def test_t2_a_title_alone_is_read_right_or_said_to_be_any_of_a_few_never_another(
    text: str, codec: str
) -> None:
    """``- [設定](config.md)`` is Japanese in EUC-JP and Chinese in GB18030 alike."""
    ours = _OURS.get(codec, codec)
    titles = [re.match(r"- \[[^]]*\]\([^)]*\)", line).group() for line in _lines(text, codec)]  # type: ignore[union-attr]
    wrong, undecided = [], 0
    for title in titles:
        found = legacy_readings(title.encode(codec) + b"\n")
        if found is None:  # one character alone cannot be told from Western text (``Öl``)
            assert len(re.sub(r"[ -~]", "", title)) == 1, title
        elif len(found) > 1:
            undecided += 1
            assert ours in found, (title, found)
        elif found != (ours,):
            wrong.append((title, found))
    assert wrong == []
    assert undecided <= len(titles) * 0.7  # most titles of four characters or more are told


def test_t2_an_index_too_short_to_tell_names_every_encoding_and_shows_no_guess() -> None:
    raw = "- [咖啡](coffee.md)\n".encode("gb18030")  # 엣렸 in EUC-KR, 色携 in EUC-JP
    readings = legacy_readings(raw)
    assert readings is not None and len(readings) > 1 and "gb18030" in readings
    why = not_decoded_why(raw)
    assert why is not None
    assert ", too little text to tell which (" in why
    assert "GBK/GB18030" in why and "iconv -f GB18030 -t UTF-8" in why
    assert why.count("iconv -f ") == len(readings)
    assert shown_text(raw) == "- [\ufffd\ufffd\ufffd\ufffd](coffee.md)\n"
    [line] = shown_lines(raw, [raw.decode("cp1252").rstrip("\n")])
    assert line == "- [\ufffd\ufffd\ufffd\ufffd](coffee.md)"


@pytest.mark.parametrize(
    ("text", "codec", "named", "iconv"),
    [
        ("- [咖啡](coffee.md) - 用户喜欢喝咖啡\n", "gb18030", "GBK/GB18030", "GB18030"),
        (
            "- [部署](deploy.md) - 周五不部署\n- [测试](testing.md) - 使用 pytest\n",
            "gbk",
            "GBK/GB18030",
            "GB18030",
        ),
        ("- [커피](coffee.md) - 사용자는 커피를 좋아한다\n", "euc_kr", "EUC-KR", "EUC-KR"),
        (
            "- [Кофе](coffee.md) - пользователь любит кофе\n",
            "koi8_r",
            "KOI8-R (Cyrillic)",
            "KOI8-R",
        ),
    ],
    ids=["gb18030", "gbk", "euc_kr", "koi8_r"],
)
def test_t2_a_short_index_is_named_with_its_own_iconv_command_and_shown_as_written(
    text: str, codec: str, named: str, iconv: str
) -> None:
    """The case that failed: the GB18030 line was named EUC-KR and shown as ``엣렸``."""
    raw = text.encode(codec)
    why = not_decoded_why(raw)
    assert why is not None
    assert f"looks like {named} (" in why and f"(iconv -f {iconv} -t UTF-8)" in why
    assert why.count("iconv -f ") == 1
    assert shown_text(raw) == text


@pytest.mark.parametrize("lines", [1, 2])
@pytest.mark.parametrize("lang", ["ru", "bg"])
def test_t2_generated_koi8_r_indexes_are_named_koi8_r_and_windows_1251_ones_stay(
    lang: str, lines: int
) -> None:
    """KOI8-R's letters are Windows-1251's with their case swapped (``Кофе`` is ``лПЖЕ``
    there): such an index was named Windows-1251, or Shift-JIS three times in four, and
    converting it so gave mojibake for good."""
    koi8 = _index_lines(lang, "koi8_r", lines)
    found = {raw: legacy_readings(raw) for raw in koi8}
    assert [
        raw.decode("koi8_r") for raw, named in found.items() if "koi8_r" not in (named or ())
    ] == []
    told = [raw for raw, named in found.items() if named == ("koi8_r",)]
    assert len(told) >= 0.9 * len(koi8)  # else too short to tell from GB18030 (``югдь``, ``性能``)
    windows = _index_lines(lang, "cp1251", lines)
    assert [
        raw.decode("cp1251") for raw in windows if "koi8_r" in (legacy_readings(raw) or ())
    ] == []
