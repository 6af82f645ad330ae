#!/usr/bin/env bash
# verify-sections.sh BINARY [EXPECTED_NAME...]
#
# Checks with readelf alone, without running BINARY, that it carries the
# SectionRegistry module records it should: the app_modules section exists,
# is loaded at run time, holds whole records of the current version with
# valid, unique names, and holds at least one module (or every EXPECTED_NAME).
#
# Reads BINARY alone, not the shared objects it needs: modules registered in
# a library linked at build time are not listed (the summary says so when
# BINARY needs libraries with `readelf -d`). Run the script on each library
# too, or use `section-registry check BINARY`, which reads them all.
#
# Prints the module names, sorted, one per line on stdout; a summary (with
# the modules marked APP_MODULE_REQUIRED) and any problem go to stderr. Exits 0 when every check passes, 1 when one fails,
# 2 on bad usage. The record layout (offsets, sizes, the kind, version and
# size values) is read from the record table of
# CSectionRegistry/include/RecordABI.md, the one description of it outside
# app_module.h: this script needs no compiler.
set -euo pipefail

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
    echo "usage: $0 BINARY [EXPECTED_NAME...]" >&2
    echo "Checks the app_modules section of BINARY alone, not of the shared objects it needs:" >&2
    echo "run it on each library too, or use section-registry check BINARY, which reads them all." >&2
    exit 2
fi
binary=$1
shift

