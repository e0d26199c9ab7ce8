"""One tmux control-mode client (`tmux -C`) for the bench scripts: keys are
sent and the screen read through it, so no process is started per poll (a
fork and exec of tmux costs several ms on a busy 2-core machine, which would
be measured as deck's latency). It neither receives pane output nor changes
the window's size."""
import os
import subprocess
import time


def new_session(name, width, height, argv):
    """Start `argv` in a detached tmux session `name` of width×height. The
    tmux server of the run before may be exiting as this one asks (its
    last session gone): it is asked again, a few times."""
    new = ["tmux", "new-session", "-d", "-s", name, "-x", str(width), "-y", str(height)] + list(argv)
    for _ in range(5):
        if subprocess.run(new, stderr=subprocess.DEVNULL).returncode == 0:
            return
        time.sleep(0.2)
    subprocess.run(new, check=True)


class Control:
    def __init__(self, target):
        self.target = target
        self.p = subprocess.Popen(
            ["tmux", "-C", "attach-session", "-t", target, "-f", "no-output,ignore-size,read-only"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.buf = b""
        self.command("display-message -p ready")

    def _line(self):
        while b"\n" not in self.buf:
            chunk = os.read(self.p.stdout.fileno(), 1 << 16)
            if not chunk:
                raise RuntimeError("tmux control client ended")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def command(self, cmd):
        """Run a tmux command; its output lines."""
        self.p.stdin.write(cmd.encode() + b"\n")
        while not self._line().startswith(b"%begin"):
            pass  # notifications
        lines = []
        while True:
            line = self._line()
            if line.startswith(b"%end") or line.startswith(b"%error"):
                return lines
            lines.append(line)

    def screen(self):
        out = self.command(f"capture-pane -p -t {self.target}")
        return "\n".join(l.decode("utf-8", "replace") for l in out)

    def wait_for(self, test, limit=30.0, poll=0.002):
        """The first screen `test` accepts, polled for at most `limit` s;
        None when none did."""
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < limit:
            s = self.screen()
            if test(s):
                return s
            time.sleep(poll)
        return None

    def press(self, key):
        self.command(f"send-keys -t {self.target} {key}")

    def pane_dead(self):
        out = self.command(f"display-message -p -t {self.target} '#{{pane_dead}}'")
        return bool(out) and out[0].strip() == b"1"

    def close(self):
        try:
            self.p.stdin.close()
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()
