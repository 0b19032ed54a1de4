#!/usr/bin/env python3
"""serve.py: make preview, the author's loop. Builds the book, serves its
pages on 127.0.0.1 and builds it again whenever a source of the pages is
saved; the open pages reload by themselves, keeping their place, or show
the error of a build that failed.

usage: serve.py [--port N] HTML_DIR -- BUILD_COMMAND...

BUILD_COMMAND (the Makefile gives `make html`) runs first, and again after
every change to the files WATCHED names, relative to the current folder,
which a poll finds. Its output goes to the terminal; a failure adds one
line there, with the first line of its error, and the server goes on
serving what HTML_DIR holds: the build renames each page into place
whole, so that every page is its last good one. Only the server's responses carry the preview: a
page of HTML_DIR is sent with a <script src="/__preview/reload.js"> before
its </head>, which the pages' own Content-Security-Policy allows
(script-src 'self'), and the script follows /__preview/events, a stream of
server-sent events (connect-src 'self'): it reloads the page after a build
that changed HTML_DIR, and shows a failed build's error over the page.
HTML_DIR itself is never written.

The server listens on 127.0.0.1 only and answers only GET and HEAD, for a
Host that names this machine (localhost, 127.0.0.1), so that another
site's page cannot reach it through its own name. It serves regular files
inside HTML_DIR: a path with a `..` part, percent-encoded or not, or one
that leads out through a symlink is refused (403); a folder is its
index.html, and there is no listing. Ctrl-C (SIGINT; or SIGTERM, SIGHUP)
stops a build under way, waits for it, and ends, leaving nothing behind.

Python 3.7 or later, its standard library only.
"""

import argparse
import glob
import html
import http.server
import json
import os
import re
import signal
import stat
import subprocess
import sys
import threading
import time
import urllib.parse

# What the pages are built from: a save of one of these builds again.
WATCHED = ('chapters/*.nw', 'chapters/labels.tsv', 'chapters/labels/*', 'chapters/front.md', 'styles/*', 'evidence/**')
POLL_S = 0.25      # how often the sources are looked at
SETTLE_S = 0.2     # a save is built once the sources stop changing for this long
STOP_WAIT_S = 10   # how long a build may take to stop before it is killed
KEEPALIVE_S = 15   # a comment on each event stream this often, to find closed ones
MAX_ERROR_LINES = 20

HERE = os.path.dirname(os.path.abspath(__file__))
RELOAD_JS = os.path.join(HERE, 'reload.js')
LOCAL_HOSTS = ('localhost', '127.0.0.1')

# The types of the book's files; its sources (src/) and anything else are
# sent as text.
TYPES = {
    '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8', '.svg': 'image/svg+xml',
    '.ipynb': 'application/json', '.png': 'image/png',
}
TEXT = 'text/plain; charset=utf-8'

# make's own report of a failed recipe, which only repeats that it failed.
MAKE_STATUS = re.compile(r'^\S*make(\[\d+\])?: \*\*\* ')


class Stop(Exception):
    """SIGTERM or SIGHUP, stopping as Ctrl-C does."""


class State:
    """What the pages follow: the build they are of (gen, changed by a
    build that changed HTML_DIR) and the error of the last build, or None."""

    def __init__(self):
        self.cond = threading.Condition()
        self.gen = time.time_ns()  # a new server's pages differ from an old one's
        self.error = None
        self.stopping = False

    def now(self):
        with self.cond:
            return self.gen, self.error

    def set(self, changed, error):
        with self.cond:
            if changed:
                self.gen += 1
            self.error = error
            self.cond.notify_all()

    def wait(self, seen, timeout):
        """The state once it differs from seen (or after timeout); None when
        the server stops."""
        with self.cond:
            self.cond.wait_for(lambda: self.stopping or (self.gen, self.error) != seen, timeout)
            return None if self.stopping else (self.gen, self.error)

    def stop(self):
        with self.cond:
            self.stopping = True
            self.cond.notify_all()


def snapshot(patterns):
    """Each regular file the patterns find, with its modification time and size."""
    seen = {}
    for pattern in patterns:
        for path in glob.glob(pattern, recursive=True):
            try:
                st = os.stat(path)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                seen[path] = (st.st_mtime_ns, st.st_size)
    return seen