abi="$(dirname "$0")/../CSectionRegistry/include/RecordABI.md"
[[ -r $abi ]] || { echo "verify-sections: cannot read $abi, which gives the record layout: run this script from its place in the SectionRegistry checkout" >&2; exit 2; }
# The rows of the table under "## The record", "| offset | size | `field` |
# type | meaning |", as "field offset size value", the value being the first
# `quoted` word of the meaning (for kind, version and size: what a module
# record of this version holds).
layout=$(awk -F'|' '
    /^## / { in_record = ($0 == "## The record") }
    in_record && NF >= 6 && $4 ~ /`[a-z_0-9]+`/ {
        field = $4; gsub(/[ `]/, "", field)
        value = "-"; if (match($6, /`[^`]*`/)) value = substr($6, RSTART + 1, RLENGTH - 2)
        print field, $2 + 0, $3 + 0, value
    }' "$abi")
# Offset, size and value of one field of the table; exits 2 if it is not there.
field() {
    local row
    row=$(awk -v name="$1" '$1 == name { print $2, $3, $4 }' <<<"$layout")
    [[ $row =~ ^[0-9]+\ [0-9]+\ ([0-9]+|0x[0-9A-Fa-f]+|-)$ ]] \
        || { echo "verify-sections: $abi: the record table has no row for field '$1' with an offset, a size and a value" >&2; exit 2; }
    echo "$row"
}
kind_row=$(field kind)
version_row=$(field version)
size_row=$(field size)
name_row=$(field name)
# The flags field, and the bit APP_MODULE_REQUIRED is: "bit N,
# `APP_MODULE_REQUIRED`" in the meaning of its row.
flags_row=$(awk -F'|' '
    /^## / { in_record = ($0 == "## The record") }
    in_record && $4 ~ /`flags`/ && match($6, /bit [0-9]+, `APP_MODULE_REQUIRED`/) {
        bit = substr($6, RSTART + 4, RLENGTH - 4); sub(/,.*/, "", bit)
        print $2 + 0, $3 + 0, bit
    }' "$abi")
[[ $flags_row =~ ^[0-9]+\ [0-9]+\ [0-9]+$ ]] \
    || { echo "verify-sections: $abi: the record table has no row for field 'flags' that names the bit of APP_MODULE_REQUIRED" >&2; exit 2; }
# The kind of a text slot, which follows a record written from Swift: the
# kind row of the table under "## Texts inline...".
text_kind=$(awk -F'|' '
    /^## / { in_texts = ($0 ~ /^## Texts inline/) }
    in_texts && $4 ~ /`kind`/ && match($6, /`[^`]*`/) { print substr($6, RSTART + 1, RLENGTH - 2) }' "$abi")
[[ $text_kind =~ ^0x[0-9A-Fa-f]+$ ]] \
    || { echo "verify-sections: $abi: the text slot table has no row for field 'kind' with a value" >&2; exit 2; }
text_kind=$((text_kind))
read -r kind_offset kind_size kind_value <<<"$kind_row"
read -r version_offset version_size record_version <<<"$version_row"
read -r size_offset size_size record_size <<<"$size_row"
read -r name_offset name_capacity _ <<<"$name_row"
read -r flags_offset flags_size required_bit <<<"$flags_row"
kind_value=$((kind_value))
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

# One line per module record, "NAME", "NAME required" for one marked
# APP_MODULE_REQUIRED, or "!problem" for a bad record.
records=$(awk -v hex="$hex" -v size="$record_size" -v name_offset="$name_offset" -v capacity="$name_capacity" \
              -v kind_offset="$kind_offset" -v kind_size="$kind_size" -v kind_value="$kind_value" -v text_kind="$text_kind" \
              -v version_offset="$version_offset" -v version_size="$version_size" -v version="$record_version" \
              -v size_offset="$size_offset" -v size_size="$size_size" \
              -v flags_offset="$flags_offset" -v flags_size="$flags_size" -v required_bit="$required_bit" '
    function byte(at) { return (index("0123456789abcdef", substr(hex, at, 1)) - 1) * 16 + index("0123456789abcdef", substr(hex, at + 1, 1)) - 1 }
    # The little-endian integer of `count` bytes at byte `offset` of the record starting at hex digit `start`.
    function integer(start, offset, count,    value, i) {
        value = 0
        for (i = count - 1; i >= 0; i--) value = value * 256 + byte(start + (offset + i) * 2)
        return value
    }
    BEGIN {
        for (r = 0; r < length(hex) / (2 * size); r++) {
            start = r * size * 2 + 1
            where = sprintf("record #%d at offset 0x%x", r, r * size)
            if (integer(start, kind_offset, kind_size) != kind_value) continue   # reserved (anchor, padding) or another kind
            record_version = integer(start, version_offset, version_size)
            declared_size = integer(start, size_offset, size_size)
            # A record written from Swift is followed by up to two text slots.
            if (record_version != version || declared_size < size || declared_size % size != 0 || declared_size > 3 * size) {
                print "!" where ": a module record of version " record_version " and size " declared_size ", not " version " and " size ", " 2 * size " or " 3 * size
                continue
            }
            texts_ok = 1
            for (t = 1; t < declared_size / size; t++) {
                if (r + t >= length(hex) / (2 * size) || integer(start + t * size * 2, kind_offset, kind_size) != text_kind) texts_ok = 0
            }
            if (!texts_ok) {
                print "!" where ": its size, " declared_size ", counts " declared_size / size - 1 " text slots after it, which are not there"
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
            else {
                seen[name] = where
                required = int(integer(start, flags_offset, flags_size) / 2 ^ required_bit) % 2
                print name (required ? " required" : "")
            }
        }
    }')

problems=$(grep '^!' <<<"$records" | sed 's/^!/  - /' || true)
modules=$(grep -v '^!' <<<"$records" | grep . | sort -k1,1 || true)
names=$(cut -d' ' -f1 <<<"$modules")
required=$(awk '$2 == "required" { printf "%s%s", (n++ ? ", " : ""), $1 }' <<<"$modules")
[[ -z $problems ]] || fail "bad records in app_modules:"$'\n'"$problems"
[[ -n $names ]] || fail "app_modules holds no module records: the linker dropped them (records need 'retain'), or no target with an APP_MODULE line was linked"

missing=()
for expected in "$@"; do
    grep -qxF -- "$expected" <<<"$names" || missing+=("$expected")
done
# Say which file was read when others may hold the modules expected.
libraries=$(readelf -d "$binary" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' \
    | grep -v -E '^(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+|libswift|libdispatch|libBlocksRuntime|libFoundation|ld-linux)' \
    | tr '\n' ' ' || true)
only_this_file=""
[[ -z $libraries ]] || only_this_file="read $binary only, not the shared objects it needs (${libraries% }): check each of them too, or run section-registry check $binary"
((${#missing[@]} == 0)) || fail "expected modules missing from app_modules: ${missing[*]} (found: $(tr '\n' ' ' <<<"$names"))${only_this_file:+; $only_this_file}"

echo "$names"
echo "verify-sections: $binary: $(wc -l <<<"$names") modules in $((size / record_size)) $record_size-byte slots of app_modules ($size bytes, flags $flags): OK" >&2
[[ -z $required ]] || echo "verify-sections: $binary: required (APP_MODULE_REQUIRED, may not be disabled): $required" >&2
[[ -z $only_this_file ]] || echo "verify-sections: $only_this_file" >&2
