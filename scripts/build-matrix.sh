#!/usr/bin/env bash
# build-matrix.sh
#
# Builds the example with gold, lld and bfd, in debug and release, with and
# without -static-stdlib (12 builds, each in .build-matrix/<name>), runs each,
# and checks with the section-registry inspector that every build holds
# exactly the same module records and that the app found them all.
#
# With the shared Swift runtime it also builds the plugin example
# (Sources/Example/Plugins) with the same linker and configuration, checks
# the plugin with the inspector, and runs the host loading the plugin; and
# builds and runs the shared-library fixture (features linked at build time
# as shared objects). With -static-stdlib there are no shared objects: every
# image would carry a Swift runtime of its own, and the toolchain cannot link
# SectionRegistryDynamic statically (no static _FoundationCShims for shared
# objects).
# Prints one line per build and exits 1 if any differs or fails.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product section-registry >/dev/null
inspector="$(swift build --show-bin-path)/section-registry"

mkdir -p .build-matrix

# Builds the plugin example like build $1 and runs its host with the plugin;
# prints what it found, or why not, and fails if the plugin did not join.
check_plugin() {
    local scratch=".build-matrix/plugins-$1"
    local flags=(--package-path Sources/Example/Plugins -c "$2" --scratch-path "$scratch" -Xswiftc "-use-ld=$3")
    if ! swift build "${flags[@]}" >"$scratch.log" 2>&1; then
        echo "build failed: $scratch.log"
        return 1
    fi
    local bin
    bin="$(swift build "${flags[@]}" --show-bin-path)"
    if ! "$inspector" check "$bin/libReportsPlugin.so" --expect Reports --host "$bin/registry-plugin-host" >/dev/null 2>&1; then
        echo "section-registry check --host failed on libReportsPlugin.so"
        return 1
    fi
    local running
    running=$("$bin/registry-plugin-host" "$bin/libReportsPlugin.so" | sed -n 's/^running: //p')
    [[ $running == "Clock, Reports" ]] || { echo "host ran: ${running:-nothing}"; return 1; }
    echo "plugin: $running"
}
# Builds the shared-library fixture (Tests/Fixtures/SharedLibraries/App) like
# build $1: an app whose features are two shared objects linked at build
# time, and a plugin that brings a library of its own. Runs the app with the
# plugin; fails unless every module of every image ran, each once.
check_shared_libraries() {
    local scratch=".build-matrix/shared-libraries-$1"
    local flags=(--package-path Tests/Fixtures/SharedLibraries/App -c "$2" --scratch-path "$scratch" -Xswiftc "-use-ld=$3")
    if ! swift build "${flags[@]}" >"$scratch.log" 2>&1; then
        echo "build failed: $scratch.log"
        return 1
    fi
    local bin running
    bin="$(swift build "${flags[@]}" --show-bin-path)"
    running=$("$bin/shared-app" "$bin/libReportsPlugin.so" | sed -n 's/^running: //p')
    [[ $running == "Gateway, Inventory, Pricing, Charts, Reports" ]] || { echo "shared-app ran: ${running:-nothing}"; return 1; }
    echo "libraries: $running"
}

reference=""
failures=0
printf '%-28s %-9s %s\n' build result modules
for linker in gold lld bfd; do
    for configuration in debug release; do
        for stdlib in shared static; do
            name="$linker-$configuration-$stdlib"
            scratch=".build-matrix/$name"
            flags=(-c "$configuration" --scratch-path "$scratch" --product registry-example -Xswiftc "-use-ld=$linker")
            [[ $stdlib == static ]] && flags+=(--static-swift-stdlib)
            if ! swift build "${flags[@]}" >"$scratch.log" 2>&1; then
                printf '%-28s %-9s %s\n' "$name" FAILED "build failed: $scratch.log"
                failures=$((failures + 1))
                continue
            fi
            binary="$(swift build "${flags[@]}" --show-bin-path)/registry-example"
            # The records as the inspector reads them, without the linker's placement.
            records=$("$inspector" inspect --json "$binary" | tr -d ' \n' | sed 's/"recordIndex":[0-9]*,//g')
            check=$("$inspector" check "$binary" --expect Accounts --expect Search --expect Billing --expect Audit 2>&1) || true
            found=$("$binary" | sed -n 's/^  [0-9]\. \([A-Za-z]*\) .*/\1/p' | tr '\n' ' ')
            reference=${reference:-$records}
            if [[ $records != "$reference" || $check != *"all checks passed"* || $found != "Accounts Search Billing Audit " ]]; then
                printf '%-28s %-9s %s\n' "$name" DIFFERS "found: $found; $check"
                failures=$((failures + 1))
            elif [[ $stdlib == shared ]] && ! plugin=$(check_plugin "$name" "$configuration" "$linker"); then
                printf '%-28s %-9s %s\n' "$name" DIFFERS "plugin: $plugin"
                failures=$((failures + 1))
            elif [[ $stdlib == shared ]] && ! libraries=$(check_shared_libraries "$name" "$configuration" "$linker"); then
                printf '%-28s %-9s %s\n' "$name" DIFFERS "$libraries"
                failures=$((failures + 1))
            else
                printf '%-28s %-9s %s\n' "$name" ok "$found${plugin:+| $plugin}${libraries:+ | $libraries}"
            fi
            plugin=""
            libraries=""
        done
    done
done
if ((failures > 0)); then
    echo "build-matrix: $failures of 12 builds failed or differ" >&2
    exit 1
fi
echo "build-matrix: 12 builds hold and find the same 4 modules; the 6 with the shared runtime load the plugin and run the shared libraries"
