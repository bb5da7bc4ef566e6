"""The daemon (trainruns.daemon; docs/daemon.md): `trainruns solve` goes to it by
default (TRAINRUNS_DAEMON=0 opts out, --daemon forces it) and gives the output and exit
status of the in-process command, the time limit counting from the client's start; it
falls back to in-process when no daemon answers (none yet, a stale socket left by a
dead one, a folder another user could reach, other code) and starts one on demand; the
daemon ends when idle and when its code changes on disk.

The expected answers are the in-process command's own (and, where the position carries
one, its ``expected_revenue``): the daemon must not change an answer."""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
KO = os.path.join(ROOT, "fixtures", "real", "1889-3-6-KO-160.json")        # expected_revenue 160
BROWN = os.path.join(ROOT, "fixtures", "1832", "12-phase8-last-values-brown-cities.json")
T1831 = os.path.join(ROOT, "fixtures", "1831", "example.json")
COMMAND = [sys.executable, "-m", "trainruns"]


def _run(args, env, cwd=ROOT):
    p = subprocess.run(COMMAND + args, env=env, cwd=cwd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def _sock(env):
    """Where the installation's daemon listens under ``env``'s runtime folder (the test
    runs the same interpreter and package as the commands)."""
    from trainruns.daemon import install_id

    return os.path.join(env["XDG_RUNTIME_DIR"], "trainruns", f"daemon-{install_id()}.sock")


def _fresh(runtime, prefix):
    """``runtime`` with an empty private runtime folder of its own: no daemon yet."""
    folder = tempfile.mkdtemp(prefix=prefix)
    os.chmod(folder, 0o700)
    return dict(runtime, XDG_RUNTIME_DIR=folder)


def _wait_for(predicate, seconds=300):
    deadline = time.monotonic() + seconds
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.2)
    return predicate()


def _status(env):
    code, out, _ = _run(["daemon", "status", "--json"], env)
    return code, json.loads(out)


def _without_times(out):
    """A JSON answer without its seconds (the only field that may differ run to run)."""
    data = json.loads(out)
    data.pop("seconds", None)
    return data


@pytest.fixture(scope="module")
def runtime():
    folder = tempfile.mkdtemp(prefix="trainruns-test-daemon-")
    os.chmod(folder, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=folder, TRAINRUNS_DAEMON_IDLE="120")
    env.pop("TRAINRUNS_DAEMON", None)
    yield env
    _run(["daemon", "stop"], env)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def daemon(runtime):
    code, out, err = _run(["daemon", "start"], runtime)
    assert code == 0, err
    return runtime


def test_status_without_a_daemon_is_a_negative_verdict(runtime):
    env = dict(runtime, XDG_RUNTIME_DIR=tempfile.mkdtemp(prefix="trainruns-none-"))
    os.chmod(env["XDG_RUNTIME_DIR"], 0o700)
    code, status = _status(env)
    assert code == 1 and status["up"] is False and status["running"] is False


@pytest.mark.parametrize("path", [KO, BROWN, T1831])
def test_daemon_answers_what_the_command_answers(daemon, path):
    code_in, out_in, err_in = _run(["solve", "--json", "--quiet", path], daemon)
    served = _status(daemon)[1]["served"]
    code_d, out_d, err_d = _run(["solve", "--daemon", "--json", "--quiet", path], daemon)
    assert (code_d, err_d) == (code_in, err_in) == (0, "")
    assert _without_times(out_d) == _without_times(out_in)
    assert _status(daemon)[1]["served"] == served + 1  # the daemon answered, not a fallback
    expected = json.load(open(path)).get("expected_revenue")
    if expected is not None:
        assert json.loads(out_d)["revenue"] == expected


def test_a_plain_solve_goes_to_the_daemon_and_the_table_is_the_same(daemon):
    """No option, no variable: the daemon answers (started on demand, by
    default); TRAINRUNS_DAEMON=0 keeps the command in-process."""
    served = _status(daemon)[1]["served"]
    code_d, out_d, err_d = _run(["solve", "--quiet", KO], daemon)
    assert _status(daemon)[1]["served"] == served + 1
    code_in, out_in, err_in = _run(["solve", "--quiet", KO], dict(daemon, TRAINRUNS_DAEMON="0"))
    assert _status(daemon)[1]["served"] == served + 1  # not answered by the daemon
    assert code_d == code_in == 0 and err_d == err_in == ""
    # the table's last line holds the milliseconds; the rest is the same run
    assert out_d.splitlines()[:-1] == out_in.splitlines()[:-1]
    assert "total    160  proven optimal" in out_d


