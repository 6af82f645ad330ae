#!/usr/bin/env python3
"""Checks what the server example's telemetry recorded over one deploy
(scripts/server-test.sh, check (i)): its /metrics answer, read while it ran,
after a reload, and the spans it wrote at exit.

    check-telemetry.py METRICS_FILE HTTP_CODE SPANS_FILE

/metrics: answered 200; section_registry_modules_running is 5 (Routing,
Database, Notes, Telemetry, HTTP); the hook timer has Notes' setUp and
reload; no shutdown counted yet (the server was running).
Spans: one launch, with each module's setUp/start/run under it; a reload
with Notes' reload under it; one shutdown, with HTTP's drain before the
stop hooks' spans (none here: no module writes stop) and Database's drain
last; every span of a module named by its attribute; no error on any.
Prints what it found; exit 1 on the first thing that does not hold.
"""
import json
import re
import sys

metrics_file, code, spans_file = sys.argv[1:4]
problems = []


def expect(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        problems.append(what)


# /metrics
text = open(metrics_file).read() if code == "200" else ""
expect(code == "200", f"/metrics answered {code}")
samples = {}
for line in text.splitlines():
    match = re.match(r'^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$', line)
    if match:
        samples[(match.group(1), match.group(2) or "")] = float(match.group(3))
running = samples.get(("section_registry_modules_running", ""))
expect(running == 5, f"section_registry_modules_running is {running} (5 modules)")
for phase in ["setUp", "reload"]:
    counts = [value for (name, labels), value in samples.items()
              if name == "section_registry_hook_duration_count" and 'module="Notes"' in labels and f'phase="{phase}"' in labels]
    expect(counts and counts[0] >= 1, f"section_registry_hook_duration_count{{module=Notes, phase={phase}}} is {counts}")
shutdowns = [value for (name, _), value in samples.items() if name == "section_registry_shutdowns_total"]
expect(sum(shutdowns) == 0, f"no shutdown counted while running: {shutdowns}")

# Spans
spans = [json.loads(line) for line in open(spans_file) if line.strip()]
by_id = {span["spanID"]: span for span in spans}
names = [span["name"] for span in spans]
print(f"{len(spans)} spans: {', '.join(sorted(set(names)))}")


def parent(span):
    return by_id.get(span["parentSpanID"], {}).get("name") if span["parentSpanID"] else None


def only(name):
    found = [span for span in spans if span["name"] == name]
    expect(len(found) == 1, f"one span {name!r} ({len(found)})")
    return found[0] if found else None


launch, shutdown = only("launch"), only("shutdown")
expect(launch is not None and parent(launch) is None, "the launch is a root")
for name in ["Routing setUp", "Database setUp", "Notes setUp", "Notes start", "Telemetry start", "Database run", "HTTP run"]:
    span = only(name)
    expect(span is not None and parent(span) == "launch", f"{name!r} is under the launch")
reloads = [span for span in spans if span["name"] == "reload"]
expect(len(reloads) >= 1 and all(parent(span) is None for span in reloads), f"{len(reloads)} reload span(s), roots")
notes_reloads = [span for span in spans if span["name"] == "Notes reload"]
expect(len(notes_reloads) == len(reloads) and all(parent(span) == "reload" for span in notes_reloads),
       f"a 'Notes reload' under each reload ({len(notes_reloads)})")
expect(shutdown is not None and parent(shutdown) is None and "readiness withdrawn" in shutdown["events"],
       "the shutdown is a root, with its readiness withdrawn")
drains = sorted((span for span in spans if span["name"].endswith(" drain")), key=lambda span: span["start"])
expect([span["name"] for span in drains] == ["HTTP drain", "Database drain"], f"drains in order: {[span['name'] for span in drains]}")
expect(all(parent(span) == "shutdown" for span in drains), "each drain under the shutdown")
for span in spans:
    module = span["attributes"].get("section_registry.module")
    if span["name"] not in ("launch", "shutdown", "reload", "intake", "lame duck"):
        expect(module is not None and span["name"].startswith(module + " "), f"{span['name']!r} names its module ({module})")
expect(not any(span["error"] for span in spans), "no span is an error")

sys.exit(1 if problems else 0)
