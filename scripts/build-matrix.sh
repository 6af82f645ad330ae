#!/usr/bin/env bash
# build-matrix.sh
#
# Builds the example with gold, lld and bfd, in debug and release, with and
# without -static-stdlib (12 builds, each in .build-matrix/<name>), runs each,
# and checks with the section-registry inspector that every build holds
# exactly the same module records as the first (the reference: its records,
# as `section-registry inspect` lists them, give every expected name and the
# declared order) and that the app found them all, in that order.
#
# With the shared Swift runtime it also builds the plugin example
# (Sources/Example/Plugins) with the same linker and configuration, checks
# the plugin with the inspector, and runs the host loading the plugin; and
# builds and runs the shared-library fixture (features linked at build time
# as shared objects). In both, every module the inspector finds in the
# program, the shared objects it needs and the plugin must run, each once.
# The fixture registers modules both ways: in C, and from Swift (records
# with text slots, @AppModule's expansion written out) in the program, in a
# library linked at build time and in the plugin.
# With -static-stdlib there are no shared objects: every image would carry a
# Swift runtime of its own, and the toolchain cannot link
# SectionRegistryDynamic statically (no static _FoundationCShims for shared
# objects).
# Prints one line per build and exits 1 if any differs or fails.
set -euo pipefail
cd "$(dirname "$0")/.."

linkers=(gold lld bfd)
configurations=(debug release)
stdlibs=(shared static)
builds=$((${#linkers[@]} * ${#configurations[@]} * ${#stdlibs[@]}))

swift build --product section-registry >/dev/null
inspector="$(swift build --show-bin-path)/section-registry"

mkdir -p .build-matrix

# The module names `section-registry check` finds in its arguments' images
# (a program and the shared objects it needs, or a plugin with --host
# PROGRAM), in its order, one a line; prints the check's report and fails if
# a check fails.
checked_modules() {
    local report
    report=$("$inspector" check "$@" 2>&1) || { echo "$report"; return 1; }
    sed -n 's/^section-registry: .*: [0-9]* modules, all checks passed: //p' <<<"$report" | sed 's/, /\n/g'
}

# The names after "running: " in a host's output, one a line, sorted.
running_modules() {
    sed -n 's/^running: //p' | sed 's/, /\n/g' | sort
}

# Runs PROGRAM with PLUGIN and checks that every module the inspector finds
# in the program (with its shared objects) and in the plugin ran, each once.
# Prints what ran, or what is wrong and fails.
check_run_with_plugin() {
    local program=$1 plugin=$2 expected running
    expected=$( { checked_modules "$program" && checked_modules "$plugin" --host "$program"; } ) \
        || { echo "section-registry check failed: $expected"; return 1; }
    expected=$(sort <<<"$expected")
    running=$("$program" "$plugin" | running_modules)
    [[ -n $expected && $running == "$expected" ]] \
        || { echo "$(basename "$program") ran: $(paste -sd, <<<"$running"); expected: $(paste -sd, <<<"$expected")"; return 1; }
    paste -sd, <<<"$running" | sed 's/,/, /g'
}

# Builds the plugin example like build $1 (configuration $2, linker $3) and
# runs its host with the plugin; prints what ran, or why not.
check_plugin() {
    local scratch=".build-matrix/plugins-$1"
    local flags=(--package-path Sources/Example/Plugins -c "$2" --scratch-path "$scratch" -Xswiftc "-use-ld=$3")
    if ! swift build "${flags[@]}" >"$scratch.log" 2>&1; then
        echo "build failed: $scratch.log"
        return 1
    fi
    local bin ran
    bin="$(swift build "${flags[@]}" --show-bin-path)"
    ran=$(check_run_with_plugin "$bin/registry-plugin-host" "$bin/libReportsPlugin.so") || { echo "$ran"; return 1; }
    echo "plugin: $ran"
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
    local bin ran
    bin="$(swift build "${flags[@]}" --show-bin-path)"
    ran=$(check_run_with_plugin "$bin/shared-app" "$bin/libReportsPlugin.so") || { echo "$ran"; return 1; }
    echo "libraries: $ran"
}

reference=""
expected=""
failures=0
printf '%-28s %-9s %s\n' build result modules
for linker in "${linkers[@]}"; do
    for configuration in "${configurations[@]}"; do
        for stdlib in "${stdlibs[@]}"; do
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
            # The records as the inspector lists them, without the note line:
            # its addresses are the linker's placement.
            records=$("$inspector" inspect "$binary" 2>&1 | grep -v -E '^(.*: )?note: ' || true)
            if [[ -z $reference ]]; then
                reference=$records
                if expected=$(checked_modules "$binary"); then
                    echo "reference ($name): $(paste -sd' ' <<<"$expected")"
                else
                    echo "reference ($name) fails its check: $expected"
                    expected=""
                fi
            fi
            expectations=()
            while read -r module; do expectations+=(--expect "$module"); done <<<"$expected"
            check=$(checked_modules "$binary" "${expectations[@]}") || true
            # "  1. Accounts [service, ...": the modules the app discovered, in order.
            found=$("$binary" | sed -nE 's/^  [0-9]+\. ([^ ]+) .*/\1/p')
            if [[ -z $expected || $records != "$reference" || $check != "$expected" || $found != "$expected" ]]; then
                printf '%-28s %-9s %s\n' "$name" DIFFERS "found: $(paste -sd' ' <<<"$found"); check: $check"
                failures=$((failures + 1))
            elif [[ $stdlib == shared ]] && ! plugin=$(check_plugin "$name" "$configuration" "$linker"); then
                printf '%-28s %-9s %s\n' "$name" DIFFERS "plugin: $plugin"
                failures=$((failures + 1))
            elif [[ $stdlib == shared ]] && ! libraries=$(check_shared_libraries "$name" "$configuration" "$linker"); then
                printf '%-28s %-9s %s\n' "$name" DIFFERS "$libraries"
                failures=$((failures + 1))
            else
                printf '%-28s %-9s %s\n' "$name" ok "$(paste -sd' ' <<<"$found")${plugin:+ | $plugin}${libraries:+ | $libraries}"
            fi
            plugin=""
            libraries=""
        done
    done
done
if ((failures > 0)); then
    echo "build-matrix: $failures of $builds builds failed or differ" >&2
    exit 1
fi
echo "build-matrix: $builds builds hold and find the same $(wc -l <<<"$expected") modules; the $((builds / ${#stdlibs[@]})) with the shared runtime load the plugin and run the shared libraries"
