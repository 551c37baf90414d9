"""The ``tvseg`` command line.

Each sub-command lives in ``tvseg/commands/<name>.py`` with ``add_parser(subparsers)`` and
``run(args) -> int``. This module only dispatches and turns exceptions into exit codes:
0 success, 2 bad input or usage (:class:`tvseg.errors.TvsegError`, printed as one line, no
traceback), an :class:`OSError` the system raised (a full disk, a read-only folder: the path and
the system's reason) or a warning that the user's filter made an error (``python -W error``,
``PYTHONWARNINGS=error``: its class and message), 1 an internal error (a bug: a short message and where to report it), 130 on
SIGINT and 143 on SIGTERM (the files being written are removed first, the old outputs kept).

A reader that leaves (``tvseg ... | head -1``, ``| grep -q``, ``| true``) does not stop a command: what
is printed after it left is dropped (:class:`ReaderMayLeave`), the files are written, and the exit code
is the one the command gives with its output read to the end.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import os
import signal
import sys
import threading
import warnings
from typing import NoReturn

from tvseg import __version__
from tvseg.errors import TvsegError, UsageError
from tvseg.terminal import printable

COMMANDS = ("evaluate", "validate", "convert", "agreement", "simulate", "compare", "merge", "search")
BUG_REPORT = "https://github.com/tvseg/tvseg/issues"


def short_usage(parser: argparse.ArgumentParser) -> str:
    """``usage: tvseg evaluate [-h] ... (see tvseg evaluate --help)``: one line whatever the options."""
    return f"usage: {parser.prog} [-h] ... (see {parser.prog} --help)"


class _Parser(argparse.ArgumentParser):
    """argparse exits with 2 on bad usage already; keep its report to two lines on stderr: the short
    usage line (:func:`short_usage`) and the error, not argparse's usage of every option."""

    def error(self, message):
        self.exit(2, f"{short_usage(self)}\n{self.prog}: error: {printable(message)}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tvseg", description="Evaluate topic segmentation of TV broadcast news and transcripts.")
    parser.add_argument("--version", action="version", version=f"tvseg {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"tvseg.commands.{name}").add_parser(sub)
    _remember_parsers(parser)
    return parser


def _remember_parsers(parser: argparse.ArgumentParser) -> None:
    """Give each (sub-)command's parser as the default ``_parser`` of its arguments, so that a usage
    error is reported with the usage of the command that was run (the deepest one wins)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                sub.set_defaults(_parser=sub)
                _remember_parsers(sub)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """Print a warning as one line, its control and bidi characters escaped (:func:`tvseg.terminal.printable`)."""
    print(f"tvseg: warning: {printable(message)}", file=sys.stderr)


class ReaderMayLeave:
    """Standard output or error whose reader may leave before the end (``| head -1``, ``| true``).

    A write after the reader has closed the pipe is dropped (:attr:`reader_left` becomes True)
    instead of raising :class:`BrokenPipeError`, so that the command goes on: its files are
    written and its exit code is what it would be with the output read.
    """

    def __init__(self, stream):
        self.stream = stream
        self.reader_left = False

    def write(self, text: str) -> int:
        if not self.reader_left:
            try:
                return self.stream.write(text)
            except BrokenPipeError:
                self.reader_left = True
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if not self.reader_left:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self.reader_left = True

    def __getattr__(self, name):
        return getattr(self.stream, name)


class Terminated(BaseException):
    """SIGTERM, raised where the process is (like :class:`KeyboardInterrupt` for SIGINT), so that the
    half-written outputs are removed on the way out."""


_HANDLER_PID: list[int] = []  # the process that installed _terminated (not the processes it forks)


def _terminated(signum, frame):
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the process at once
    if os.getpid() not in _HANDLER_PID:  # a forked worker inherited the handler: end as by default
        os.kill(os.getpid(), signal.SIGTERM)
    raise Terminated()


def _forget_stream(wrapper: ReaderMayLeave) -> None:
    """Once its reader has left, point the stream's file descriptor to the null device, so that what
    is still buffered does not fail again when Python exits."""
    try:
        fd = wrapper.stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (AttributeError, OSError, ValueError):  # a stream without a descriptor (a test's capture)
        return
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def main(argv: list[str] | None = None) -> int:
    streams = sys.stdout, sys.stderr
    out, err = (ReaderMayLeave(s) if s is not None else None for s in streams)
    sys.stdout, sys.stderr = out, err  # type: ignore[assignment]
    try:
        previous = signal.signal(signal.SIGTERM, _terminated)
        _HANDLER_PID[:] = [os.getpid()]
    except ValueError:  # not the main thread: leave SIGTERM as it is
        previous = None
    try:
        return _main(argv)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        sys.stdout, sys.stderr = streams
        for wrapper in (out, err):
            if wrapper is not None:
                wrapper.flush()
                if wrapper.reader_left:
                    _forget_stream(wrapper)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    command = getattr(args, "_parser", parser)
    if extra:  # argparse would report them with the top-level usage
        command.error(f"unrecognized arguments: {' '.join(extra)}")
    warnings.showwarning = _show_warning
    try:
        return int(args.run(args) or 0)
    except UsageError as error:
        print(f"{short_usage(command)}\n{command.prog}: error: {printable(error)}", file=sys.stderr)
        return 2
    except TvsegError as error:
        print(f"tvseg: error: {printable(error)}" if not _is_located(error) else printable(error), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tvseg: interrupted", file=sys.stderr)
        return 130
    except Terminated:
        print("tvseg: terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    except Warning as warning:  # raised by the user's filter (-W error, PYTHONWARNINGS=error): strict mode
        print(
            f"tvseg: error: {type(warning).__name__} raised as an error (a warnings filter 'error'): "
            f"{printable(warning)}",
            file=sys.stderr,
        )
        return 2
    except OSError as error:  # the system refused (full disk, read-only, permission): not a bug
        where = f"{error.filename}: " if error.filename is not None else ""
        print(f"tvseg: error: {printable(where)}{printable(error.strerror or error)}", file=sys.stderr)
        return 2
    except Exception as error:  # a bug: keep it short, say where to report it
        where = ""
        tb = error.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is not None:
            where = f" (at {tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno})"
        print(
            f"tvseg: internal error: {type(error).__name__}: {printable(error)}{printable(where)}\n"
            f"This is a bug in tvseg {__version__}; please report it at {BUG_REPORT} "
            f"with the command line (set TVSEG_DEBUG=1 for the full traceback).",
            file=sys.stderr,
        )
        if os.environ.get("TVSEG_DEBUG"):
            raise
        return 1


def _is_located(error: TvsegError) -> bool:
    return getattr(error, "path", None) is not None


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")
"""The variables that set the threads of the BLAS libraries NumPy is built with (OpenBLAS, MKL, Accelerate)."""


def run() -> NoReturn:
    """The ``tvseg`` program (the ``tvseg`` script and ``python -m tvseg``): :func:`main`, then the process
    ends with its exit code (:func:`end_process`). A usage error, ``--help`` and ``--version`` end it as
    argparse does (:class:`SystemExit`); so does every run under a profiler, a tracer or a tool that called the
    program and has work to do once it returns (``python -m cProfile -m tvseg``, ``coverage run -m tvseg``).

    BLAS is started with one thread (:data:`BLAS_THREADS`, each unless set already): tvseg runs its matrix
    products on one thread anyway (:func:`tvseg.significance.one_blas_thread`), and the threads OpenBLAS
    starts when NumPy is imported wait busily for work, about 0.07 s of CPU for nothing."""
    if "numpy" not in sys.modules:  # read when NumPy loads its BLAS
        for name in BLAS_THREADS:
            os.environ.setdefault(name, "1")
    from tvseg.memory import own_process

    own_process()  # (tvseg.memory.collector_paused)
    code = main()
    if _outermost(sys._getframe(1)) and sys.gettrace() is None and sys.getprofile() is None:
        end_process(code)
    sys.exit(code)


def _outermost(frame) -> bool:
    """Whether ``frame`` (the caller of :func:`run`) and those below it are module code and runpy's start of a
    ``-m`` module only: the program was started by Python (``python -m tvseg``, the ``tvseg`` script), not
    called by a tool that has work to do once it returns (a profiler's report, a coverage tool's data)."""
    while frame is not None:
        code = frame.f_code
        started = code.co_name in ("_run_module_as_main", "_run_code") and frame.f_globals.get("__name__") == "runpy"
        if code.co_name != "<module>" and not started:
            return False
        frame = frame.f_back
    return True


def end_process(code: int) -> NoReturn:
    """End the process with exit code ``code`` after what Python's exit does that can be seen from
    outside: the standard streams flushed and the functions registered with :mod:`atexit` run (logging's
    handlers flushed, temporary folders removed, a coverage tool's data written). What is left out is the
    interpreter's teardown, which frees each module and each object in turn: about 0.1 s of CPU once numpy
    and pandas are loaded (7 % of a 2,000-show evaluation), memory the operating system takes back at once.

    Python exits as usual (:func:`sys.exit`) when this is not the main thread, when another thread that
    is not a daemon is alive (Python would wait for it), when a child process of :mod:`multiprocessing`
    is running, or when a standard stream cannot be flushed (Python reports it as it always does).
    """
    others = [t for t in threading.enumerate() if t is not threading.current_thread() and not t.daemon]
    processes = sys.modules.get("multiprocessing")
    if threading.current_thread() is not threading.main_thread() or others:
        sys.exit(code)
    if processes is not None and processes.active_children():
        sys.exit(code)
    if not _flushed():
        sys.exit(code)
    atexit._run_exitfuncs()
    if not _flushed():  # what the functions printed
        sys.exit(code)
    os._exit(code)


def _flushed() -> bool:
    """Flush the standard streams; False when one cannot be flushed."""
    try:
        for stream in dict.fromkeys((sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__)):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return False
    return True


if __name__ == "__main__":
    run()
