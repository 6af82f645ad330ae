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
# SwiftPM compiles each configuration once, with gold; scripts/relink.py
# links the same object files again with lld and with bfd (compiling does
# not depend on the linker, but SwiftPM would compile everything again for
# a changed -use-ld: the script took 26 minutes so, 10.5 this way, each
# from an empty .build-matrix on the same 2 busy cores). Each binary's
# linker is checked from its marks (gold's
# .note.gnu.gold-version, lld's .comment), so a relink cannot pass unseen.
#
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
    sed -n 's/^section-registry: .*: [0-9]* modules\?, all checks passed: //p' <<<"$report" | sed 's/, /\n/g'
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

# The linker that linked binary $1, from the marks each leaves: gold a
# .note.gnu.gold-version section, lld its name in .comment, bfd neither.
linker_of() {
    if readelf -W -S "$1" | grep -q '\.note\.gnu\.gold-version'; then
        echo gold
    elif readelf -p .comment "$1" 2>/dev/null | grep -q 'Linker: LLD'; then
        echo lld
    else
        echo bfd
    fi
}

# Builds package $1 (configuration $2, the flags after $3) with gold in
# .build-matrix/$3, a name with "gold" in it, then relinks it with lld and
# bfd in the folders named with "lld" and "bfd" instead. Prints why, and
# fails, if a build or a relink fails.
build_and_relink() {
    local package=$1 configuration=$2 gold=$3
    shift 3
    if ! swift build --package-path "$package" -c "$configuration" --scratch-path ".build-matrix/$gold" -Xswiftc -use-ld=gold "$@" \
        >".build-matrix/$gold.log" 2>&1; then
        echo "build failed: .build-matrix/$gold.log"
        return 1
    fi
    for linker in lld bfd; do
        local relinked=${gold/gold/$linker}
        if ! scripts/relink.py ".build-matrix/$gold" ".build-matrix/$relinked" "$linker" >".build-matrix/$relinked.log" 2>&1; then
            echo "relink failed: .build-matrix/$relinked.log"
            return 1
        fi
    done
}

# The bin folder of build $1 (a scratch folder's name), configuration $2.
bin_of() {
    echo ".build-matrix/$1/$2"
}

# Runs the plugin example's host, as built for build $1 (configuration $2),
# with the plugin; prints what ran, or why not.
check_plugin() {
    local bin ran
    bin=$(bin_of "plugins-$1" "$2")
    [[ $(linker_of "$bin/libReportsPlugin.so") == "${1%%-*}" ]] || { echo "libReportsPlugin.so was linked by $(linker_of "$bin/libReportsPlugin.so")"; return 1; }
    ran=$(check_run_with_plugin "$bin/registry-plugin-host" "$bin/libReportsPlugin.so") || { echo "$ran"; return 1; }
    echo "plugin: $ran"
}
# Builds the shared-library fixture (Tests/Fixtures/SharedLibraries/App) like
# build $1: an app whose features are two shared objects linked at build
# time, and a plugin that brings a library of its own. Runs the app with the
# plugin; fails unless every module of every image ran, each once.
check_shared_libraries() {
    local bin ran
    bin=$(bin_of "shared-libraries-$1" "$2")
    [[ $(linker_of "$bin/libCharts.so") == "${1%%-*}" ]] || { echo "libCharts.so was linked by $(linker_of "$bin/libCharts.so")"; return 1; }
    ran=$(check_run_with_plugin "$bin/shared-app" "$bin/libReportsPlugin.so") || { echo "$ran"; return 1; }
    echo "libraries: $ran"
}

reference=""
expected=""
failures=0
printf '%-28s %-9s %s\n' build result modules
for configuration in "${configurations[@]}"; do
    for stdlib in "${stdlibs[@]}"; do
        built=true
        flags=(--product registry-example)
        [[ $stdlib == static ]] && flags+=(--static-swift-stdlib)
        why=$(build_and_relink . "$configuration" "gold-$configuration-$stdlib" "${flags[@]}") || built=false
        if [[ $built == true && $stdlib == shared ]]; then
            why=$(build_and_relink Sources/Example/Plugins "$configuration" "plugins-gold-$configuration-$stdlib" &&
                  build_and_relink Tests/Fixtures/SharedLibraries/App "$configuration" "shared-libraries-gold-$configuration-$stdlib") ||
                built=false
        fi
        for linker in "${linkers[@]}"; do
            name="$linker-$configuration-$stdlib"
            if [[ $built != true ]]; then
                printf '%-28s %-9s %s\n' "$name" FAILED "$why"
                failures=$((failures + 1))
                continue
            fi
            binary="$(bin_of "$name" "$configuration")/registry-example"
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
            if [[ $(linker_of "$binary") != "$linker" ]]; then
                printf '%-28s %-9s %s\n' "$name" DIFFERS "linked by $(linker_of "$binary"), not $linker"
                failures=$((failures + 1))
            elif [[ -z $expected || $records != "$reference" || $check != "$expected" || $found != "$expected" ]]; then
                printf '%-28s %-9s %s\n' "$name" DIFFERS "found: $(paste -sd' ' <<<"$found"); check: $check"
                failures=$((failures + 1))
            elif [[ $stdlib == shared ]] && ! plugin=$(check_plugin "$name" "$configuration"); then
                printf '%-28s %-9s %s\n' "$name" DIFFERS "plugin: $plugin"
                failures=$((failures + 1))
            elif [[ $stdlib == shared ]] && ! libraries=$(check_shared_libraries "$name" "$configuration"); then
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
