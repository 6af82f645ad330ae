#!/usr/bin/env bash
# docs.sh: builds the DocC catalogs, Sources/SectionRegistry/SectionRegistry.docc
# with the API of the SectionRegistry module (the ServiceLifecycle, Logging,
# ArgumentParser, Tracing, Metrics and Configuration traits' too) into
# .build-docs/SectionRegistry.doccarchive,
# and Sources/SectionRegistryTesting/SectionRegistryTesting.docc with the
# testing kit's into .build-docs/SectionRegistryTesting.doccarchive, and
# fails on any DocC warning (a symbol or article link that does not resolve
# or is ambiguous, ...). The Hummingbird trait (ModuleContext.serve(_:health:),
# HealthRoutes and SharedRouter, told in the Servers and Deploying
# articles) and the Macros trait
# (the @AppModule macro, told in the README) are left out of the build:
# they would build swift-nio and Hummingbird, or swift-syntax, for it.
#
# The package depends on no other package, so there is no swift-docc-plugin:
# the compiler writes the symbol graphs while it builds the SectionRegistry
# target, and the toolchain's docc converts them with the catalog. The build
# has a scratch path of its own under .build-docs/: its flags differ from a
# plain build's, and sharing .build would rebuild the one for the other each
# time. To preview the result: docc preview with the same arguments as below.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$PWD/.build-docs
graphs=$out/symbol-graphs                    # every module the build compiles
docc=$(command -v docc || echo "$(dirname "$(readlink -f "$(command -v swift)")")/docc")

echo "== swift build --target SectionRegistryTesting (symbol graphs of the public API, SectionRegistry's with six traits)"
swift build --target SectionRegistryTesting --scratch-path "$out/build" \
    --traits ServiceLifecycle,Logging,ArgumentParser,Tracing,Metrics,Configuration \
    -Xswiftc -emit-symbol-graph \
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public \
    -Xswiftc -emit-extension-block-symbols

# SectionRegistry.symbols.json holds the ModuleRecords API too: the compiler
# puts what `@_exported import ModuleRecords` re-exports into the graph of
# the module that re-exports it. ModuleRecords.symbols.json is left out: a
# catalog documents one module, and its symbols are in already.
# SectionRegistry@CSectionRegistry.symbols.json holds AppModuleHandle's
# initializer, an extension of the C type; without
# -emit-extension-block-symbols docc drops it, having no page for the type
# it extends. (A build does not rewrite every graph file, and removes none:
# if the code stops extending another module's types, remove .build-docs.)
# Each catalog documents one module: its graph, and the graphs of its
# extensions of other modules' types.
convert() {
    local module=$1 catalog=$2
    local input=$out/symbol-graphs-$module
    rm -rf "$input"
    mkdir -p "$input"
    shopt -s nullglob
    cp "$graphs/$module.symbols.json" "$graphs/$module"@*.symbols.json "$input/"
    echo "== docc convert $catalog (any warning fails)"
    local log=$out/docc-$module.log
    local status=0
    "$docc" convert "$catalog" \
        --additional-symbol-graph-dir "$input" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "$module" \
        --output-path "$out/$module.doccarchive" \
        --warnings-as-errors 2>&1 | tee "$log" || status=$?
    # --warnings-as-errors makes every warning an error and the status
    # nonzero; the search catches a warning printed outside the diagnostics
    # as well.
    if ((status != 0)) || grep -qE "(warning|error):" "$log"; then
        echo "docs.sh: docc reported the problems above; the catalog must build with none" >&2
        exit 1
    fi
    local pages
    pages=$(find "$out/$module.doccarchive/data/documentation" -name '*.json' | wc -l)
    echo "docs.sh: built .build-docs/$module.doccarchive ($pages pages) with no warnings"
}
convert SectionRegistry Sources/SectionRegistry/SectionRegistry.docc
convert SectionRegistryTesting Sources/SectionRegistryTesting/SectionRegistryTesting.docc
