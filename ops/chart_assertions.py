#!/usr/bin/env python3
"""Assertions on the Helm chart's rendered manifests (run by ops/chart-check).

Usage: chart_assertions.py REPO_ROOT RENDERED_DIR

RENDERED_DIR holds one `<case>.yaml` per values file in helm/leadgen/ci/ (`helm template`
output). Each check prints `PASS name` or `FAIL name: why`; the last line is
`assertions: N passed, M failed`. The exit code is 1 when any check failed.

What the chart must get right and a schema cannot see: hardening on every pod, probe
paths, no `replicas:` under an autoscaler, the KEDA keys matching where our queue store
keeps every job kind's waiting jobs, the migrate hook able to run before the release's
own resources exist, and every setting the code reads wired into the ConfigMap or the
Secret.
"""

from __future__ import annotations

import base64
import glob
import ipaddress
import json
import os
import re
import sys
from pathlib import Path

import yaml

CRD_GROUPS = ("keda.sh/", "monitoring.coreos.com/")
LEADGEN_COMPONENTS = ("api", "worker", "migrate")

# Settings announced for the new features (Sentry, logs, Sheets, Stripe, worker metrics):
# checked even before the code that reads them lands.
ANNOUNCED_SETTINGS = {
    "SENTRY_DSN": "secret",
    "LEADGEN_LOG_FORMAT": "config",
    "LEADGEN_RELEASE": "config",
    "LEADGEN_GOOGLE_TOKEN_URL": "config",
    "LEADGEN_SHEETS_BASE_URL": "config",
    "LEADGEN_DRIVE_BASE_URL": "config",
    "STRIPE_SECRET_KEY": "secret",
    "STRIPE_WEBHOOK_SECRET": "secret",
    "STRIPE_PRICE_MONTHLY": "config",
    "STRIPE_PRICE_YEARLY": "config",
    "STRIPE_API_BASE_URL": "config",
    "LEADGEN_WORKER_METRICS_LISTEN": "config",
    "LEADGEN_METRICS_LISTEN": "config",
    "DATABASE_URL": "secret",
    "REDIS_URL": "secret",
}
# Settings the chart leaves out on purpose, with the reason.
NOT_WIRED: dict[str, str] = {
    "LEADGEN_CONFIG_FILE": "the chart sets every setting through the environment; a file is for deployments without one",
}
# Settings the chart gives a container from the pod itself (the downward API), by field.
FROM_POD: dict[str, str] = {"LEADGEN_WORKER_NAME": "metadata.name"}

# The case whose values set every optional setting.
FULL_CASE = "ingress-tls-values"


class Checks:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, name: str, ok: bool, why: str = "") -> bool:
        if ok:
            self.passed += 1
            print(f"PASS {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}: {why}")
        return ok


# ---------------------------------------------------------------------------------------
# What the code says


def settings_in_code(root: Path) -> tuple[set[str], set[str]]:
    """Every environment variable the processes read (core/src/config/, and string literals
    in core, api and worker), and the subset the configuration holds in secrecy types
    (which must live in the Secret)."""
    names: set[str] = set()
    secret: set[str] = set()
    name = r"(LEADGEN_[A-Z0-9_]*[A-Z0-9]|DATABASE_URL|REDIS_URL|SENTRY_DSN|STRIPE_[A-Z0-9_]*[A-Z0-9])"
    pattern = re.compile(rf"\b{name}\b")
    # The configuration tree: core/src/config/, one module a section.
    text = "\n".join(
        path.read_text().split("#[cfg(test)]")[0] for path in sorted((root / "core/src/config").rglob("*.rs"))
    )
    names |= set(pattern.findall(text))
    # A field's doc comment declares its variables (`NAME`: ..., `NAME` (default), `A`, `B`:);
    # a secrecy type on the field marks them secret. Mere mentions ("required when
    # `DATABASE_URL` is set") declare nothing.
    declared = re.compile(rf"`{name}`(?=[:,]| \()")
    pending: set[str] = set()
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("///"):
            pending |= {m.group(1) for m in declared.finditer(stripped)}
        elif re.match(r"pub \w+\s*:", stripped):
            if "Secret" in stripped:
                secret |= pending
            pending = set()
        elif stripped and not stripped.startswith("#["):
            pending = set()
    # Variables read elsewhere (telemetry, the binaries): string literals naming one, outside
    # test modules.
    literal = re.compile(r'"(LEADGEN_[A-Z0-9_]*[A-Z0-9]|SENTRY_[A-Z0-9_]*[A-Z0-9]|STRIPE_[A-Z0-9_]*[A-Z0-9]|RUST_LOG)"')
    for crate in ("core/src", "api/src", "worker/src"):
        for path in sorted((root / crate).rglob("*.rs")):
            names |= set(literal.findall(path.read_text().split("#[cfg(test)]")[0]))
    names = {n for n in names if "_TEST_" not in n}
    return names, secret


def queue_keys(root: Path) -> list[str]:
    """The formats of the Redis keys holding waiting jobs, one pair per job kind
    ("{prefix}.search.v1:ready", "{prefix}.search.v1:delayed", ...): the kinds' queue names
    from core/src/jobs.rs, the queue name's format from worker/src/queue/mod.rs and the
    keys from the table in worker/src/queue/on_redis.rs (our own store's)."""
    jobs = (root / "core/src/jobs.rs").read_text()
    kinds = re.findall(r'pub const \w+_QUEUE: &str = "([^"]+)"', jobs)
    queue_rs = (root / "worker/src/queue/mod.rs").read_text()
    fmt = re.search(r'pub fn queue_name\(prefix: &str, queue: &str\) -> String \{\s*format!\("([^"]+)"\)', queue_rs)
    store = (root / "worker/src/queue/on_redis.rs").read_text()
    waiting = [k for k in ("ready", "delayed") if f"| `{{queue}}:{k}` |" in store]
    if not kinds or not fmt or len(waiting) != 2:
        raise RuntimeError("could not find the job kinds, queue_name's format or the waiting keys in the queue's source")
    return [f"{fmt.group(1).replace('{queue}', kind)}:{key}" for kind in kinds for key in waiting]


# ---------------------------------------------------------------------------------------
# Reading the rendered output


def load(path: Path) -> list[dict]:
    with path.open() as f:
        return [d for d in yaml.safe_load_all(f) if d]


def find(docs: list[dict], kind: str, name_suffix: str | None = None) -> list[dict]:
    return [
        d
        for d in docs
        if d.get("kind") == kind and (name_suffix is None or d["metadata"]["name"].endswith(name_suffix))
    ]


def one(docs: list[dict], kind: str, name_suffix: str | None = None) -> dict | None:
    found = find(docs, kind, name_suffix)
    return found[0] if len(found) == 1 else None


