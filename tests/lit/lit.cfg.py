# lit configuration of the IR → IR and IR → Ascend C tests.
#
#   lit -v tests/lit                       tools from ./build or from PATH
#   ASC_TOOLS_DIR=/path/to/build lit -v tests/lit
#
# Tools: asc-opt and asc-translate are looked up in $ASC_TOOLS_DIR, then in
# the meson build directories next to the sources (build/, builddir/), then
# on PATH (where `pip install .` puts them). FileCheck is LLVM's FileCheck or
# the `filecheck` PyPI package; `not` is lit's own.
#
# Scratch files (%t) go to $ASC_LIT_OUT, or to a directory under the system
# temporary directory, never into the source tree.

import os
import shutil
import tempfile

import lit.formats

config.name = "pyasc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ascir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.environ.get("ASC_LIT_OUT") or os.path.join(
    tempfile.gettempdir(), "pyasc-lit-%s" % (os.getuid() if hasattr(os, "getuid") else "user"))

repo = os.path.dirname(os.path.dirname(config.test_source_root))


def find_tool(name):
    candidates = []
    if os.environ.get("ASC_TOOLS_DIR"):
        candidates.append(os.environ["ASC_TOOLS_DIR"])
    candidates += [os.path.join(repo, d) for d in ("build", "builddir")]
    for d in candidates:
        p = os.path.join(d, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return shutil.which(name)


tool_dirs = []
for tool in ("asc-opt", "asc-translate"):
    path = find_tool(tool)
    if not path:
        lit_config.fatal("%s not found: build it (meson setup build && ninja -C build), "
                         "set ASC_TOOLS_DIR to the build directory, or install the "
                         "package (pip install .)" % tool)
    lit_config.note("using %s" % path)
    tool_dirs.append(os.path.dirname(path))

filecheck = shutil.which("FileCheck") or shutil.which("filecheck")
if not filecheck:
    lit_config.fatal("FileCheck not found: pip install filecheck")

# The tools' directories come first on the tests' PATH.
path = os.pathsep.join(tool_dirs + [config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["PATH"] = path
# Sanitizer builds: keep their reports quiet about leaks at exit of `not`.
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions.append((r"\bFileCheck\b", filecheck))