def test_a_solve_the_daemon_answers_loads_no_numpy(daemon):
    """The client's whole process (``-X importtime`` lists every module it imported):
    the daemon answered, and the client loaded neither numpy, numba nor json."""
    served = _status(daemon)[1]["served"]
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "trainruns", "solve", "--json", "--quiet", KO],
                       env=daemon, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and json.loads(p.stdout)["revenue"] == 160
    assert _status(daemon)[1]["served"] == served + 1
    loaded = {line.split("|")[-1].strip() for line in p.stderr.splitlines() if line.startswith("import time:")}
    assert "trainruns.daemon.client" in loaded
    assert [m for m in ("numpy", "numba", "json", "argparse", "trainruns.route.search") if m in loaded] == []


def _imported(argv, env):
    """The modules a whole process imported (``-X importtime`` lists each), its result."""
    p = subprocess.run([sys.executable, "-X", "importtime"] + argv, env=env, cwd=ROOT, capture_output=True,
                       text=True, timeout=600)
    return {line.split("|")[-1].strip() for line in p.stderr.splitlines() if line.startswith("import time:")}, p


def test_the_installed_script_loads_only_the_client_when_the_daemon_answers(daemon):
    """The whole call as the installed script (scripts/trainruns) makes it: beyond what
    the bare interpreter loads, only built-in modules, ``_socket`` and the five modules
    of the launcher and client: no ``re``, ``collections`` or ``zlib``."""
    bare, _ = _imported(["-c", "pass"], daemon)
    served = _status(daemon)[1]["served"]
    loaded, p = _imported([os.path.join(ROOT, "scripts", "trainruns"), "solve", "--json", "--quiet", KO], daemon)
    assert p.returncode == 0 and json.loads(p.stdout)["revenue"] == 160
    assert _status(daemon)[1]["served"] == served + 1
    extra = sorted(m for m in loaded - bare if m not in sys.builtin_module_names)
    assert extra == ["_socket", "trainruns", "trainruns.cli", "trainruns.cli.launch", "trainruns.daemon",
                     "trainruns.daemon.client"]