def settings_configmap(docs: list[dict]) -> dict | None:
    """The ConfigMap of settings (the dashboard's ConfigMap is another)."""
    found = [d for d in find(docs, "ConfigMap") if component(d) == "config"]
    return found[0] if len(found) == 1 else None


def component(doc: dict) -> str:
    return doc["metadata"].get("labels", {}).get("app.kubernetes.io/component", "")


def pod_spec(doc: dict) -> dict:
    return doc["spec"]["template"]["spec"]


def decoded(secret: dict) -> dict[str, str]:
    data = {k: base64.b64decode(v).decode() for k, v in (secret.get("data") or {}).items()}
    data.update(secret.get("stringData") or {})
    return data


def hook_events(doc: dict) -> set[str]:
    value = doc["metadata"].get("annotations", {}).get("helm.sh/hook", "")
    return {e.strip() for e in value.split(",") if e.strip()}


# ---------------------------------------------------------------------------------------
# Checks for every case


def check_case(c: Checks, case: str, docs: list[dict], expect: dict) -> None:
    p = f"[{case}]"
    workloads = [d for d in docs if d.get("kind") in ("Deployment", "StatefulSet", "Job", "DaemonSet")]
    c.check(f"{p} renders workloads", bool(workloads), "no workload rendered")

    # Names unique per kind; standard labels everywhere.
    seen: set[tuple[str, str]] = set()
    for d in docs:
        key = (d["kind"], d["metadata"]["name"])
        c.check(f"{p} {key[0]}/{key[1]} is unique", key not in seen, "rendered twice")
        seen.add(key)
        labels = d["metadata"].get("labels", {})
        missing = [l for l in ("app.kubernetes.io/name", "app.kubernetes.io/instance", "app.kubernetes.io/managed-by") if l not in labels]
        c.check(f"{p} {key[0]}/{key[1]} has the standard labels", not missing, f"missing {missing}")

    # Hardening on every pod, the bundled ones included.
    for w in workloads:
        name = f"{w['kind']}/{w['metadata']['name']}"
        spec = pod_spec(w)
        psc = spec.get("securityContext", {})
        c.check(f"{p} {name} pod runAsNonRoot", psc.get("runAsNonRoot") is True, f"pod securityContext {psc}")
        c.check(
            f"{p} {name} pod seccomp RuntimeDefault",
            psc.get("seccompProfile", {}).get("type") == "RuntimeDefault",
            f"pod securityContext {psc}",
        )
        c.check(f"{p} {name} no service account token", spec.get("automountServiceAccountToken") is False, "token mounted")
        for ctr in spec.get("containers", []) + spec.get("initContainers", []):
            sc = ctr.get("securityContext", {})
            cname = f"{name} container {ctr['name']}"
            c.check(f"{p} {cname} readOnlyRootFilesystem", sc.get("readOnlyRootFilesystem") is True, f"{sc}")
            c.check(f"{p} {cname} no privilege escalation", sc.get("allowPrivilegeEscalation") is False, f"{sc}")
            c.check(f"{p} {cname} drops ALL capabilities", "ALL" in sc.get("capabilities", {}).get("drop", []), f"{sc}")
            c.check(f"{p} {cname} has resources", bool(ctr.get("resources")), "no resources")
            mounts = {m["mountPath"] for m in ctr.get("volumeMounts", [])}
            if component(w) in LEADGEN_COMPONENTS:
                c.check(f"{p} {cname} has a writable /tmp", "/tmp" in mounts, f"mounts {sorted(mounts)}")
                c.check(f"{p} {cname} runs as uid 65532", sc.get("runAsUser", psc.get("runAsUser")) == 65532, f"{sc}")
                c.check(f"{p} {cname} runAsNonRoot", sc.get("runAsNonRoot", psc.get("runAsNonRoot")) is True, f"{sc}")

    leadgen_images = {
        ctr["image"] for w in workloads if component(w) in LEADGEN_COMPONENTS for ctr in pod_spec(w)["containers"]
    }
    c.check(f"{p} one Leadgen image for api, worker and migrate", len(leadgen_images) == 1, f"{leadgen_images}")
    if expect.get("digest"):
        c.check(f"{p} image pinned by digest", all("@sha256:" in i for i in leadgen_images), f"{leadgen_images}")

    configmap = settings_configmap(docs)
    c.check(f"{p} one settings ConfigMap", configmap is not None, "expected exactly one ConfigMap of component config")
    cm = (configmap or {}).get("data", {})
    existing = expect.get("existing_secret")
    app_secret_name = existing or (configmap or {}).get("metadata", {}).get("name")
    app_secret = next((d for d in docs if d["kind"] == "Secret" and d["metadata"]["name"] == app_secret_name), None)
    if existing:
        c.check(f"{p} no chart Secret with existingSecret", app_secret is None, "a Secret named like the existing one is rendered")
    else:
        c.check(f"{p} chart Secret rendered", app_secret is not None, f"no Secret {app_secret_name}")
    secret = decoded(app_secret) if app_secret else {}

    check_api(c, p, docs, cm, app_secret_name, expect)
    check_worker(c, p, docs, cm, app_secret_name, secret, expect)
    check_migrate(c, p, docs, app_secret_name, expect)
    check_services(c, p, docs)
    check_optional(c, p, docs, cm, expect)


def deployment(docs: list[dict], comp: str) -> dict | None:
    found = [d for d in find(docs, "Deployment") if component(d) == comp]
    return found[0] if len(found) == 1 else None


# Components whose anti-affinity is `hard`, by case label ("[case]").
expect_hard_anti_affinity: dict[str, tuple[str, ...]] = {"[worker-hpa-values]": ("worker",)}


