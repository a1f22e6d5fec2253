"""python -m tracestream ARGS (and the ``tracestream`` command pip
installs): the engine itself, with ARGS, as the shell runs it."""
import os
import sys

from . import TracestreamError, engine_env, find_binary


def main():
    try:
        binary = find_binary()
    except TracestreamError as e:
        sys.stderr.write("tracestream: %s\n" % e.message)
        return 2
    os.execve(binary, [binary] + sys.argv[1:], engine_env(binary))


if __name__ == "__main__":
    sys.exit(main())
