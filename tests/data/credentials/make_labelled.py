"""Write labelled.tsv: made-up credentials of every kind we claim, and look-alikes (T-6).

Run ``python tests/data/credentials/make_labelled.py`` to regenerate; the output is checked in
and deterministic (fixed seed). Each line is ``<label>\\t<text>``: ``secret:<kind>`` for a line
that holds a credential of that kind, ``none:<why>`` for a line that holds none. Every
credential here is random and made up; none was ever valid.
"""

from __future__ import annotations

import random
import string
from pathlib import Path

OUT = Path(__file__).with_name("labelled.tsv")
RNG = random.Random(20261130)
ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits


def rand(alphabet: str, size: int) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(size))


def b64url(size: int) -> str:
    return rand(ALNUM + "-_", size)


def jwt() -> str:
    header = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    return f"{header}.eyJ{b64url(40)}.{b64url(43)}"


def password() -> str:
    words = ["river", "Falcon", "copper", "Nimbus", "tango", "Orchid", "velvet", "Summit"]
    style = RNG.randrange(4)
    if style == 0:
        return RNG.choice(words) + str(RNG.randrange(10, 9999)) + RNG.choice("!#$%&*?")
    if style == 1:
        return rand(ALNUM + "!#$%^&*+=", RNG.randrange(10, 20))
    if style == 2:
        return f"{RNG.choice(words)}-{RNG.choice(words)}-{RNG.randrange(100, 999)}"
    return rand(ALNUM, RNG.randrange(12, 24))


SHAPES = {
    "aws-access-key": lambda: RNG.choice(["AKIA", "ASIA"]) + rand(UPPER_DIGITS, 16),
    "github-token": lambda: RNG.choice(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]) + rand(ALNUM, 36),
    "github-pat": lambda: "github_pat_" + rand(ALNUM, 22) + "_" + rand(ALNUM, 59),
    "gitlab-token": lambda: "glpat-" + b64url(20),
    "slack-token": lambda: RNG.choice(["xoxb-", "xoxp-"])
    + f"{RNG.randrange(10**11, 10**12)}-{RNG.randrange(10**11, 10**12)}-{rand(ALNUM, 24)}",
    "slack-webhook": lambda: "https://hooks.slack.com/services/T"
    + rand(UPPER_DIGITS, 8)
    + "/B"
    + rand(UPPER_DIGITS, 8)
    + "/"
    + rand(ALNUM, 24),
    "openai-style-key": lambda: RNG.choice(["sk-", "sk-proj-", "sk-ant-api03-"]) + b64url(40),
    "google-api-key": lambda: "AIza" + b64url(35),
    "stripe-key": lambda: RNG.choice(["sk_live_", "rk_live_", "sk_test_"]) + rand(ALNUM, 24),
    "npm-token": lambda: "npm_" + rand(ALNUM, 36),
    "huggingface-token": lambda: "hf_" + rand(ALNUM, 34),
    "jwt": jwt,
}

SHAPE_CONTEXTS = [
    "- [CI](ci.md) — old CI key was {v}, rotated",
    "export TOKEN={v}",
    "The deploy uses {v} for the registry.",
    "- [Keys](keys.md) — `{v}` (do not share)",
    'config.json has "credential": "{v}"',
    "{v}",
    "pasted by mistake: {v} in the chat log",
    "curl -s https://api.example.com/v1 -H 'X-Key: {v}'",
]

ASSIGNMENT_KEYS = {
    "password": ["DB_PASSWORD", "password", "POSTGRES_PASSWORD", "admin_pass", "smtpPassword"],
    "secret": ["CLIENT_SECRET", "client_secret", "JWT_SECRET", "webhookSecret", "APP_SECRET_KEY"],
    "token": ["ACCESS_TOKEN", "auth_token", "SENTRY_AUTH_TOKEN", "refreshToken", "BOT_TOKEN"],
    "api-key": ["API_KEY", "apiKey", "x-api-key", "MAILGUN_API_KEY", "datadog_api_key"],
}
ASSIGNMENT_FORMS = [
    "{k}={v}",
    "export {k}={v}",
    "{k}: {v}",
    '"{k}": "{v}"',
    "{k} = '{v}'",
    "- [Env](env.md) — {k}={v} on staging",
    "set {k}={v} before running the seed script",
]


