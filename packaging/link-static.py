#!/usr/bin/env python3
"""Links the program of a release build again, with the Swift runtime inside it, as the Debian
package ships it: the same objects the test suite ran, not a second build of every module.

    packaging/link-static.py SCRATCH OUTPUT      e.g. packaging/link-static.py .build out/cloudplayerd

SwiftPM's `--static-swift-stdlib` compiles every module again (it gives the compiler another
resource folder), 470 s on two cores; the objects do not differ but for where the compiler found
the standard library's interfaces, which are the same files. So this takes SwiftPM's own link
command for `cloudplayerd` from SCRATCH/release.yaml, the build's plan, adds `-static-stdlib`,
and writes OUTPUT instead. packaging/check-deb.sh then checks what came out: it runs, and needs
no library of the toolchain.
"""
import json
import subprocess
import sys


# The libraries of the toolchain's swift_static folder that Foundation's static libraries use.
STATIC_RUNTIME = ["FoundationInternationalization", "_FoundationICU", "_FoundationCollections", "_FoundationCShims",
                  "swiftSynchronization", "swift_StringProcessing", "swift_RegexParser", "swiftDispatch", "dispatch",
                  "BlocksRuntime"]


def link_command(plan, product):
    """The swiftc arguments of the step that links PRODUCT, from SwiftPM's llbuild plan (YAML,
    one `description:` and one JSON `args:` line per step)."""
    wanted = None
    with open(plan) as handle:
        for line in handle:
            text = line.strip()
            if text.startswith("description: "):
                step = json.loads(text[len("description: "):])
                wanted = step.startswith("Linking ") and step.endswith("/release/" + product)
            elif wanted and text.startswith("args: "):
                return json.loads(text[len("args: "):])
    raise SystemExit(f"link-static.py: no step linking {product} in {plan}: build it first (swift build -c release)")


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    scratch, output = sys.argv[1], sys.argv[2]
    arguments = link_command(f"{scratch}/release.yaml", "cloudplayerd")
    at = arguments.index("-o")
    arguments[at + 1] = output
    if "-static-stdlib" not in arguments:
        arguments.insert(at, "-static-stdlib")
    # What the runtime's static libraries need of each other: objects compiled against the static
    # resource folder name these themselves (autolink entries), these objects do not.
    arguments[at:at] = ["-l" + name for name in STATIC_RUNTIME]
    subprocess.run(arguments, check=True)


if __name__ == "__main__":
    main()