def say(text):
    print(f'preview: {text}', flush=True)


class Handler(http.server.BaseHTTPRequestHandler):
    def version_string(self):
        return 'preview'

    def do_GET(self):
        self.answer(True)

    def do_HEAD(self):
        self.answer(False)

    def log_message(self, format, *args):  # the terminal is the build's
        pass

    def answer(self, body):
        host = (self.headers.get('Host') or '').rsplit(':', 1)[0]
        if host not in LOCAL_HOSTS:
            return self.refuse(403, f'the preview answers to {" or ".join(LOCAL_HOSTS)} only')
        path = urllib.parse.urlsplit(self.path).path
        if path == '/__preview/events':
            return self.events()
        if path == '/__preview/reload.js':
            return self.send(200, TYPES['.js'], read(RELOAD_JS), body)
        try:
            path = urllib.parse.unquote(path, errors='strict')
        except UnicodeDecodeError:
            return self.refuse(400, 'the path is not UTF-8')
        parts = path.split('/')
        if not path.startswith('/') or '..' in parts or '\\' in path or '\0' in path:
            return self.refuse(403, 'outside the book')
        file = os.path.join(self.server.root, *[p for p in parts if p])
        if os.path.isdir(file) and self.inside(file):
            if not path.endswith('/'):
                return self.redirect(urllib.parse.quote(path) + '/')
            file = os.path.join(file, 'index.html')
        if not self.inside(file):
            return self.refuse(403, 'outside the book')
        if not os.path.isfile(file):
            if path == '/favicon.ico':  # the book has none; a browser asks all the same
                return self.send(204, TEXT, b'', False)
            return self.refuse(404, 'not in the book')
        kind = TYPES.get(os.path.splitext(file)[1], TEXT)
        gen = self.server.state.now()[0]  # before the page: a newer page reloads once more
        data = read(file)
        if kind == TYPES['.html']:
            data = self.with_script(data, gen)
        self.send(200, kind, data, body)

    def inside(self, path):
        """Whether path, its symlinks followed, is in the book's folder."""
        real, root = os.path.realpath(path), self.server.root
        return real == root or real.startswith(root + os.sep)

    def with_script(self, page, gen):
        tag = f'<script src="/__preview/reload.js?g={gen}" defer></script>\n'.encode()
        at = page.find(b'</head>')
        return page[:at] + tag + page[at:] if at >= 0 else page + tag

    def send(self, code, kind, data, body=True, headers=()):
        self.send_response(code)
        self.send_header('Content-Type', kind)
        self.send_header('Content-Length', str(len(data)))
        self.send_header('Cache-Control', 'no-store')
        self.send_header('X-Content-Type-Options', 'nosniff')
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(data)

    def refuse(self, code, why):
        # An HTML answer with the script, so that a page not built yet
        # appears when a build writes it.
        page = (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
                f'<title>{code}</title>\n</head>\n<body>\n<p>{code}: {html.escape(why)}</p>\n'
                f'</body>\n</html>\n').encode()
        self.send(code, TYPES['.html'], self.with_script(page, self.server.state.now()[0]),
                  self.command != 'HEAD')

    def redirect(self, where):
        self.send(301, TEXT, b'', False, [('Location', where)])

    def events(self):
        """The state as server-sent events: now, and at every change."""
        self.send_response(200)
        self.send_header('Content-Type', 'text/event-stream')
        self.send_header('Cache-Control', 'no-store')
        self.end_headers()
        state, seen = self.server.state, None
        try:
            while True:
                now = state.wait(seen, KEEPALIVE_S)
                if now is None:
                    return
                if now == seen:
                    self.wfile.write(b': still here\n\n')
                else:
                    gen, error = seen = now
                    self.wfile.write(f'data: {json.dumps({"gen": str(gen), "error": error})}\n\n'.encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return


def calm():
    """Stopping: a second Ctrl-C does not break off the clean-up."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True  # an open event stream does not hold the end up


def build(command, html_dir, state, last_good):
    """Runs the build; returns the snapshot of HTML_DIR that the pages now
    follow (the new one after a success, last_good after a failure; None
    before the first success)."""
    env = dict(os.environ)
    # A parent make's jobserver is not this process's to hand on; its -jN is.
    env['MAKEFLAGS'] = re.sub(r' ?--jobserver-(auth|fds)=\S+', '', env.get('MAKEFLAGS', ''))
    # Each build is a make of its own, and so a transaction (tools/txn): a
    # failed one leaves build/ as the last good one left it.
    env.pop('MAKELEVEL', None)
    started = time.monotonic()
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                            text=True, errors='replace')
    err = []
    try:
        for line in proc.stderr:
            sys.stderr.write(line)
            err.append(line.rstrip('\n'))
        rc = proc.wait()
    except BaseException as stop:
        # Ctrl-C reached the build as well, which stops by itself; a signal
        # to this process alone did not, and is passed on.
        calm()
        grace = 2 if isinstance(stop, KeyboardInterrupt) else 0
        for sig, wait in ((None, grace), (signal.SIGTERM, STOP_WAIT_S), (signal.SIGKILL, None)):
            if sig:
                proc.send_signal(sig)
            try:
                sys.stderr.write(proc.communicate(timeout=wait)[1] or '')
                break
            except subprocess.TimeoutExpired:
                pass
        raise
    took = f'{time.monotonic() - started:.1f} s'
    if rc == 0:
        pages = snapshot([os.path.join(glob.escape(html_dir), '**')])
        changed = pages != last_good
        state.set(changed, None)
        say(f'built in {took}' + ('' if last_good is None else
                                  '; the open pages reload' if changed else '; no page changed'))
        return pages
    why = [line for line in err if line.strip() and not MAKE_STATUS.match(line)] or err[-1:] \
        or [f'{command[0]} exited with status {rc}']
    state.set(False, why[:MAX_ERROR_LINES])
    say(f'the build failed ({took}); serving the last good pages: {why[0]}')
    return last_good


def main():
    parser = argparse.ArgumentParser(description='make preview: serve the book and rebuild it on save')
    parser.add_argument('--port', default='8000')
    parser.add_argument('html_dir')
    parser.add_argument('command', nargs='+')
    args = parser.parse_args()
    if not args.port.isdigit() or not 0 < int(args.port) < 65536:
        sys.exit(f'make preview: PORT={args.port} is not a port number (1 to 65535)')
    port = int(args.port)
    sys.stdout.reconfigure(line_buffering=True)

    def stop(signum, frame):
        raise Stop()
    # Ctrl-C, also where a script started this in the background (which
    # leaves SIGINT ignored).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)

    state = State()
    # Listen before the first build, so that a port in use fails at once.
    try:
        httpd = Server(('127.0.0.1', port), Handler)
    except OSError as e:
        sys.exit(f'make preview: cannot listen on 127.0.0.1:{port}: {e.strerror}; '
                 f'choose another port with PORT=')
    httpd.root = os.path.realpath(args.html_dir)
    httpd.state = state
    server = threading.Thread(target=httpd.serve_forever, name='server')
    try:
        sources = snapshot(WATCHED)
        pages = build(args.command, args.html_dir, state, None)
        server.start()
        say(f'serving {args.html_dir} at http://127.0.0.1:{port}/ '
            '(rebuilt when a chapter, style or evidence file is saved; Ctrl-C stops)')
        while True:
            time.sleep(POLL_S)
            now = snapshot(WATCHED)
            if now == sources:
                continue
            # Wait for the save to finish: editors write a file in steps.
            while True:
                time.sleep(SETTLE_S)
                settled = snapshot(WATCHED)
                if settled == now:
                    break
                now = settled
            changed = sorted(p for p in set(now) | set(sources) if now.get(p) != sources.get(p))
            say(f'{changed[0]} changed' + (f' (and {len(changed) - 1} more)' if len(changed) > 1 else '')
                + '; building')
            sources = now
            pages = build(args.command, args.html_dir, state, pages)
    except (KeyboardInterrupt, Stop):
        calm()
        print(flush=True)
        say('stopped')
    finally:
        state.stop()
        if server.is_alive():
            httpd.shutdown()
        httpd.server_close()


if __name__ == '__main__':
    main()