def secret_value(kind: str) -> str:
    if kind == "password":
        return password()
    if kind == "api-key" and RNG.random() < 0.5:
        return rand(string.hexdigits.lower()[:16], 32)
    return b64url(RNG.randrange(20, 40)) if RNG.random() < 0.7 else password()


def secrets() -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    for kind, make in SHAPES.items():
        label = "github-token" if kind == "github-pat" else kind
        for context in RNG.sample(SHAPE_CONTEXTS, 8):
            rows.append((label, context.format(v=make())))
    for kind, keys in ASSIGNMENT_KEYS.items():
        for key in keys:
            for form in RNG.sample(ASSIGNMENT_FORMS, 4):
                rows.append((f"{kind}-assignment", form.format(k=key, v=secret_value(kind))))
    for _ in range(12):
        token = b64url(RNG.randrange(24, 48))
        rows.append(("bearer-token", f"curl -H 'Authorization: Bearer {token}' https://api.x.dev"))
    for scheme in ["postgres", "postgresql", "mysql", "redis", "amqp", "mongodb+srv", "https", "ftp"]:
        user = RNG.choice(["app", "admin", "deploy", "svc_reader"])
        rows.append(("url-password", f"DATABASE_URL={scheme}://{user}:{password()}@db.internal:5432/app"))
        rows.append(("url-password", f"- [DB](db.md) — connect with {scheme}://{user}:{password()}@10.0.3.7/main"))
    for kind in ["RSA ", "EC ", "OPENSSH ", "", "ENCRYPTED ", "PGP "]:
        block = "BLOCK" if kind == "PGP " else ""
        rows.append(("private-key", f"-----BEGIN {kind}PRIVATE KEY{' ' + block if block else ''}-----"))
        rows.append(("private-key", f"key.pem starts with -----BEGIN {kind}PRIVATE KEY{' ' + block if block else ''}----- then base64"))
    return rows


