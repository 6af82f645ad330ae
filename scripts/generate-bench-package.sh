#!/usr/bin/env bash
# generate-bench-package.sh OUT_DIR N...
#
# Writes a SwiftPM package into OUT_DIR (generated, never committed) that
# depends on this checkout and its benchmarks package (Sources/Benchmarks)
# by path and, for each N, holds N modules
# registered four ways, for scripts/bench.sh to compare:
#   RecordsN + ModulesN   N APP_MODULE records and their Swift factories
#                         (the classes are also what _typeByName resolves)
#   ConstructorsN         N constructors that register before main
#   manifest-N.json       a JSON list of the N class names
# and the executables that measure them:
#   DiscoveryN            discovery, the raw C walk, _typeByName, the manifest
#   StartupN              returns at once; linked with ModulesN and RecordsN
#   BareStartupN          returns at once; linked with ModulesN alone: the
#                         same Swift code without the records
#   ConstructorStartupN   returns at once; linked with the N constructors
#   HostedAppN            the whole app: discovers the N modules, launches
#                         them with a ModuleHost, stops them, exits
#   HandAppN              the same N modules, created and started by a
#                         hand-written main in a fixed order (an array
#                         of services, each call forwarded by hand)
#   StartupEmpty          returns at once; linked with SectionRegistry alone
#   StartupPlain          returns at once; links nothing
#
# BENCH_TRAITS=Tracing,Metrics (say) turns those package traits of
# SectionRegistry on in the generated package: what the traits cost the
# same programs (Tracing.md and Metrics.md's figures). BENCH_HOOKS=1 gives
# every module a start and a stop hook, empty: what the host's work per
# hook costs (the hand-written main calls begin and end either way).
set -euo pipefail
hooks=""
if [ "${BENCH_HOOKS:-0}" = 1 ]; then
    hooks="; public func start(_ context: ModuleContext) async throws {}; public func stop(_ context: ModuleContext) async throws {}"
fi

out=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out/Sources" "$out"/manifest-*.json
mkdir -p "$out/Sources/StartupEmpty" "$out/Sources/StartupPlain"
echo '// Returns at once: the start-up baseline.' >"$out/Sources/StartupEmpty/main.swift"
echo '// Returns at once: the baseline of the constructors.' >"$out/Sources/StartupPlain/main.swift"

targets=""
for n in "$@"; do
    names=$(seq -f "M%05g" 0 $((n - 1)))
    mkdir -p "$out/Sources/Records$n" "$out/Sources/Modules$n" "$out/Sources/Constructors$n" \
             "$out/Sources/Discovery$n" "$out/Sources/Startup$n" "$out/Sources/BareStartup$n" \
             "$out/Sources/ConstructorStartup$n" "$out/Sources/HostedApp$n" "$out/Sources/HandApp$n"
    {
        echo '#include <app_module.h>'
        awk '{ print "APP_MODULE(" $0 ");" }' <<<"$names"
    } >"$out/Sources/Records$n/records.c"
    {
        echo 'import SectionRegistry'
        echo '/// What a hand-written main calls: a start and a stop per service.'
        echo 'public protocol HandStarted { func begin() async; func end() async }'
        awk -v hooks="$hooks" '{ print "public final class " $0 ": AppModule, HandStarted { public init() {}; public func begin() async {}; public func end() async {}" hooks " }";
               print "@c(app_module_" $0 ") func make" $0 "() -> AppModuleHandle { AppModuleHandle(" $0 "()) }" }' <<<"$names"
    } >"$out/Sources/Modules$n/Modules.swift"
    cat >"$out/Sources/HostedApp$n/main.swift" <<SWIFT
