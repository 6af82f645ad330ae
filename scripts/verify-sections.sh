#!/usr/bin/env bash
# verify-sections.sh BINARY [EXPECTED_NAME...]
#
# Checks with readelf alone, without running BINARY, that it carries the
# SectionRegistry module records it should: the app_modules section exists,
# is loaded at run time, holds whole 128-byte version-2 records with valid,
# unique names, and holds at least one module (or every EXPECTED_NAME).
#
# Prints the module names, sorted, one per line on stdout; a summary and any
# problem go to stderr. Exits 0 when every check passes, 1 when one fails,
# 2 on bad usage. The record layout is CSectionRegistry/include/RecordABI.md.
set -euo pipefail

readonly record_size=128
readonly name_offset=64
readonly name_capacity=64
# First 8 bytes of a record, as readelf -x shows them: kind 0xA5A50001,
# version 2 and size 128, little-endian.
readonly module_header="0100a5a502008000"

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
    echo "usage: $0 BINARY [EXPECTED_NAME...]" >&2
    exit 2
fi
binary=$1
shift

fail() {
    echo "verify-sections: $binary: $*" >&2
    exit 1
}

command -v readelf >/dev/null || { echo "verify-sections: readelf not found (install binutils)" >&2; exit 2; }
[[ -f $binary && -r $binary ]] || fail "no such readable file"
headers=$(readelf -S -W "$binary" 2>&1) || fail "readelf cannot read it: $headers"

# "  [44] app_modules  PROGBITS  addr offset size es flags lk inf al"
header=$(sed -nE 's/^ *\[ *[0-9]+\] +app_modules +//p' <<<"$headers")
[[ -n $header ]] || fail "has no app_modules section: link SectionRegistry (its anchor record creates the section) and the targets with APP_MODULE lines"
read -r type _address _offset size_hex _entsize flags _rest <<<"$header"
[[ $type == PROGBITS ]] || fail "app_modules is $type, not PROGBITS: it holds no record bytes"
[[ $flags == *A* ]] || fail "app_modules is not allocated (flags '$flags'): the records would not be in memory at run time"
size=$((16#$size_hex))
((size % record_size == 0)) \
    || fail "app_modules is $size bytes, not a whole number of $record_size-byte records: some registration target was built with another app_module.h"

# The section's bytes as one hex string: readelf -x prints, after the
# address, 16 bytes in four groups of four, then the same bytes as text.
hex=$(readelf -x app_modules "$binary" | awk '
    /^  0x[0-9a-f]+ / { line = substr($0, length($1) + 4, 35); gsub(/ /, "", line); printf "%s", line }')
((${#hex} == size * 2)) || fail "readelf dumped ${#hex} hex digits of app_modules, expected $((size * 2))"

# One line per module record, "NAME", or "!problem" for a bad record.
records=$(awk -v hex="$hex" -v size="$record_size" -v name_offset="$name_offset" \
              -v capacity="$name_capacity" -v header="$module_header" '
    function byte(at) { return (index("0123456789abcdef", substr(hex, at, 1)) - 1) * 16 + index("0123456789abcdef", substr(hex, at + 1, 1)) - 1 }
    BEGIN {
        for (r = 0; r < length(hex) / (2 * size); r++) {
            start = r * size * 2 + 1
            where = sprintf("record #%d at offset 0x%x", r, r * size)
            kind = substr(hex, start, 8)
            if (kind != substr(header, 1, 8)) continue   # reserved (anchor, padding) or another kind
            if (substr(hex, start, 16) != header) {
                print "!" where ": a module record whose version or size is not 2 / " size " (" substr(hex, start + 8, 8) ")"
                continue
            }
            name = ""; terminated = 0
            for (i = 0; i < capacity; i++) {
                b = byte(start + (name_offset + i) * 2)
                if (b == 0) { terminated = 1; break }
                name = name sprintf("%c", b)
            }
            if (!terminated) print "!" where ": the name has no NUL within " capacity " bytes"
            else if (name == "") print "!" where ": the name is empty"
            else if (name ~ /[,[:space:][:cntrl:]]/) print "!" where ": the name \"" name "\" holds a comma, blank or control character"
            else if (name in seen) print "!" where ": module \"" name "\" is registered twice (also " seen[name] ")"
            else { seen[name] = where; print name }
        }
    }')

problems=$(grep '^!' <<<"$records" | sed 's/^!/  - /' || true)
names=$(grep -v '^!' <<<"$records" | grep . | sort || true)
[[ -z $problems ]] || fail "bad records in app_modules:"$'\n'"$problems"
[[ -n $names ]] || fail "app_modules holds no module records: the linker dropped them (records need 'retain'), or no target with an APP_MODULE line was linked"

missing=()
for expected in "$@"; do
    grep -qxF -- "$expected" <<<"$names" || missing+=("$expected")
done
((${#missing[@]} == 0)) || fail "expected modules missing from app_modules: ${missing[*]} (found: $(tr '\n' ' ' <<<"$names"))"

echo "$names"
echo "verify-sections: $binary: $(wc -l <<<"$names") modules in $((size / record_size)) records of app_modules ($size bytes, flags $flags): OK" >&2
