#!/usr/bin/env python3
"""Relinks a SwiftPM build with another linker, from the same object files.

    scripts/relink.py SCRATCH NEW_SCRATCH LINKER [LINK_ARGUMENT...]

Copies the scratch folder SCRATCH (a finished `swift build ... -Xswiftc
-use-ld=gold`) to NEW_SCRATCH, then runs again, in the copy, every link
command of SCRATCH's build manifest whose product the build made, with
`-use-ld=LINKER` instead: the executables and shared objects of the copy are
LINKER's, their objects the same. Compiling does not depend on the linker,
so this is the build SwiftPM would make with `-use-ld=LINKER`, without
compiling everything again (SwiftPM would: the flag is part of every
command line). Each LINK_ARGUMENT is added to every link command (as
`-Xlinker -z -Xlinker start-stop-gc`). Used by scripts/build-matrix.sh and
the tests' builds of each linker.

Prints one line per product relinked; exits 1, with the linker's output, if
a link fails.
"""
import json
import os
import shutil
import subprocess
import sys


def link_commands(manifest):
    """The (args, output) of each link command in an llbuild manifest."""
    commands, description = [], None
    with open(manifest) as lines:
        for line in lines:
            line = line.strip()
            if line.startswith("description: "):
                description = json.loads(line[len("description: "):])
            elif line.startswith("args: ") and description and description.startswith("Linking "):
                args = json.loads(line[len("args: "):])
                commands.append((args, args[args.index("-o") + 1]))
                description = None
    return commands


def main():
    scratch, new_scratch, linker = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
    extra = sys.argv[4:]
    manifests = [name for name in os.listdir(scratch) if name.endswith(".yaml") and name != "plugin-tools.yaml"]
    if len(manifests) != 1:
        sys.exit(f"relink: expected one build manifest in {scratch}, found {manifests}")
    commands = [(args, output) for args, output in link_commands(os.path.join(scratch, manifests[0])) if os.path.exists(output)]
    if not commands or not all("-use-ld=gold" in args for args, _ in commands):
        sys.exit(f"relink: {scratch} holds no product linked with -use-ld=gold")
    shutil.rmtree(new_scratch, ignore_errors=True)
    shutil.copytree(scratch, new_scratch, symlinks=True)

    def moved(text):
        return text.replace(scratch, new_scratch)

    pending = []
    for args, output in commands:
        args = [moved(arg).replace("-use-ld=gold", f"-use-ld={linker}") for arg in args] + extra
        for arg in args:
            if arg.startswith("@"):  # a response file: the object files' paths
                with open(arg[1:]) as file:
                    content = file.read()
                with open(arg[1:], "w") as file:
                    file.write(moved(content))
        os.remove(moved(output))
        pending.append((args, moved(output)))
    # Shared objects before what links them: a link that fails for want of
    # another product is tried again once the others are made.
    while pending:
        failed = []
        for args, output in pending:
            result = subprocess.run(args, capture_output=True, text=True)
            if result.returncode == 0:
                print(f"relinked with {linker}: {os.path.relpath(output)}")
            else:
                failed.append((args, output, result.stdout + result.stderr))
        if len(failed) == len(pending):
            for _, output, log in failed:
                print(f"relink: {output} failed:\n{log}", file=sys.stderr)
            sys.exit(1)
        pending = [(args, output) for args, output, _ in failed]


if __name__ == "__main__":
    main()