import SectionRegistry
// Links Modules$n and Records$n; discovers, launches and stops them.
let host = ModuleHost(registry: try ModuleRegistry.linked())
try await host.launch()
guard await host.runningModules.count == $n else { fatalError("not every module started") }
await host.terminate()
SWIFT
    {
        echo "import Modules$n"
        echo '// The same modules, listed and started by hand, in functions of 100'
        echo '// appends: one array literal or function of 10,000 takes the compiler'
        echo '// far too long.'
        awk '(NR - 1) % 100 == 0 { if (NR > 1) print "}"; print "func list" int((NR - 1) / 100) "(_ modules: inout [any HandStarted]) {" }
             { print "    modules.append(" $0 "())" }
             END { print "}" }' <<<"$names"
        echo 'var modules: [any HandStarted] = []'
        echo "modules.reserveCapacity($n)"
        for ((chunk = 0; chunk < (n + 99) / 100; chunk++)); do echo "list$chunk(&modules)"; done
        echo 'for module in modules { await module.begin() }'
        echo 'for module in modules.reversed() { await module.end() }'
    } >"$out/Sources/HandApp$n/main.swift"
    {
        # As Rust's inventory does: each constructor pushes a static node onto one list.
        echo 'struct inventory_node { const char *name; void *(*make)(void); struct inventory_node *next; };'
        echo 'struct inventory_node *inventory_head;'
        echo 'static void inventory_submit(struct inventory_node *node) { node->next = inventory_head; inventory_head = node; }'
        awk '{ print "static void *make_" $0 "(void) { return 0; }";
               print "static struct inventory_node node_" $0 " = { \"" $0 "\", make_" $0 ", 0 };";
               print "__attribute__((constructor)) static void submit_" $0 "(void) { inventory_submit(&node_" $0 "); }" }' <<<"$names"
    } >"$out/Sources/Constructors$n/constructors.c"
    awk -v prefix="Modules$n." 'BEGIN { printf "[" } { printf "%s\"%s%s\"", (NR > 1 ? "," : ""), prefix, $0 } END { print "]" }' \
        <<<"$names" >"$out/manifest-$n.json"
    cat >"$out/Sources/Discovery$n/main.swift" <<SWIFT
import RegistryBenchmarks
// Links Modules$n (and Records$n) through Package.swift; imports neither.
await DiscoveryBenchmarks.run(moduleCount: $n, typeNamePrefix: "Modules$n.", manifest: "$out/manifest-$n.json")
SWIFT
    echo '// Returns at once: start-up with the records linked.' >"$out/Sources/Startup$n/main.swift"
    echo '// Returns at once: start-up with the same Swift code and no records.' >"$out/Sources/BareStartup$n/main.swift"
    echo '// Returns at once: start-up with the constructors linked.' >"$out/Sources/ConstructorStartup$n/main.swift"
    targets+="
        .target(name: \"Records$n\", dependencies: [registry], publicHeadersPath: \".\"),
        .target(name: \"Modules$n\", dependencies: [registry]),
        .target(name: \"Constructors$n\", publicHeadersPath: \".\"),
        .executableTarget(name: \"Discovery$n\", dependencies: [benchmarks, \"Modules$n\", \"Records$n\"]),
        .executableTarget(name: \"Startup$n\", dependencies: [registry, \"Modules$n\", \"Records$n\"]),
        .executableTarget(name: \"BareStartup$n\", dependencies: [registry, \"Modules$n\"]),
        .executableTarget(name: \"ConstructorStartup$n\", dependencies: [\"Constructors$n\"]),
        .executableTarget(name: \"HostedApp$n\", dependencies: [registry, \"Modules$n\", \"Records$n\"]),
        .executableTarget(name: \"HandApp$n\", dependencies: [registry, \"Modules$n\", \"Records$n\"]),"
done

traits=""
if [ -n "${BENCH_TRAITS:-}" ]; then
    traits=", traits: [$(sed 's/[^,]*/"&"/g' <<<"$BENCH_TRAITS")]"
fi
cat >"$out/Package.swift" <<SWIFT
// swift-tools-version: 6.3
// Generated by scripts/generate-bench-package.sh; not committed.
import PackageDescription

let registry = Target.Dependency.product(name: "SectionRegistry", package: "SectionRegistry")
let benchmarks = Target.Dependency.product(name: "RegistryBenchmarks", package: "SectionRegistryBenchmarks")

let package = Package(
    name: "GeneratedBenchmarks",
    dependencies: [
        .package(name: "SectionRegistry", path: "$root"$traits),
        .package(name: "SectionRegistryBenchmarks", path: "$root/Sources/Benchmarks"),
    ],
    targets: [
        .executableTarget(name: "StartupEmpty", dependencies: [registry]),
        .executableTarget(name: "StartupPlain"),$targets
    ],
    swiftLanguageModes: [.v6]
)
SWIFT