LOOKALIKES = {
    "code": [
        "w_token = torch.autograd.grad(loss, x)",
        "- [Code notes](code-notes.md) — w_token = torch.autograd.grad(loss, x) for the second-order term",
        "token = tokenizer.encode(text)[0]",
        "tokens = self.tokenizer(batch, padding=True)",
        "password = getpass.getpass()",
        "secret = os.environ['APP_SECRET']",
        "api_key = os.getenv(\"OPENAI_API_KEY\")",
        "const token = await getAccessToken(req);",
        "let apiKey = process.env.API_KEY ?? ''",
        "token=$(gh auth token)",
        "password: str = Field(..., min_length=12)",
        "access_token = response.json()['access_token']",
        "self.secret_key = settings.SECRET_KEY",
        "if token is None: raise AuthError()",
        "refresh_token: Optional[str] = None",
        "TOKEN_RE = re.compile(r'[A-Za-z0-9_]{20,}')",
        "api_key=config.api_key,",
        "headers['Authorization'] = f'Bearer {token}'",
        "secret=secrets.token_hex(32)",
        "token_embeddings = model.embed_tokens(input_ids)",
        "key = cache_key(user_id, page)",
        "password_hash = bcrypt.hashpw(password, bcrypt.gensalt())",
        "client_secret: ${{ secrets.CLIENT_SECRET }}",
        "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
        "token: ${{ github.token }}",
        "NPM_TOKEN=${NPM_TOKEN:?missing}",
        "export API_KEY=\"$(vault kv get -field=key secret/app)\"",
        "auth_token = request.headers.get('X-Auth-Token')",
        "stripe.api_key = STRIPE_KEY",
        "token = jwt.encode(payload, key, algorithm='HS256')",
        "hf_hub_download(repo_id=repo, filename=name, token=True)",
        "secret_key_base: <%= ENV['SECRET_KEY_BASE'] %>",
        "password=request.form['password']",
        "mask = attention_mask[:, None, :].to(dtype)",
        "apiKey: string; // set in the constructor",
        "token.expires_at < now() - interval '5 minutes'",
        "private_key = load_pem_private_key(data, password=None)",
        "max_tokens=4096 for the summariser",
        "token_count: 1500 per chunk",
        "max_new_tokens = 512",
    ],
    "column-type": [
        "refreshToken: varchar(500)",
        "- [Schema](code-notes.md) — refreshToken: varchar(500) on users",
        "api_key_id: uuid",
        "password_hash: text not null",
        "token: string",
        "secret: boolean = false",
        "access_token VARCHAR(255) NOT NULL,",
        "apiKey: { type: String, required: true }",
        "password: z.string().min(8)",
        "token_expires_at: timestamptz",
        "secret_id: bigint references secrets(id)",
        "client_secret CHAR(64)",
        "api_key: Mapped[str] = mapped_column(String(64))",
        "password: Column(String(128), nullable=False)",
        "tokenType: 'Bearer' | 'MAC'",
        "credentials: Credentials | None",
        "secretRef: SecretKeySelector",
        "token: Optional[str]",
        "passwordResetToken: String?",
        "api_key TEXT UNIQUE",
    ],
    "placeholder": [
        "API_KEY=your-api-key-here",
        "- [Env](code-notes.md) — API_KEY=your-api-key-here is a placeholder; the vault has the real one",
        "OPENAI_API_KEY=sk-...",
        "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX",
        "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",
        "password: changeme",
        "password: <your password>",
        "token: <TOKEN>",
        "DB_PASSWORD=********",
        "api_key: REPLACE_ME",
        "SECRET_KEY=change-this-in-production",
        "password=password",
        "token: '...'",
        "API_KEY=${API_KEY}",
        "api_key: {{ api_key }}",
        "password: %(password)s",
        "STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx",
        "client_secret: YOUR_CLIENT_SECRET",
        "token = \"<paste token here>\"",
        "export HF_TOKEN=hf_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        "password: example-password",
        "api_key: dummy-key-for-tests",
        "SECRET=placeholder",
        "token: TODO",
        "password: null",
        "api_key: \"\"",
        "password = \"\"  # set by the installer",
        "Authorization: Bearer <token>",
        "curl -H \"Authorization: Bearer $TOKEN\" https://api.x.dev",
        "Authorization: Bearer ${ACCESS_TOKEN}",
        "postgres://user:password@localhost:5432/db",
        "postgres://USER:PASSWORD@HOST:5432/DB",
        "redis://:<password>@cache:6379",
        "mysql://root:${MYSQL_ROOT_PASSWORD}@db/app",
        "password: test",
        "password: secret",
        "token: fake-token",
        "api_key: sk-test-key",
        "SENTRY_DSN=https://<key>@sentry.io/<project>",
    ],
    "elided": [
        "The header looks like `Authorization: Bearer <token>`; a JWT starts with eyJ... and is never stored.",
        "JWTs start with eyJ and have three dot-separated parts",
        "GitHub tokens look like ghp_… (40 chars); never paste them here",
        "OpenAI keys start with sk- and are 51 characters",
        "AWS keys start with AKIA; rotate via the console",
        "the token was ghp_Ab12… (elided), revoked on Monday",
        "Slack bot tokens are xoxb-…; keep them in the vault",
        "key fingerprint SHA256:9a8b7c… in the deploy notes",
        "Stripe live keys (sk_live_…) only live in the payment service's vault",
        "Use `-----BEGIN PUBLIC KEY-----` blocks for verification only",
        "the PEM file holds a public key: -----BEGIN CERTIFICATE-----",
        "a Google key is AIza followed by 35 characters",
        "hf_ tokens need the read scope only",
        "npm_ tokens are automation tokens in CI",
        "glpat- tokens expire after 30 days now",
    ],
    "variable-names": [
        "Names of the secrets the deploy needs: DB_PASSWORD, STRIPE_SECRET_KEY, SENTRY_TOKEN.",
        "Required env: API_KEY, API_SECRET, ACCESS_TOKEN, REFRESH_TOKEN",
        "secrets: [DB_PASSWORD, REDIS_PASSWORD, JWT_SECRET]",
        "- [Secrets](secrets.md) — where DB_PASSWORD and SENTRY_TOKEN live (vault paths only)",
        "rotate GITHUB_TOKEN and NPM_TOKEN every 90 days",
        "the token lives in 1Password under 'CI deploy token'",
        "set the password in the vault, never in .env",
        "Token rotation: owners are listed in ops/tokens.md",
        "api keys are per environment; staging key has read-only scope",
        "the secret manager path is projects/app/secrets/db-password/versions/latest",
        "password reset tokens expire after 30 minutes",
        "token-bucket rate limiter: 100 tokens per second",
        "The tokenizer splits on whitespace before BPE merges",
        "OAuth flow: exchange the code for an access token, then refresh it",
        "credentials come from the instance profile, not keys",
        "PASSWORD_MIN_LENGTH=12",
        "TOKEN_TTL_SECONDS=3600",
        "SECRET_ROTATION_DAYS=90",
        "api_key_header: X-API-Key",
        "token_url: https://auth.example.com/oauth/token",
        "password_policy: strong",
        "secret_name: prod/db/password",
        "token_type: bearer",
        "api_key_env: OPENAI_API_KEY",
        "credentials_file: ~/.aws/credentials",
    ],
    "hash": [],
    "uuid": [],
    "url": [
        "https://github.com/acme/app/pull/1234",
        "docs at https://docs.example.com/auth/tokens#rotation",
        "postgres://db.internal:5432/app (password from the vault)",
        "redis://cache:6379/0",
        "https://user@gitlab.example.com/group/repo.git",
        "git@github.com:acme/secret-sauce.git",
        "https://api.openai.com/v1/chat/completions",
        "s3://bucket/keys/public.pem",
        "http://localhost:8080/api/token/refresh",
        "https://hooks.slack.com/services (webhook URL is in the vault)",
        "mongodb://mongo-0.mongo:27017,mongo-1.mongo:27017/?replicaSet=rs0",
        "amqp://rabbitmq:5672/%2F",
        "https://example.com/callback?state=abc&code_challenge_method=S256",
        "see https://stripe.com/docs/keys for the key types",
        "file:///etc/ssl/certs/ca-certificates.crt",
    ],
    "prose": [
        "Always run the linter before pushing; CI is strict about it",
        "The deploy freeze starts Friday 14:00 UTC",
        "Prefer pnpm over npm in this repository",
        "- [Testing](testing.md) — pytest -q from the repo root",
        "Passwords are hashed with argon2id (m=64MiB, t=3, p=4)",
        "Token limits: the model sees at most 200k tokens",
        "secret santa list moved to the wiki",
        "The API key page lets admins rotate keys",
        "Key decisions are recorded in docs/adr/",
        "the passkey flow replaces passwords for staff accounts",
        "Use `gh auth login` instead of a personal token",
        "Bearer auth is required on /api; cookies on the page",
        "Our tokenizer is tiktoken cl100k_base",
        "password rules: 12+ characters, no reuse of the last 5",
        "the keyboard shortcut is Ctrl+K",
    ],
}