def check_common_deployment(c: Checks, p: str, dep: dict, comp: str, cm_name: str, secret_name: str) -> dict:
    spec = pod_spec(dep)
    ctr = spec["containers"][0]
    refs = ctr.get("envFrom", [])
    c.check(
        f"{p} {comp} reads the ConfigMap",
        any(r.get("configMapRef", {}).get("name") == cm_name for r in refs),
        f"envFrom {refs}",
    )
    c.check(
        f"{p} {comp} reads the Secret {secret_name}",
        any(r.get("secretRef", {}).get("name") == secret_name for r in refs),
        f"envFrom {refs}",
    )
    strategy = dep["spec"].get("strategy", {})
    c.check(
        f"{p} {comp} rolling update keeps every pod until its replacement is ready",
        strategy.get("rollingUpdate", {}).get("maxUnavailable") == 0,
        f"strategy {strategy}",
    )
    labels = dep["spec"]["template"]["metadata"]["labels"]
    selector = dep["spec"]["selector"]["matchLabels"]
    c.check(f"{p} {comp} selector matches its pods", selector.items() <= labels.items(), f"{selector} vs {labels}")
    tsc = spec.get("topologySpreadConstraints", [])
    c.check(
        f"{p} {comp} topology spread selects its own pods",
        bool(tsc) and all(t.get("labelSelector", {}).get("matchLabels", {}).items() <= labels.items() for t in tsc),
        f"{tsc}",
    )
    annotations = dep["spec"]["template"]["metadata"].get("annotations", {})
    c.check(f"{p} {comp} rolls on config change", "checksum/config" in annotations, f"{annotations}")
    anti = spec.get("affinity", {}).get("podAntiAffinity", {})
    hard = anti.get("requiredDuringSchedulingIgnoredDuringExecution", [])
    soft = [t["podAffinityTerm"] for t in anti.get("preferredDuringSchedulingIgnoredDuringExecution", [])]
    terms = hard if comp in expect_hard_anti_affinity.get(p, ()) else soft
    c.check(
        f"{p} {comp} pods avoid sharing a node ({'required' if terms is hard else 'preferred'})",
        bool(terms)
        and all(t["topologyKey"] == "kubernetes.io/hostname" and t["labelSelector"]["matchLabels"].items() <= labels.items() for t in terms),
        f"{anti}",
    )
    return ctr


def probe_path(ctr: dict, probe: str) -> tuple[str, object]:
    get = ctr.get(probe, {}).get("httpGet", {})
    return get.get("path", ""), get.get("port")


def check_api(c: Checks, p: str, docs: list[dict], cm: dict, secret_name: str, expect: dict) -> None:
    dep = deployment(docs, "api")
    if not c.check(f"{p} one api Deployment", dep is not None, "missing"):
        return
    cm_name = settings_configmap(docs)["metadata"]["name"]
    ctr = check_common_deployment(c, p, dep, "api", cm_name, secret_name)
    ports = {pt["name"]: pt["containerPort"] for pt in ctr.get("ports", [])}
    c.check(f"{p} api listens on http 8080", ports.get("http") == 8080, f"ports {ports}")
    # /metrics on a port of its own, never the public one (#25).
    c.check(f"{p} api exposes metrics on its own port", ports.get("metrics") not in (None, 8080), f"ports {ports}")
    c.check(
        f"{p} LEADGEN_METRICS_LISTEN matches the api's metrics port",
        cm.get("LEADGEN_METRICS_LISTEN") == f"0.0.0.0:{ports.get('metrics')}",
        f"{cm.get('LEADGEN_METRICS_LISTEN')}",
    )
    proxies = [x for x in cm.get("LEADGEN_TRUSTED_PROXIES", "").split(",") if x]
    c.check(f"{p} the api trusts the in-cluster proxies' forwarding headers", bool(proxies), "LEADGEN_TRUSTED_PROXIES empty")
    c.check(
        f"{p} a real per-address limit behind the Ingress",
        int(cm.get("LEADGEN_RATE_LIMIT_PER_IP", "0")) > 0,
        f"LEADGEN_RATE_LIMIT_PER_IP {cm.get('LEADGEN_RATE_LIMIT_PER_IP')}",
    )
    c.check(f"{p} LEADGEN_LISTEN is 0.0.0.0:8080", cm.get("LEADGEN_LISTEN") == "0.0.0.0:8080", f"{cm.get('LEADGEN_LISTEN')}")
    c.check(f"{p} api liveness /api/health", probe_path(ctr, "livenessProbe") == ("/api/health", "http"), f"{ctr.get('livenessProbe')}")
    c.check(f"{p} api readiness /api/ready", probe_path(ctr, "readinessProbe") == ("/api/ready", "http"), f"{ctr.get('readinessProbe')}")
    c.check(f"{p} api runs `serve`", ctr.get("args") == ["serve"] and "command" not in ctr, f"args {ctr.get('args')}")
    grace = pod_spec(dep).get("terminationGracePeriodSeconds", 30)
    sleep = ctr.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get("seconds", 0)
    # The server gives open requests 20 s after SIGTERM (api/src/main.rs).
    c.check(f"{p} api grace period covers preStop + 20 s drain", grace >= sleep + 20, f"grace {grace}, preStop {sleep}")
    annotations = dep["spec"]["template"]["metadata"].get("annotations", {})
    if not expect.get("existing_secret"):
        c.check(f"{p} api rolls on secret change", "checksum/secret" in annotations, f"{annotations}")

    hpas = [h for h in find(docs, "HorizontalPodAutoscaler") if h["spec"]["scaleTargetRef"]["name"] == dep["metadata"]["name"]]
    if expect.get("api_hpa", True):
        c.check(f"{p} api HPA targets the api Deployment", len(hpas) == 1, f"{len(hpas)} HPAs")
        c.check(f"{p} api Deployment has no replicas under its HPA", "replicas" not in dep["spec"], f"replicas {dep['spec'].get('replicas')}")
        if hpas:
            metrics = hpas[0]["spec"]["metrics"]
            c.check(f"{p} api HPA scales on cpu", metrics[0]["resource"]["name"] == "cpu", f"{metrics}")
    else:
        c.check(f"{p} no api HPA", not hpas, "HPA rendered")
        c.check(f"{p} api Deployment sets replicas", "replicas" in dep["spec"], "no replicas")

    pdbs = [d for d in find(docs, "PodDisruptionBudget") if component(d) == "api"]
    labels = dep["spec"]["template"]["metadata"]["labels"]
    c.check(
        f"{p} api PDB selects the api pods",
        len(pdbs) == 1 and pdbs[0]["spec"]["selector"]["matchLabels"].items() <= labels.items(),
        f"{pdbs}",
    )