def test_the_installed_script_runs_the_client_compiled_by_the_daemon(daemon):
    """Where no ``.pyc`` is written beside the sources (PYTHONDONTWRITEBYTECODE, as
    here), the script takes the client's modules compiled by the daemon in the user's
    private folder (``python -v`` names where each code object came from) rather than
    compiling them on each call; any other module's bytecode stays where Python keeps
    it, and a folder others can reach is not read."""
    from trainruns.daemon.server import CLIENT_MODULES

    script = [sys.executable, "-v", os.path.join(ROOT, "scripts", "trainruns"), "solve", "--json", "--quiet", KO]
    env = dict(daemon, PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.run(script, env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and json.loads(p.stdout)["revenue"] == 160
    folder = os.path.join(daemon["XDG_RUNTIME_DIR"], "trainruns", "pyc")
    from_folder = [line for line in p.stderr.splitlines() if line.startswith("# code object from") and folder in line]
    assert len(from_folder) == len(CLIENT_MODULES) == 5
    assert all(any(f"{os.sep}{name.replace('.', os.sep)}" in line for line in from_folder)
               for name in CLIENT_MODULES if name != "trainruns")
    os.chmod(os.path.join(daemon["XDG_RUNTIME_DIR"], "trainruns"), 0o750)
    try:
        p = subprocess.run(script, env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    finally:
        os.chmod(os.path.join(daemon["XDG_RUNTIME_DIR"], "trainruns"), 0o700)
    assert p.returncode == 0 and json.loads(p.stdout)["revenue"] == 160
    assert folder not in p.stderr


def _position_file(path, k4_value=40, corporation="KO"):
    """The KO position written to ``path``, its K4 city worth ``k4_value`` (two digits
    keep the file's size) and run for ``corporation``."""
    data = json.load(open(KO))
    data.pop("expected_revenue")
    data["corporation"] = corporation
    for h in data["map"]["hexes"]:
        if h["id"] == "K4":
            h["stops"][0]["value"] = k4_value
    path.write_text(json.dumps(data, indent=1))


def test_a_position_rewritten_after_it_was_read_ahead_is_read_again(daemon, tmp_path):
    """The daemon's spare reads the last command's position ahead (trainruns.cli.solve):
    a file rewritten since, to the same size and modification time, gets the answer of
    its new bytes, the in-process command's (docs/position-format.md: the position file
    is the input)."""
    pos = tmp_path / "pos.json"
    _position_file(pos, 40)
    code, out, err = _run(["solve", "--json", "--quiet", str(pos)], daemon)
    assert code == 0 and json.loads(out)["revenue"] == 160
    time.sleep(3)  # (the next spare has read the file ahead)
    stat = os.stat(pos)
    _position_file(pos, 90)
    os.utime(pos, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert os.stat(pos).st_size == stat.st_size
    served = _status(daemon)[1]["served"]
    got = _run(["solve", "--json", "--quiet", str(pos)], daemon)
    assert _status(daemon)[1]["served"] == served + 1
    want = _run(["solve", "--json", "--quiet", str(pos)], dict(daemon, TRAINRUNS_DAEMON="0"))
    assert _without_times(got[1]) == _without_times(want[1]) and got[0] == want[0] == 0
    assert json.loads(got[1])["revenue"] > 160


def test_a_position_read_ahead_still_gets_its_warning(daemon, tmp_path):
    """A position that loads with a warning (a company without a token of its own,
    trainruns.titles.load) says it on every command, the daemon's as the in-process one."""
    pos = tmp_path / "notoken.json"
    _position_file(pos, corporation="ZZ")
    want = _run(["solve", "--quiet", str(pos)], dict(daemon, TRAINRUNS_DAEMON="0"))
    assert "warning" in want[2] and "ZZ has no token" in want[2]
    for _ in range(2):
        got = _run(["solve", "--quiet", str(pos)], daemon)
        assert (got[0], got[2]) == (want[0], want[2])
        time.sleep(3)  # (the next spare has read the file ahead)


def test_a_position_file_become_a_named_pipe_is_neither_waited_on_nor_drained(daemon, tmp_path):
    """A position read ahead whose path is then a named pipe: the command reads the
    pipe's position once (the one written there, not the one read ahead), and the spare
    after it does not wait on the pipe (the next command is answered)."""
    import threading

    pos = tmp_path / "pos.json"
    _position_file(pos, 40)
    code, out, _ = _run(["solve", "--json", "--quiet", str(pos)], daemon)
    assert code == 0 and json.loads(out)["revenue"] == 160
    time.sleep(3)  # (the next spare has read the file ahead)
    os.unlink(pos)
    os.mkfifo(pos)
    source = tmp_path / "new.json"
    _position_file(source, 90)

    def feed():
        with open(pos, "w") as fh:
            fh.write(source.read_text())

    threading.Thread(target=feed, daemon=True).start()
    p = subprocess.run(COMMAND + ["solve", "--json", "--quiet", str(pos)], env=daemon, cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    want = _run(["solve", "--json", "--quiet", str(source)], dict(daemon, TRAINRUNS_DAEMON="0"))
    assert p.returncode == 0 and _without_times(p.stdout) == _without_times(want[1])
    time.sleep(3)  # (the next spare has prepared)
    p = subprocess.run(COMMAND + ["solve", "--json", "--quiet", KO], env=daemon, cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0 and json.loads(p.stdout)["revenue"] == 160


def test_a_console_script_wrapper_still_goes_to_the_daemon(daemon):
    """An installation whose ``trainruns`` is still pip's console-script wrapper (made
    before scripts/trainruns) calls trainruns.cli.main's main(): a solve still goes to
    the daemon, with the same answer."""
    wrapper = "import re, sys\nfrom trainruns.cli.main import main\nsys.argv[0] = 'trainruns'\nsys.exit(main())"
    served = _status(daemon)[1]["served"]
    p = subprocess.run([sys.executable, "-c", wrapper, "solve", "--json", "--quiet", KO], env=daemon, cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and p.stderr == "" and json.loads(p.stdout)["revenue"] == 160
    assert _status(daemon)[1]["served"] == served + 1


def test_bad_input_gives_the_same_line_and_exit_status(daemon, tmp_path):
    """docs/position-format.md: bad input is exit 2 with one line on stderr; the working folder is
    the client's (a relative path is read where the client runs)."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"title": "1832", "phase": ')
    served = _status(daemon)[1]["served"]
    cases = (["solve", "bad.json"], ["solve", "missing.json"], ["solve", "--time-limit", "0", KO],
             ["solve", "--engine", "nope", KO])
    for args in cases:
        got = _run(args, daemon, cwd=tmp_path)
        want = _run(args, dict(daemon, TRAINRUNS_DAEMON="0"), cwd=tmp_path)
        assert got == want  # byte for byte: status, stdout and stderr
        assert got[0] == 2 and len(got[2].strip().splitlines()) == 1
    assert _status(daemon)[1]["served"] == served + len(cases)


def test_time_limit_counts_from_the_client_start(daemon):
    """A bounded answer keeps its promise: proven or not, it comes within the limit's
    overshoot (trainruns.route.limits), and its revenue is that of the proven answer here."""
    code, out, _ = _run(["solve", "--daemon", "--json", "--time-limit", "30", KO], daemon)
    assert code == 0 and json.loads(out)["revenue"] == 160


def test_stale_socket_falls_back_and_a_daemon_starts_on_demand(runtime):
    """A socket file whose daemon died: the command answers in-process (the same
    answer), and a new daemon is started for the next command."""
    env = _fresh(runtime, "trainruns-stale-")
    folder = os.path.join(env["XDG_RUNTIME_DIR"], "trainruns")
    os.mkdir(folder, 0o700)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(_sock(env))
    dead.close()  # the file stays, nobody listens: connecting is refused
    try:
        code, out, err = _run(["solve", "--daemon", "--json", "--quiet", KO], env)
        assert code == 0 and err == ""
        assert json.loads(out)["revenue"] == 160
        assert _wait_for(lambda: _status(env)[0] == 0)
        code, status = _status(env)
        assert code == 0 and status["served"] == 0
        assert status["up"] is True and status["running"] == 0 and status["pid"] > 0
        code, out2, _ = _run(["solve", "--daemon", "--json", "--quiet", KO], env)
        assert _without_times(out2) == _without_times(out) and _status(env)[1]["served"] == 1
    finally:
        _run(["daemon", "stop"], env)


def test_a_folder_others_can_reach_is_not_used(runtime, tmp_path):
    """The socket folder must be the user's alone (0700): otherwise no daemon, a
    warning, and the in-process answer."""
    os.chmod(tmp_path, 0o700)
    folder = tmp_path / "trainruns"
    folder.mkdir()
    os.chmod(folder, 0o755)
    env = dict(runtime, XDG_RUNTIME_DIR=str(tmp_path))
    code, out, err = _run(["solve", "--daemon", "--json", "--quiet", KO], env)
    assert code == 0 and json.loads(out)["revenue"] == 160
    assert "not using the daemon" in err and len(err.strip().splitlines()) == 1
    assert not os.path.exists(_sock(env))


def test_code_changed_since_the_daemon_started_is_not_answered_by_it(daemon, monkeypatch):
    """A daemon that loaded other code refuses the command (the client runs it itself)."""
    from trainruns.daemon import client

    monkeypatch.setenv("XDG_RUNTIME_DIR", daemon["XDG_RUNTIME_DIR"])
    monkeypatch.setattr(client, "interpreter", lambda: "another interpreter")
    monkeypatch.setattr(client, "start_daemon", lambda path=None: None)
    assert client.forward(["solve", "--quiet", KO], time.perf_counter()) is None


def test_the_daemon_ends_when_idle(runtime):
    """TRAINRUNS_DAEMON_IDLE seconds without a command: the daemon ends, its socket
    gone (the next command runs in-process and starts a new one)."""
    env = dict(_fresh(runtime, "trainruns-idle-"), TRAINRUNS_DAEMON_IDLE="3")
    try:
        assert _run(["daemon", "start"], env)[0] == 0
        code, status = _status(env)
        assert code == 0
        assert _wait_for(lambda: _status(env)[0] == 1, seconds=120)
        assert not os.path.exists(_sock(env))
    finally:
        _run(["daemon", "stop"], env)


def test_a_command_after_a_code_change_is_not_answered_by_the_old_daemon(runtime):
    """The daemon sees a change of its code at the next command, not only at its
    periodic look (TRAINRUNS_DAEMON_CHECK here far longer than the test): that command
    is answered in-process, the same answer, and the old daemon ends."""
    import trainruns.route as package

    env = dict(_fresh(runtime, "trainruns-change-"), TRAINRUNS_DAEMON_CHECK="600")
    target = os.path.join(os.path.dirname(package.__file__), "search.py")
    before = os.stat(target)
    try:
        assert _run(["daemon", "start"], env)[0] == 0
        code, status = _status(env)
        old = status["pid"]
        code, out, _ = _run(["solve", "--daemon", "--json", "--quiet", KO], env)
        assert code == 0 and _status(env)[1]["served"] == 1
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
        code, out2, _ = _run(["solve", "--daemon", "--json", "--quiet", KO], env)
        assert code == 0 and _without_times(out2) == _without_times(out)
        assert _status(env)[1].get("pid") != old  # (none, or the new one started after)
    finally:
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
        _run(["daemon", "stop"], env)


def test_the_code_watch_counts_modules_and_data_not_bytecode(tmp_path):
    """What the daemon's watch counts as a change of its code: a module or data file
    written, a folder added; not bytecode, nor other files."""
    from trainruns.daemon.server import CodeWatch

    (tmp_path / "sub").mkdir()
    watch = CodeWatch.start(str(tmp_path))
    if watch is None:
        pytest.skip("no inotify here")
    try:
        (tmp_path / "__pycache__").mkdir()
        (tmp_path / "sub" / "notes.txt").write_text("x")
        (tmp_path / "sub" / "module.py~").write_text("x")
        assert not watch.changed()
        (tmp_path / "sub" / "data.json").write_text("{}")
        assert watch.changed() and watch.changed()
    finally:
        watch.close()
    for make in (lambda: (tmp_path / "sub" / "new").mkdir(), lambda: (tmp_path / "a.py").touch()):
        watch = CodeWatch.start(str(tmp_path))
        try:
            make()
            assert watch.changed()
        finally:
            watch.close()


def test_a_command_takes_the_spare_that_read_its_position_ahead_else_the_oldest():
    """docs/daemon.md: a command takes the oldest spare, or the oldest that read its
    position ahead (the same command line in the same folder)."""
    from trainruns.daemon.server import pick_spare

    solve_a, solve_b = (["solve", "a.json"], "/w"), (["solve", "b.json"], "/w")
    spares = [(11, None, None), (12, None, solve_a), (13, None, solve_b), (14, None, solve_a)]
    header = {"op": "run", "argv": ["solve", "b.json"], "cwd": "/w"}
    assert pick_spare(spares, header) == 2
    assert pick_spare(spares, dict(header, argv=["solve", "a.json"])) == 1
    assert pick_spare(spares, dict(header, cwd="/elsewhere")) == 0
    assert pick_spare(spares, dict(header, argv=["solve", "--json", "b.json"])) == 0
    assert pick_spare([(15, None, solve_b)], header) == 0


def test_the_daemon_ends_when_its_code_changes_on_disk(runtime):
    """A module of the package modified after the daemon loaded it: the daemon ends by
    itself (it looks every TRAINRUNS_DAEMON_CHECK seconds), so no command is answered
    by old code. (The file's modification time is changed, then restored.)"""
    import trainruns.daemon as package

    env = dict(_fresh(runtime, "trainruns-code-"), TRAINRUNS_DAEMON_CHECK="1")
    target = package.__file__
    before = os.stat(target)
    try:
        assert _run(["daemon", "start"], env)[0] == 0
        time.sleep(1.5)
        assert _status(env)[0] == 0  # unchanged code: it stays
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
        assert _wait_for(lambda: _status(env)[0] == 1, seconds=120)
    finally:
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
        _run(["daemon", "stop"], env)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to listen as another user")
def test_a_socket_of_another_user_is_not_used(runtime):
    """The client checks who listens (SO_PEERCRED): a socket in the right place whose
    listener is another user gets no command; the answer comes in-process."""
    env = _fresh(runtime, "trainruns-other-")
    folder = os.path.join(env["XDG_RUNTIME_DIR"], "trainruns")
    os.mkdir(folder, 0o700)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(_sock(env))
    pid = os.fork()
    if pid == 0:  # another user listens (Linux records the listener at listen())
        try:
            os.setuid(65534)
            listener.listen(4)
            conn, _ = listener.accept()
            time.sleep(30)
        finally:
            os._exit(0)
    try:
        time.sleep(0.5)
        code, out, err = _run(["solve", "--json", "--quiet", KO], env)
        assert code == 0 and json.loads(out)["revenue"] == 160
        assert "another user's" in err and len(err.strip().splitlines()) == 1
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        listener.close()