def hashes() -> list[str]:
    rows = []
    for _ in range(10):
        rows.append(f"fixed in commit {rand('0123456789abcdef', 40)}")
        rows.append(f"sha256: {rand('0123456789abcdef', 64)}")
        rows.append(f"- [Release](release.md) — artifact digest sha256:{rand('0123456789abcdef', 64)}")
    for _ in range(5):
        rows.append(f"md5 of the dump is {rand('0123456789abcdef', 32)}")
        rows.append(f"integrity: sha512-{b64url(86)}==")
        rows.append(f"token_hash: {rand('0123456789abcdef', 64)}")
    return rows


def uuids() -> list[str]:
    rows = []
    for _ in range(10):
        value = "-".join(rand("0123456789abcdef", n) for n in (8, 4, 4, 4, 12))
        rows.append(RNG.choice([
            "originSessionId: {u}",
            "api_key_id: {u}",
            "tenant {u} has the old plan",
            "- [Run](run.md) — run id {u}",
            "secret_id = \"{u}\"",
            "token_id: {u}",
        ]).format(u=value))
    return rows


# --- more variants of each kind, in the forms real notes use (added after the rows above, so
# those stay as they were: the random generator runs on from where they left it) -----------

MORE_SHAPES = {
    "sendgrid-key": lambda: f"SG.{b64url(22)}.{b64url(43)}",
    "pypi-token": lambda: "pypi-AgEIcHlwaS5vcmc" + b64url(70),
    "digitalocean-token": lambda: "dop_v1_" + rand("0123456789abcdef", 64),
    "shopify-token": lambda: RNG.choice(["shpat_", "shpss_"]) + rand("0123456789abcdef", 32),
    "postman-key": lambda: f"PMAK-{rand('0123456789abcdef', 24)}-{rand('0123456789abcdef', 34)}",
    "linear-key": lambda: "lin_api_" + rand(ALNUM, 40),
    "google-oauth-token": lambda: "ya29." + b64url(60),
    "telegram-bot-token": lambda: f"{RNG.randrange(10**8, 10**10)}:AA{b64url(33)}",
    "gitlab-token": lambda: "glpat-" + b64url(20),
    "slack-token": lambda: f"xoxb-{RNG.randrange(10**11, 10**12)}-{rand(ALNUM, 24)}",
    "github-token": lambda: "ghp_" + rand(ALNUM, 36),
    "aws-access-key": lambda: "AKIA" + rand(UPPER_DIGITS, 16),
    "openai-style-key": lambda: "sk-proj-" + b64url(48),
    "stripe-key": lambda: "sk_live_" + rand(ALNUM, 24),
    "huggingface-token": lambda: "hf_" + rand(ALNUM, 34),
    "jwt": jwt,
}
MORE_SHAPE_CONTEXTS = [
    "token: {v}",
    '  "apiKey": "{v}",',
    "| prod | `{v}` | rotated in March |",
    "Токен: {v}",
    "API-Schlüssel für Staging: `{v}`",
    "clé : {v} (ne pas partager)",
    "密钥：{v}",
    "- `{v}` ← the old one, revoked?",
    "--header 'Authorization: token {v}'",
    "      value: {v}",
]
PASSWORD_KEYS = [
    "pw", "PW", "root_pw", "ADMIN_PW", "pass", "dbPass", "SSHPASS", "MYSQL_PWD", "adminPass",
    "db.pass", "wifi_password", "passphrase", "KEYSTORE_PASS", "ansible_become_pass",
    "WLAN-Passwort", "smtpPassword",
]  # fmt: skip
PASSWORD_FORMS = [
    "{k}: `{v}`",
    "{k}={v}",
    "export {k}='{v}'",
    '"{k}": "{v}"',
    "| {k} | {v} |",
    "  {k}: \"{v}\"",
    "<{k}>{v}</{k}>",
    "{k} => '{v}'",
]
PASSWORD_PHRASES = [
    "password: {v}", "root pw `{v}`", "the admin password is {v}", "wifi pw is `{v}`",
    "Passwort: {v}", "Das Kennwort lautet {v}", "пароль: {v}", "Пароль от сервера: {v}",
    "mot de passe : {v}", "contraseña: {v}", "senha: {v}", "wachtwoord: {v}", "hasło: {v}",
    "密码：{v}", "数据库密码是 `{v}`", "パスワード: {v}", "비밀번호: {v}", "şifre: {v}",
    "lösenord: {v}", "salasana: {v}", "mật khẩu: {v}", "รหัสผ่าน: {v}", "parola: {v}",
    "κωδικός: {v}", "كلمة المرور: {v}", "סיסמה: {v}", "पासवर्ड: {v}",
]  # fmt: skip
PASSWORD_COMMANDS = [
    "mysql -uroot -p{v} app",
    "mysqldump -u backup -p'{v}' --all-databases",
    "sshpass -p '{v}' ssh deploy@10.0.0.{n}",
    "docker login -u ci -p {v} registry.local",
    "redis-cli -h cache -a {v} info",
    "curl -u admin:{v} http://192.168.1.{n}/api",
    "login: admin / `{v}`",
]
PIN_FORMS = ["SSHPASS='{d}' sshpass -e ssh pi@10.0.0.{n}", "password={d}", "pw: {d}",
             "пароль: {d}", "PIN/password: {d}", "| password | {d} |"]  # fmt: skip