def check_worker(c: Checks, p: str, docs: list[dict], cm: dict, secret_name: str, secret: dict, expect: dict) -> None:
    dep = deployment(docs, "worker")
    if not c.check(f"{p} one worker Deployment", dep is not None, "missing"):
        return
    cm_name = settings_configmap(docs)["metadata"]["name"]
    ctr = check_common_deployment(c, p, dep, "worker", cm_name, secret_name)
    c.check(f"{p} worker runs leadgen-worker", ctr.get("command") == ["leadgen-worker"], f"command {ctr.get('command')}")
    ports = {pt["name"]: pt["containerPort"] for pt in ctr.get("ports", [])}
    c.check(f"{p} worker exposes metrics on 9091", ports.get("metrics") == 9091, f"ports {ports}")
    c.check(
        f"{p} LEADGEN_WORKER_METRICS_LISTEN matches the metrics port",
        cm.get("LEADGEN_WORKER_METRICS_LISTEN") == f"0.0.0.0:{ports.get('metrics')}",
        f"{cm.get('LEADGEN_WORKER_METRICS_LISTEN')}",
    )
    c.check(f"{p} worker liveness /healthz", probe_path(ctr, "livenessProbe") == ("/healthz", "metrics"), f"{ctr.get('livenessProbe')}")
    c.check(f"{p} worker readiness /healthz", probe_path(ctr, "readinessProbe") == ("/healthz", "metrics"), f"{ctr.get('readinessProbe')}")
    grace = pod_spec(dep).get("terminationGracePeriodSeconds", 30)
    c.check(f"{p} worker grace period lets searches finish (>= 60 s)", grace >= 60, f"grace {grace}")
    drain = int(cm.get("LEADGEN_WORKER_DRAIN_SECS", "0"))
    c.check(f"{p} worker drain ends 10 s before the grace period", 1 <= drain <= grace - 10, f"drain {drain}, grace {grace}")
    env = {e["name"]: e for e in ctr.get("env", [])}
    name_from = env.get("LEADGEN_WORKER_NAME", {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
    c.check(f"{p} each worker pod is named in the fleet by its pod name", name_from == "metadata.name", f"{env.get('LEADGEN_WORKER_NAME')}")

    name = dep["metadata"]["name"]
    hpas = [h for h in find(docs, "HorizontalPodAutoscaler") if h["spec"]["scaleTargetRef"]["name"] == name]
    scaled = [s for s in find(docs, "ScaledObject") if s["spec"]["scaleTargetRef"]["name"] == name]
    mode = expect.get("worker", "keda")
    if mode == "fixed":
        c.check(f"{p} no worker autoscaler", not hpas and not scaled, f"{len(hpas)} HPAs, {len(scaled)} ScaledObjects")
        c.check(f"{p} worker Deployment sets replicas", "replicas" in dep["spec"], "no replicas")
    else:
        c.check(f"{p} worker Deployment has no replicas under its autoscaler", "replicas" not in dep["spec"], f"replicas {dep['spec'].get('replicas')}")
        c.check(
            f"{p} exactly one autoscaler ({mode}) owns the workers",
            (len(hpas), len(scaled)) == ((1, 0) if mode == "hpa" else (0, 1)),
            f"{len(hpas)} HPAs, {len(scaled)} ScaledObjects",
        )
    if mode == "keda" and len(scaled) == 1:
        check_keda(c, p, docs, scaled[0], cm, secret, expect)

    pdbs = [d for d in find(docs, "PodDisruptionBudget") if component(d) == "worker"]
    labels = dep["spec"]["template"]["metadata"]["labels"]
    c.check(
        f"{p} worker PDB selects the worker pods",
        len(pdbs) == 1 and pdbs[0]["spec"]["selector"]["matchLabels"].items() <= labels.items(),
        f"{pdbs}",
    )


def check_keda(c: Checks, p: str, docs: list[dict], so: dict, cm: dict, secret: dict, expect: dict) -> None:
    prefix = cm.get("LEADGEN_REDIS_PREFIX", "leadgen")
    wanted = {key.replace("{prefix}", prefix) for key in expect["queue_keys"]}
    triggers = [t for t in so["spec"]["triggers"] if t["type"] == "redis"]
    names = {t["metadata"].get("listName") for t in triggers}
    c.check(f"{p} KEDA watches every job kind's waiting keys {sorted(wanted)}", names == wanted, f"listNames {sorted(names)}")
    if "prefix" in expect:
        c.check(f"{p} KEDA keys use the configured prefix", all(n.startswith(expect["prefix"] + ".") for n in names), f"{names}")
    for t in triggers:
        md = t["metadata"]
        c.check(f"{p} KEDA {md.get('listName')} listLength is a positive number", str(md.get("listLength", "")).isdigit() and int(md["listLength"]) > 0, f"{md}")
        c.check(f"{p} KEDA {md.get('listName')} address is host:port", bool(re.fullmatch(r"[^:\s]+:\d+", md.get("address", ""))), f"{md.get('address')}")
        if expect.get("keda_address"):
            c.check(f"{p} KEDA address is {expect['keda_address']}", md.get("address") == expect["keda_address"], f"{md.get('address')}")
        c.check(f"{p} KEDA trigger has no inline password", "password" not in md and "passwordFromEnv" not in md, f"{md}")
        redis_url = secret.get("REDIS_URL", "")
        if redis_url.startswith("rediss://"):
            c.check(f"{p} KEDA uses TLS for rediss://", md.get("enableTLS") == "true", f"{md}")
        ref = t.get("authenticationRef", {}).get("name")
        if expect.get("keda_auth"):
            auth = next((d for d in find(docs, "TriggerAuthentication") if d["metadata"]["name"] == ref), None)
            if c.check(f"{p} KEDA trigger authenticates via a rendered TriggerAuthentication", auth is not None, f"ref {ref}"):
                targets = auth["spec"]["secretTargetRef"]
                pw = next((t for t in targets if t["parameter"] == "password"), None)
                c.check(f"{p} TriggerAuthentication supplies the password", pw is not None, f"{targets}")
                if pw:
                    rendered = next((d for d in find(docs, "Secret") if d["metadata"]["name"] == pw["name"]), None)
                    if expect.get("keda_password_secret"):
                        c.check(f"{p} KEDA password from {expect['keda_password_secret']}", pw["name"] == expect["keda_password_secret"], f"{pw}")
                    else:
                        ok = rendered is not None and pw["key"] in decoded(rendered)
                        c.check(f"{p} KEDA password Secret/key is rendered", ok, f"{pw}")
                        if ok and expect.get("keda_password"):
                            c.check(f"{p} KEDA password matches Redis'", decoded(rendered)[pw["key"]] == expect["keda_password"], "differs")
        else:
            c.check(f"{p} KEDA needs no authentication here", ref is None, f"ref {ref}")
    if expect.get("min_zero"):
        c.check(f"{p} KEDA may scale workers to zero", so["spec"].get("minReplicaCount") == 0, f"{so['spec'].get('minReplicaCount')}")


def check_migrate(c: Checks, p: str, docs: list[dict], app_secret_name: str, expect: dict) -> None:
    jobs = [j for j in find(docs, "Job") if component(j) == "migrate"]
    if not c.check(f"{p} one migrate Job", len(jobs) == 1, f"{len(jobs)} jobs"):
        return
    job = jobs[0]
    events = hook_events(job)
    first = "post-install" if expect.get("bundled_postgres") else "pre-install"
    c.check(f"{p} migrate is a {first},pre-upgrade hook", events == {first, "pre-upgrade"}, f"{events}")
    ann = job["metadata"]["annotations"]
    policy = {x.strip() for x in ann.get("helm.sh/hook-delete-policy", "").split(",")}
    c.check(f"{p} migrate hook delete policy", {"before-hook-creation", "hook-succeeded"} <= policy, f"{policy}")
    c.check(f"{p} migrate hook has a weight", "helm.sh/hook-weight" in ann, f"{ann}")
    spec = pod_spec(job)
    ctr = spec["containers"][0]
    c.check(f"{p} migrate runs `leadgen-api migrate`", ctr.get("command") == ["leadgen-api", "migrate"], f"{ctr.get('command')}")
    c.check(f"{p} migrate pod never restarts in place", spec.get("restartPolicy") == "Never", f"{spec.get('restartPolicy')}")

    # At pre-install nothing but hooks and pre-existing objects exist: the Job must not need
    # the release's ConfigMap, ServiceAccount or ordinary Secret.
    c.check(f"{p} migrate reads no ConfigMap", "envFrom" not in ctr and not any("configMapKeyRef" in e.get("valueFrom", {}) for e in ctr.get("env", [])), f"{ctr.get('env')}")
    chart_sa = [d["metadata"]["name"] for d in find(docs, "ServiceAccount") if not hook_events(d)]
    c.check(f"{p} migrate uses no ServiceAccount created by the release", spec.get("serviceAccountName") not in chart_sa, f"{spec.get('serviceAccountName')}")
    refs = {e["valueFrom"]["secretKeyRef"]["name"] for e in ctr.get("env", []) if "secretKeyRef" in e.get("valueFrom", {})}
    keys = {e["name"] for e in ctr.get("env", []) if "secretKeyRef" in e.get("valueFrom", {})}
    c.check(f"{p} migrate gets DATABASE_URL and the two required secrets", {"DATABASE_URL", "LEADGEN_ENCRYPTION_KEY", "LEADGEN_JWT_SECRET"} <= keys, f"{keys}")
    c.check(f"{p} migrate reads one Secret", len(refs) == 1, f"{refs}")
    if expect.get("existing_secret"):
        c.check(f"{p} migrate reads the existing Secret", refs == {expect["existing_secret"]}, f"{refs}")
    else:
        name = next(iter(refs), "")
        hook_secret = next((d for d in find(docs, "Secret") if d["metadata"]["name"] == name), None)
        if c.check(f"{p} migrate's Secret is rendered", hook_secret is not None, f"{name}"):
            c.check(f"{p} migrate's Secret is a hook of the same events", hook_events(hook_secret) == events, f"{hook_events(hook_secret)}")
            weight = lambda d: int(d["metadata"]["annotations"].get("helm.sh/hook-weight", "0"))  # noqa: E731
            c.check(f"{p} migrate's Secret is created before the Job", weight(hook_secret) < weight(job), "weights out of order")
            c.check(f"{p} migrate's Secret is not the release's ordinary Secret", name != app_secret_name, name)
            data = decoded(hook_secret)
            ordinary = next((d for d in find(docs, "Secret") if d["metadata"]["name"] == app_secret_name), None)
            if ordinary:
                same = all(data.get(k) == decoded(ordinary).get(k) for k in keys)
                c.check(f"{p} migrate's Secret holds the same values as the app's", same, "values differ")
            c.check(f"{p} migrate's Secret holds only what migrate needs", set(data) == keys, f"{sorted(data)}")


def check_services(c: Checks, p: str, docs: list[dict]) -> None:
    pods = [d for d in docs if d.get("kind") in ("Deployment", "StatefulSet")]
    for svc in find(docs, "Service"):
        sel = svc["spec"].get("selector", {})
        targets = [w for w in pods if sel.items() <= w["spec"]["template"]["metadata"]["labels"].items()]
        name = svc["metadata"]["name"]
        c.check(f"{p} Service/{name} selects exactly one workload", len(targets) == 1, f"{len(targets)} match {sel}")
        if len(targets) == 1:
            ports = {pt.get("name") for ctr in pod_spec(targets[0])["containers"] for pt in ctr.get("ports", [])}
            for port in svc["spec"]["ports"]:
                tp = port.get("targetPort")
                c.check(f"{p} Service/{name} targetPort {tp} exists", isinstance(tp, int) or tp in ports, f"container ports {ports}")


def check_optional(c: Checks, p: str, docs: list[dict], cm: dict, expect: dict) -> None:
    ingresses = find(docs, "Ingress")
    if expect.get("ingress"):
        if c.check(f"{p} one Ingress", len(ingresses) == 1, f"{len(ingresses)}"):
            ing = ingresses[0]
            api_svc = next(s for s in find(docs, "Service") if component(s) == "api")
            backends = [path["backend"]["service"] for r in ing["spec"]["rules"] for path in r["http"]["paths"]]
            c.check(f"{p} Ingress routes to the api Service port http", all(b == {"name": api_svc["metadata"]["name"], "port": {"name": "http"}} for b in backends), f"{backends}")
            metrics_ports = [pt for pt in api_svc["spec"]["ports"] if pt.get("targetPort") == "metrics"]
            c.check(
                f"{p} the Ingress never routes /metrics (its Service port is not the routed one)",
                bool(metrics_ports) and all(b["port"] not in ({"name": pt["name"]}, {"number": pt["port"]}) for b in backends for pt in metrics_ports),
                f"{backends} vs {metrics_ports}",
            )
            c.check(f"{p} Ingress has a class", bool(ing["spec"].get("ingressClassName")), "no ingressClassName")
            tls_hosts = {h for t in ing["spec"].get("tls", []) for h in t["hosts"]}
            hosts = {r["host"] for r in ing["spec"]["rules"]}
            c.check(f"{p} Ingress TLS covers its hosts", hosts <= tls_hosts, f"{hosts} vs {tls_hosts}")
            first = ing["spec"]["rules"][0]["host"]
            c.check(f"{p} public URL derived from the TLS host", cm.get("LEADGEN_PUBLIC_URL") == f"https://{first}", f"{cm.get('LEADGEN_PUBLIC_URL')}")
    else:
        c.check(f"{p} no Ingress", not ingresses, "Ingress rendered")

    monitors = find(docs, "ServiceMonitor")
    if expect.get("servicemonitor"):
        c.check(f"{p} two ServiceMonitors (api, worker)", len(monitors) == 2, f"{len(monitors)}")
        for sm in monitors:
            sel = sm["spec"]["selector"]["matchLabels"]
            svcs = [s for s in find(docs, "Service") if sel.items() <= s["metadata"].get("labels", {}).items()]
            name = sm["metadata"]["name"]
            if c.check(f"{p} ServiceMonitor/{name} selects one Service", len(svcs) == 1, f"{len(svcs)}"):
                ports = {pt["name"] for pt in svcs[0]["spec"]["ports"]}
                for ep in sm["spec"]["endpoints"]:
                    c.check(f"{p} ServiceMonitor/{name} scrapes {ep.get('port')}{ep.get('path')}", ep.get("port") in ports and ep.get("path") == "/metrics", f"ports {ports}")
            c.check(f"{p} ServiceMonitor/{name} carries the selector label", all(sm["metadata"]["labels"].get(k) == v for k, v in expect.get("sm_labels", {}).items()), f"{sm['metadata']['labels']}")
    else:
        c.check(f"{p} no ServiceMonitor (off by default)", not monitors, "rendered")

    statefulsets = find(docs, "StatefulSet")
    if expect.get("bundled_postgres"):
        secret = decoded(next(d for d in find(docs, "Secret") if d["metadata"]["name"] == settings_configmap(docs)["metadata"]["name"]))
        pg = [s for s in find(docs, "Service") if component(s) == "postgresql"]
        rd = [s for s in find(docs, "Service") if component(s) == "redis"]
        c.check(f"{p} bundled Postgres and Redis StatefulSets", len(statefulsets) == 2, f"{len(statefulsets)}")
        if pg:
            c.check(f"{p} DATABASE_URL points at the bundled Postgres", f"@{pg[0]['metadata']['name']}:5432/" in secret.get("DATABASE_URL", ""), "elsewhere")
        if rd:
            c.check(f"{p} REDIS_URL points at the bundled Redis", f"@{rd[0]['metadata']['name']}:6379" in secret.get("REDIS_URL", ""), "elsewhere")
    else:
        c.check(f"{p} no bundled databases (off by default)", not statefulsets, f"{len(statefulsets)} StatefulSets")


def check_rules(c: Checks, p: str, docs: list[dict], root: Path, expect: dict) -> None:
    """The PrometheusRule carries files/alerts.yaml whole, with absolute runbook links; it
    appears only where the cluster serves its API (the Capabilities check)."""
    found = find(docs, "PrometheusRule")
    if not expect.get("prometheus_rule"):
        c.check(f"{p} no PrometheusRule (no monitoring.coreos.com/v1 PrometheusRule API)", not found, f"{len(found)} rendered")
        return
    if not c.check(f"{p} one PrometheusRule", len(found) == 1, f"{len(found)}"):
        return
    source = yaml.safe_load((root / "helm/leadgen/files/alerts.yaml").read_text())
    rendered = found[0]["spec"]["groups"]
    source = source["groups"]
    names = lambda groups, key: [r[key] for g in groups for r in g["rules"] if key in r]  # noqa: E731
    c.check(f"{p} PrometheusRule has every alert of files/alerts.yaml", names(rendered, "alert") == names(source, "alert"), f"{names(rendered, 'alert')}")
    c.check(f"{p} PrometheusRule has every recording rule", names(rendered, "record") == names(source, "record"), f"{names(rendered, 'record')}")
    src = {r["alert"]: r for g in source for r in g["rules"] if "alert" in r}
    for g in rendered:
        for r in g["rules"]:
            if "alert" not in r:
                continue
            a = r["alert"]
            url = r.get("annotations", {}).get("runbook_url", "")
            # A slow-burn alert shares its fast twin's runbook.
            runbook = a.removesuffix("Slow") if a.endswith("BudgetBurnSlow") else a
            c.check(
                f"{p} {a} links its runbook by an absolute URL",
                url.startswith("https://") and url.endswith(f"/docs/operations.md#runbook-{runbook.lower()}"),
                url,
            )
            c.check(f"{p} {a} expression unchanged", r["expr"] == src[a]["expr"], "differs from files/alerts.yaml")
            c.check(f"{p} {a} has a severity", r.get("labels", {}).get("severity") in ("critical", "warning"), f"{r.get('labels')}")
            extra = expect.get("alert_labels", {})
            c.check(f"{p} {a} carries metrics.prometheusRule.alertLabels", extra.items() <= r.get("labels", {}).items(), f"{r.get('labels')}")


def check_dashboard(c: Checks, p: str, docs: list[dict], root: Path, expect: dict) -> None:
    """The dashboard ConfigMap: off by default; when on, the sidecar's label and the JSON
    of files/dashboard.json as is."""
    found = [d for d in find(docs, "ConfigMap") if component(d) == "dashboard"]
    if not expect.get("dashboard"):
        c.check(f"{p} no dashboard ConfigMap (off by default)", not found, f"{len(found)} rendered")
        return
    if not c.check(f"{p} one dashboard ConfigMap", len(found) == 1, f"{len(found)}"):
        return
    cm = found[0]
    c.check(f"{p} dashboard labelled grafana_dashboard: \"1\"", cm["metadata"]["labels"].get("grafana_dashboard") == "1", f"{cm['metadata']['labels']}")
    data = cm.get("data", {})
    source = json.loads((root / "helm/leadgen/files/dashboard.json").read_text())
    try:
        rendered = json.loads(data.get("leadgen.json", ""))
    except ValueError as e:
        rendered = f"not JSON: {e}"
    c.check(f"{p} dashboard JSON is files/dashboard.json", rendered == source, str(rendered)[:200])
    c.check(f"{p} dashboard annotations pass through", cm["metadata"].get("annotations", {}).get("grafana_folder") == "Leadgen", f"{cm['metadata'].get('annotations')}")


def egress_allows(policy: dict, addr: str, port: int, proto: str = "TCP") -> bool:
    """Whether one of `policy`'s egress rules lets a pod reach `addr`:`port` outside the
    cluster (an ipBlock or no `to` at all; selectors name pods, never such an address)."""
    ip = ipaddress.ip_address(addr)
    for rule in policy["spec"].get("egress", []):
        ports = rule.get("ports")
        if ports and not any(p.get("protocol", "TCP") == proto and p.get("port") in (port, str(port)) for p in ports):
            continue
        peers = rule.get("to")
        if not peers:
            return True
        for peer in peers:
            block = peer.get("ipBlock")
            if not block:
                continue
            net = ipaddress.ip_network(block["cidr"])
            if ip.version == net.version and ip in net and not any(
                ip.version == ipaddress.ip_network(e).version and ip in ipaddress.ip_network(e) for e in block.get("except", [])
            ):
                return True
    return False


def ingress_peers(policy: dict, port: str) -> list:
    return [peer for rule in policy["spec"].get("ingress", []) for peer in rule.get("from", []) if any(p.get("port") == port for p in rule.get("ports", []))]


def check_network_policies(c: Checks, p: str, docs: list[dict], expect: dict) -> None:
    """API: ingress controller on http, Prometheus on metrics; workers: Prometheus only;
    migrate: nothing in, DNS and Postgres out; egress to the public internet, never to the
    cluster's, private or metadata addresses. Checked on addresses, not on the YAML's shape."""
    policies = {component(d): d for d in find(docs, "NetworkPolicy")}
    if not expect.get("network_policy", True):
        c.check(f"{p} no NetworkPolicy when networkPolicy.enabled is false", not policies, f"{sorted(policies)}")
        return
    wanted = {"api", "worker", "migrate"} | ({"postgresql", "redis"} if expect.get("bundled_postgres") else set())
    if not c.check(f"{p} NetworkPolicies for {sorted(wanted)}", set(policies) == wanted, f"{sorted(policies)}"):
        return
    for comp, pol in policies.items():
        dep = deployment(docs, comp) or next((d for d in docs if d.get("kind") in ("Job", "StatefulSet") and component(d) == comp), None)
        if dep:
            labels = dep["spec"]["template"]["metadata"]["labels"]
            c.check(f"{p} NetworkPolicy/{comp} selects the {comp} pods", pol["spec"]["podSelector"]["matchLabels"].items() <= labels.items(), f"{pol['spec']['podSelector']}")
        c.check(f"{p} NetworkPolicy/{comp} restricts both directions", set(pol["spec"].get("policyTypes", [])) == {"Ingress", "Egress"}, f"{pol['spec'].get('policyTypes')}")
    api, worker, migrate = policies["api"], policies["worker"], policies["migrate"]
    ingress_ports = lambda pol: sorted({str(pt.get("port")) for r in pol["spec"].get("ingress", []) for pt in r.get("ports", [])})  # noqa: E731
    c.check(f"{p} api accepts only http and metrics", ingress_ports(api) == ["http", "metrics"], f"{ingress_ports(api)}")
    ingress_names = [
        peer.get("podSelector", {}).get("matchLabels", {}).get("app.kubernetes.io/name") + ":" + peer.get("podSelector", {}).get("matchLabels", {}).get("app.kubernetes.io/component", "")
        for peer in ingress_peers(api, "http")
    ]
    c.check(
        f"{p} api http only from the ingress controller and this release's helm test pod",
        ingress_names == ["ingress-nginx:", "leadgen:test"] and "namespaceSelector" not in ingress_peers(api, "http")[1],
        f"{ingress_peers(api, 'http')}",
    )
    prom = lambda pol: [peer.get("podSelector", {}).get("matchLabels", {}).get("app.kubernetes.io/name") for peer in ingress_peers(pol, "metrics")]  # noqa: E731
    c.check(f"{p} api metrics only from Prometheus", prom(api) == ["prometheus"], f"{ingress_peers(api, 'metrics')}")
    c.check(f"{p} workers accept only Prometheus on metrics", ingress_ports(worker) == ["metrics"] and prom(worker) == ["prometheus"], f"{worker['spec'].get('ingress')}")
    c.check(f"{p} migrate accepts nothing", not migrate["spec"].get("ingress"), f"{migrate['spec'].get('ingress')}")
    dns = lambda pol: any(  # noqa: E731
        any(pt.get("port") == 53 and pt.get("protocol") == proto for pt in r.get("ports", [])) and r.get("to")
        for r in pol["spec"]["egress"]
        for proto in ("UDP",)
    ) and any(any(pt.get("port") == 53 and pt.get("protocol") == "TCP" for pt in r.get("ports", [])) for r in pol["spec"]["egress"])
    pg_port = expect.get("postgres_port", 5432)
    redis_port = int(expect.get("keda_address", "x:6379").rsplit(":", 1)[1]) if not expect.get("bundled_postgres") else 6379
    for comp, pol in (("api", api), ("worker", worker), ("migrate", migrate)):
        c.check(f"{p} {comp} may ask DNS (53 UDP and TCP, selected pods only)", dns(pol), f"{pol['spec']['egress']}")
        pg_rules = [r for r in pol["spec"]["egress"] if any(pt.get("port") == pg_port for pt in r.get("ports", []))]
        c.check(f"{p} {comp} may reach Postgres on {pg_port}", bool(pg_rules), f"{pol['spec']['egress']}")
        if expect.get("bundled_postgres"):
            c.check(f"{p} {comp} reaches the bundled Postgres pod only", all(r.get("to") and "podSelector" in r["to"][0] for r in pg_rules), f"{pg_rules}")
        if expect.get("postgres_to"):
            c.check(f"{p} {comp} reaches Postgres at {expect['postgres_to']} only", egress_allows(pol, expect["postgres_to"], pg_port) and not egress_allows(pol, "10.20.0.6", pg_port), f"{pg_rules}")
        # The fence, on addresses: cloud metadata, private ranges and the cluster's own are
        # out on every port a website or webhook could use; the public internet is in.
        closed = ["169.254.169.254", "10.1.2.3", "172.16.5.4", "192.168.1.1", "100.64.0.1", "127.0.0.1", "fd00:ec2::254", "fe80::1", "::ffff:10.0.0.1"]
        closed += [str(next(ipaddress.ip_network(cidr).hosts())) for cidr in expect.get("cluster_cidrs", [])]
        for port in (80, 443, 8080):
            opened = [a for a in closed if egress_allows(pol, a, port)]
            c.check(f"{p} {comp} cannot reach private, metadata or cluster addresses on {port}", not opened, f"reachable: {opened}")
        public = egress_allows(pol, "142.250.74.106", 443) and egress_allows(pol, "2a00:1450:4001:82b::200a", 443) and egress_allows(pol, "93.184.215.14", 8443)
        if comp == "migrate":
            c.check(f"{p} migrate cannot reach the public internet", not egress_allows(pol, "142.250.74.106", 443), "it can")
        else:
            c.check(f"{p} {comp} may reach the public internet on any port, IPv4 and IPv6", public, f"{pol['spec']['egress']}")
            c.check(f"{p} {comp} may reach Redis on {redis_port}", any(any(pt.get("port") == redis_port for pt in r.get("ports", [])) for r in pol["spec"]["egress"]), f"{pol['spec']['egress']}")
    if expect.get("bundled_postgres"):
        for db, port in (("postgresql", 5432), ("redis", 6379)):
            pol = policies[db]
            froms = [peer.get("podSelector", {}).get("matchLabels", {}).get("app.kubernetes.io/component") or peer.get("podSelector", {}).get("matchLabels", {}).get("app") for peer in ingress_peers(pol, port)]
            # Postgres: and the queue check of `helm test`, which signs its account in there.
            want = ["api", "worker", "migrate"] + (["keda-operator"] if db == "redis" else ["test"])
            c.check(f"{p} bundled {db} accepts only Leadgen's pods{' and KEDA' if db == 'redis' else ' and the queue check'} on {port}", froms == want, f"{froms}")
            c.check(f"{p} bundled {db} reaches nothing", not pol["spec"].get("egress"), f"{pol['spec'].get('egress')}")


def check_helm_test(c: Checks, p: str, docs: list[dict]) -> None:
    """`helm test` asks the API Service for health and readiness, and queues a search
    through it that a worker must run (`leadgen-api queue-check`, with the release's
    settings), each with the chart's image, hardened like every pod."""
    pods = {d["metadata"]["name"]: d for d in find(docs, "Pod") if component(d) == "test"}
    if not c.check(f"{p} two helm test pods (probe, queue check)", sorted(pods) == ["leadgen-test-api", "leadgen-test-queue"], f"{sorted(pods)}"):
        return
    api_svc = next(s for s in find(docs, "Service") if component(s) == "api")
    port = next(pt["port"] for pt in api_svc["spec"]["ports"] if pt["name"] == "http")
    base = f"http://{api_svc['metadata']['name']}.leadgen.svc:{port}"
    api = deployment(docs, "api")
    leadgen = {x["image"] for x in pod_spec(api)["containers"]}
    probe = pods["leadgen-test-api"]["spec"]["containers"][0]
    c.check(
        f"{p} the test probes the API Service's health and readiness",
        probe.get("command") == ["leadgen-api", "probe", f"{base}/api/health", f"{base}/api/ready"],
        f"{probe.get('command')}",
    )
    queue = pods["leadgen-test-queue"]["spec"]["containers"][0]
    c.check(
        f"{p} the queue check queues a search through the API Service",
        queue.get("command") == ["leadgen-api", "queue-check", "--timeout", "180", base],
        f"{queue.get('command')}",
    )
    c.check(
        f"{p} the queue check has the API's settings (ConfigMap and Secret)",
        queue.get("envFrom") == pod_spec(api)["containers"][0].get("envFrom"),
        f"{queue.get('envFrom')}",
    )
    for name, pod in sorted(pods.items()):
        c.check(f"{p} {name} is a helm test hook", hook_events(pod) == {"test"}, f"{hook_events(pod)}")
        spec = pod["spec"]
        ctr = spec["containers"][0]
        c.check(f"{p} {name} runs the chart's own image", {ctr["image"]} == leadgen, f"{ctr['image']} vs {leadgen}")
        sc = ctr.get("securityContext", {})
        c.check(
            f"{p} {name} is hardened",
            spec.get("securityContext", {}).get("runAsNonRoot") is True
            and sc.get("readOnlyRootFilesystem") is True
            and sc.get("allowPrivilegeEscalation") is False
            and spec.get("automountServiceAccountToken") is False
            and spec.get("restartPolicy") == "Never"
            and bool(ctr.get("resources")),
            f"{spec}",
        )


def check_wiring(c: Checks, docs: list[dict], names: set[str], secret_names: set[str]) -> None:
    """Every setting the code reads is given to the containers, secrets through the Secret."""
    p = f"[{FULL_CASE}]"
    cm = settings_configmap(docs)["data"]
    secret = decoded(next(d for d in find(docs, "Secret") if d["metadata"]["name"] == settings_configmap(docs)["metadata"]["name"]))
    wanted = {n: ("secret" if n in secret_names else "config") for n in names}
    for n, kind in ANNOUNCED_SETTINGS.items():
        wanted.setdefault(n, kind)
    worker = deployment(docs, "worker")
    worker_env = {e["name"]: e for e in pod_spec(worker)["containers"][0].get("env", [])} if worker else {}
    for name, kind in sorted(wanted.items()):
        if name in NOT_WIRED:
            print(f"note: {name} not wired: {NOT_WIRED[name]}")
            continue
        if name in FROM_POD:
            field = worker_env.get(name, {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
            c.check(f"{p} {name} comes from the pod's {FROM_POD[name]}", field == FROM_POD[name], f"{worker_env.get(name)}")
            continue
        if kind == "secret":
            c.check(f"{p} {name} is in the Secret (not the ConfigMap)", name in secret and name not in cm, f"in Secret: {name in secret}, in ConfigMap: {name in cm}")
        else:
            c.check(f"{p} {name} is wired", name in cm or name in secret, "neither in the ConfigMap nor in the Secret")


CASES = {
    "default-values": {"worker": "keda", "keda_address": "cache.example.internal:6379"},
    "ingress-tls-values": {
        "worker": "keda",
        "ingress": True,
        "digest": True,
        "keda_auth": True,
        "keda_password": "redispw",
        "keda_address": "cache.example.internal:6380",
        "cluster_cidrs": ["198.18.0.0/15", "2001:db8:42::/48"],
    },
    "worker-keda-values": {"worker": "keda", "keda_auth": True, "keda_password": "s3cret", "min_zero": True, "prefix": "tenant-a"},
    "worker-hpa-values": {"worker": "hpa", "api_hpa": False},
    "worker-fixed-values": {"worker": "fixed", "api_hpa": False, "network_policy": False},
    "existing-secret-values": {
        "worker": "keda",
        "existing_secret": "leadgen-prod",
        "keda_auth": True,
        "keda_password_secret": "leadgen-redis-password",
        "keda_address": "cache.example.internal:6379",
        "postgres_port": 6432,
        "postgres_to": "10.20.0.5",
    },
    "bundled-values": {"worker": "keda", "bundled_postgres": True, "keda_auth": True, "keda_password": "trialredis"},
    "servicemonitor-values": {
        "worker": "keda",
        "servicemonitor": True,
        "sm_labels": {"release": "kube-prometheus-stack"},
        "prometheus_rule": True,
        "alert_labels": {"team": "leads"},
        "dashboard": True,
    },
}


def main() -> int:
    root, rendered = Path(sys.argv[1]), Path(sys.argv[2])
    c = Checks()
    names, secret_names = settings_in_code(root)
    keys = queue_keys(root)
    print(f"note: waiting jobs in {', '.join(keys)}")
    ci = sorted(Path(f).stem for f in glob.glob(str(root / "helm/leadgen/ci/*.yaml")))
    c.check("every ci values file has assertions", set(ci) <= set(CASES), f"no expectations for {sorted(set(ci) - set(CASES))}")
    for case, expect in CASES.items():
        path = rendered / f"{case}.yaml"
        if not c.check(f"[{case}] was rendered", path.exists(), f"{path} missing"):
            continue
        docs = load(path)
        check_case(c, case, docs, {**expect, "queue_keys": keys})
        check_rules(c, f"[{case}]", docs, root, expect)
        check_dashboard(c, f"[{case}]", docs, root, expect)
        check_network_policies(c, f"[{case}]", docs, expect)
        check_helm_test(c, f"[{case}]", docs)
        if case == FULL_CASE:
            check_wiring(c, docs, names, secret_names)
    print(f"assertions: {c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
