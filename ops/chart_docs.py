#!/usr/bin/env python3
"""The chart's README (helm-docs style) and values.schema.json, both generated from
helm/leadgen/values.yaml and its `# --` comments.

Usage: chart_docs.py REPO_ROOT [--check]
  writes helm/leadgen/README.md and helm/leadgen/values.schema.json, or with --check
  fails (exit 1) when either differs from what values.yaml gives, or when a setting has no
  `# --` comment (its own or a parent's).

helm-docs is a Go binary not packaged here, so this does its part: a key documented with
`# --` is a row (a key documented as a whole, such as `resources`, is one row however deep
its default). The schema follows the same reading: a documented map is free-form (its
inside is Kubernetes' or the user's), an undocumented map is the chart's own and refuses
unknown keys (a misspelt setting fails `helm install` instead of being ignored); scalars
keep their default's type. CONSTRAINTS below adds what a default cannot say.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

CHART = "helm/leadgen"

PORT = {"type": "integer", "minimum": 1, "maximum": 65535}
COUNT = {"type": "integer", "minimum": 0}
# Rules a default cannot express, by dotted path ("*" matches one key). Keys the templates
# check with a message of their own (autoscaler, logFormat) keep only a loose type here, so
# the template's plainer message is the one users see.
CONSTRAINTS: dict[str, dict] = {
    "image.tag": {"type": ["string", "number"]},
    "image.digest": {"type": "string", "pattern": "^(sha256:[a-f0-9]{64})?$"},
    "image.pullPolicy": {"type": "string", "enum": ["Always", "IfNotPresent", "Never"]},
    "config.sentry.tracesSampleRate": {"type": ["string", "number"]},
    "config.sessionTtlSecs": {"type": "integer", "minimum": 60, "maximum": 86400},
    "config.reconnectGraceSecs": {"type": "integer", "minimum": 0, "maximum": 3600},
    "config.auditRetentionDays": {"type": "integer", "minimum": 1, "maximum": 3650},
    "config.databaseConnections": {"type": "integer", "minimum": 2, "maximum": 200},
    "config.completeness": {"type": "string", "enum": ["on", "off"]},
    "config.completenessFetchMissing": {"type": "string", "enum": ["on", "off"]},
    "config.planMemoryDays": {"type": "integer", "minimum": 0, "maximum": 30},
    "config.probeAfterEstimateSecs": {"type": "integer", "minimum": 0, "maximum": 60},
    "config.rateLimits.*": COUNT,
    "config.placesRps": {"type": "number", "exclusiveMinimum": 0},
    "config.placesPrices.*": {"type": "number", "minimum": 0},
    "config.workerConcurrency": {"type": "integer", "minimum": 1},
    "config.monitorMinIntervalMinutes": {"type": "integer", "minimum": 1, "maximum": 10080},
    "config.schedulerTickSecs": {"type": "integer", "minimum": 1, "maximum": 300},
    "config.resultsReplayMinutes": {"type": "integer", "minimum": 1, "maximum": 60},
    "config.webhooks.timeoutSecs": {"type": "integer", "minimum": 1, "maximum": 60},
    "config.usage.*": COUNT,
    "worker.autoscaling.autoscaler": {},
    "api.metricsPort": PORT,
    "worker.metricsPort": PORT,
    "api.service.port": PORT,
    "*.replicaCount": COUNT,
    "*.autoscaling.minReplicas": COUNT,
    "*.autoscaling.maxReplicas": {"type": "integer", "minimum": 1},
    "*.pdb.maxUnavailable": {"type": ["integer", "string", "null"]},
    "*.pdb.minAvailable": {"type": ["integer", "string", "null"]},
    "*.podAntiAffinity": {"type": "string", "enum": ["soft", "hard", ""]},
    "*.terminationGracePeriodSeconds": COUNT,
    "networkPolicy.postgres.port": {"type": ["integer", "string"], "pattern": "^[0-9]*$"},
    "networkPolicy.redis.port": {"type": ["integer", "string"], "pattern": "^[0-9]*$"},
    "networkPolicy.clusterCidrs": {"type": "array", "items": {"type": "string", "pattern": "^[0-9a-fA-F.:]+/[0-9]{1,3}$"}},
    "metrics.prometheusRule.runbookBaseUrl": {"type": "string", "pattern": "^https?://"},
    "postgresql.auth.password": {"type": "string", "pattern": "^[A-Za-z0-9]*$"},
    "redis.auth.password": {"type": "string", "pattern": "^[A-Za-z0-9]*$"},
}


def parse(values_text: str) -> tuple[dict, dict[str, str], list[str]]:
    """(values, {documented dotted key: description}, [keys in file order])."""
    data = yaml.safe_load(values_text)
    docs: dict[str, str] = {}
    order: list[str] = []
    stack: list[tuple[int, str]] = []
    comments: list[str] = []
    skip_deeper_than: int | None = None
    for line in values_text.splitlines():
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if skip_deeper_than is not None:
            if not stripped or indent > skip_deeper_than or (indent == skip_deeper_than and stripped.startswith("- ")):
                continue
            skip_deeper_than = None
        if not stripped:
            comments = []
            continue
        if stripped.startswith("#"):
            comments.append(stripped)
            continue
        m = re.match(r"^([A-Za-z0-9_.-]+):(\s.*)?$", stripped)
        if not m or stripped.startswith("- "):
            comments = []
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = ".".join([k for _, k in stack] + [m.group(1)])
        value = lookup(data, path)
        starts = [i for i, c in enumerate(comments) if c.startswith("# --")]
        if starts:
            block = comments[starts[-1]:]
            text = " ".join([block[0][4:].strip()] + [c.lstrip("#").strip() for c in block[1:]])
            docs[path] = text.strip()
        order.append(path)
        comments = []
        if isinstance(value, dict) and path not in docs:
            stack.append((indent, m.group(1)))
        else:
            skip_deeper_than = indent
    return data, docs, order


def lookup(data: dict, path: str):
    for key in path.split("."):
        data = data[key]
    return data


def type_of(value) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "object"
    return "null"


def constraint(path: str) -> dict | None:
    for pattern, rule in CONSTRAINTS.items():
        regex = "^" + re.escape(pattern).replace(r"\*", "[^.]+") + "$"
        if re.match(regex, path):
            return rule
    return None


def schema_for(value, path: str, docs: dict[str, str]) -> dict:
    rule = constraint(path)
    out: dict = {}
    if path in docs:
        out["description"] = docs[path]
    if rule is not None:
        return {**out, **rule}
    if isinstance(value, dict) and (path not in docs or not path):
        props = {k: schema_for(v, f"{path}.{k}" if path else k, docs) for k, v in value.items()}
        return {**out, "type": "object", "additionalProperties": False, "properties": props}
    kind = {
        "bool": {"type": "boolean"},
        "int": {"type": "integer"},
        "float": {"type": "number"},
        "string": {"type": "string"},
        "object": {"type": "object"},
        "null": {},
    }.get(type_of(value))
    if kind is None:  # a list
        items = {"type": "string"} if value and all(isinstance(i, str) for i in value) else {}
        kind = {"type": "array", **({"items": items} if items else {})}
    return {**out, **kind}


def readme(chart: dict, data: dict, docs: dict[str, str], order: list[str]) -> str:
    rows = []
    for path in order:
        if path not in docs:
            continue
        value = lookup(data, path)
        default = json.dumps(value, separators=(",", ":")) if not isinstance(value, str) else json.dumps(value)
        if len(default) > 80:
            default = default[:77] + "..."
        desc = docs[path].replace("|", "\\|")
        default = default.replace("|", "\\|")
        rows.append(f"| {path} | {type_of(value)} | `{default}` | {desc} |")
    return "\n".join(
        [
            f"# {chart['name']}",
            "",
            chart["description"].strip(),
            "",
            f"Chart version {chart['version']}, app version {chart['appVersion']}, Kubernetes {chart['kubeVersion']}.",
            "How to install, operate and upgrade it: [docs/operations.md](../../docs/operations.md).",
            "",
            "<!-- Generated from values.yaml by ops/chart-docs (helm-docs style); do not edit. -->",
            "",
            "## Values",
            "",
            "| Key | Type | Default | Description |",
            "|-----|------|---------|-------------|",
            *rows,
            "",
        ]
    )


def undocumented(data: dict, docs: dict[str, str], order: list[str]) -> list[str]:
    """Settings with no `# --` of their own or of a parent."""
    missing = []
    for path in order:
        value = lookup(data, path)
        parts = path.split(".")
        covered = any(".".join(parts[:i]) in docs for i in range(1, len(parts) + 1))
        if not covered and not isinstance(value, dict):
            missing.append(path)
    return missing


def main() -> int:
    root = Path(sys.argv[1])
    check = "--check" in sys.argv[2:]
    chart_dir = root / CHART
    data, docs, order = parse((chart_dir / "values.yaml").read_text())
    chart = yaml.safe_load((chart_dir / "Chart.yaml").read_text())
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "title": f"{chart['name']} chart values", **schema_for(data, "", docs)}
    outputs = {
        chart_dir / "README.md": readme(chart, data, docs, order),
        chart_dir / "values.schema.json": json.dumps(schema, indent=2) + "\n",
    }
    failed = 0
    for path, text in outputs.items():
        if check:
            ok = path.exists() and path.read_text() == text
            print(("PASS" if ok else "FAIL") + f" {path.relative_to(root)} is what values.yaml gives" + ("" if ok else " (run ops/chart-docs)"))
            failed += not ok
        else:
            path.write_text(text)
            print(f"wrote {path.relative_to(root)}")
    missing = undocumented(data, docs, order)
    print(("PASS" if not missing else "FAIL") + " every setting in values.yaml has a `# --` comment" + (f": missing for {missing}" if missing else ""))
    failed += bool(missing)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