NOT_PASSWORD_KEYS = {
    "bypass": ["проходит", "через прокси", "true", "direct", "代理直连", "ignore-scripts"],
    "compass": ["северо-восток", "north-east", "270°", "heading north"],
    "surpass": ["10%", "the target"],
    "trespass": ["запрещено", "forbidden"],
    "encompass": ["весь проект", "all services"],
    "passport": ["C01X00T47 (expires 2031)", "renewed in May"],
    "passenger": ["3", "Alex"],
}
WORD_VALUES = [
    "sunshine", "проходит", "Пароль", "siehe-Vault", "geheim", "секрет", "秘密", "ひみつ",
    "required", "optional", "hidden", "same-as-staging",
]  # fmt: skip
REFERENCE_VALUES = [
    "see 1Password", "in Bitwarden", "KeePass → NAS", "${DB_PASSWORD}", "$(pass show db)",
    "{{ vault_db_password }}", "!vault |", "<ask ops>", "(in the vault)", "`${SSH_PASS}`",
]  # fmt: skip


def more_rows() -> list[tuple[str, str]]:
    """More variants of every kind, in YAML, JSON, shell, ``.env``, prose, code spans, tables
    and many languages, and their look-alikes."""
    rows: list[tuple[str, str]] = []
    for kind, make in MORE_SHAPES.items():
        for context in RNG.sample(MORE_SHAPE_CONTEXTS, 4):
            rows.append((f"secret:{kind}", context.format(v=make())))
    for key in PASSWORD_KEYS:
        for form in RNG.sample(PASSWORD_FORMS, 2):
            rows.append(("secret:password-assignment", form.format(k=key, v=password())))
    for phrase in PASSWORD_PHRASES:
        rows.append(("secret:password-assignment", phrase.format(v=password())))
    for command in PASSWORD_COMMANDS:
        for _ in range(2):
            value = password() if RNG.random() < 0.5 else rand(ALNUM, 12)
            text = command.format(v=value.replace("'", ""), n=RNG.randrange(2, 250))
            rows.append(("secret:password-assignment", text))
    for form in PIN_FORMS:
        digits = str(RNG.randrange(100000, 99999999))
        rows.append(("secret:password-assignment", form.format(d=digits, n=RNG.randrange(2, 250))))
    for key, values in NOT_PASSWORD_KEYS.items():
        for value in values:
            rows.append(("none:not-a-password-key", f"{key}: {value}"))
    for value in WORD_VALUES:
        rows.append(("none:word", f"password: {value}"))
        rows.append(("none:word", f"pw: {value}"))
    for value in REFERENCE_VALUES:
        rows.append(("none:reference", f"password: {value}"))
        rows.append(("none:reference", f"Passwort: {value}"))
    for command in ("mysql -u root -p app", "sshpass -e ssh host", "ssh -p 2222 host",
                    "psql -p 5432 -h db", "docker run -p 8080:80 app", "curl -u deploy https://ci",
                    'docker login -u ci --password-stdin < token.txt', "pwd: /srv/app"):  # fmt: skip
        rows.append(("none:command", command))
    return rows


def main() -> None:
    rows = [(f"secret:{kind}", text) for kind, text in secrets()]
    LOOKALIKES["hash"] = hashes()
    LOOKALIKES["uuid"] = uuids()
    for why, texts in LOOKALIKES.items():
        rows.extend((f"none:{why}", text) for text in texts)
    rows.extend(more_rows())
    assert all("\t" not in text and "\n" not in text for _, text in rows)
    OUT.write_text("".join(f"{label}\t{text}\n" for label, text in rows), encoding="utf-8")
    print(f"{len(rows)} lines written to {OUT}")


if __name__ == "__main__":
    main()
