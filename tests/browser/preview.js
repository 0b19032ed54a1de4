// make preview, driven from outside: started on the fixture book that
// preview.sh writes (its chapter chapters/preview.nw, the marker sentence
// "The marker reads before."), asked for what it must refuse, opened in
// headless chromium, edited, broken and mended, and stopped with SIGINT
// as Ctrl-C would. Prints "PASS name" or "FAIL name: why" lines.
//
// usage: node preview.js BOOK CHROMIUM
'use strict';

const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { chromium } = require('playwright-core');

const [book, exe] = process.argv.slice(2);
const chapterFile = path.join(book, 'chapters', 'preview.nw');
const htmlDir = path.join(book, 'build', 'html');
const kFirstBuild = 90000; // ms: the first build, which may compile the tools
const kRebuild = 20000;    // ms: a rebuild after an edit, and the reload

let failed = 0;
const pass = (name) => console.log(`PASS preview: ${name}`);
const fail = (name, why) => { console.log(`FAIL preview: ${name}: ${why}`); failed = 1; };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const firstLine = (e) => String(e.message || e).split('\n')[0];

async function until(what, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const got = await what();
    if (got || Date.now() > end) return got;
    await sleep(100);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer().on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Whether a connection to host:port is taken.
function connects(host, port) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 2000 });
    s.on('connect', () => { s.destroy(); resolve(true); });
    s.on('error', () => resolve(false));
    s.on('timeout', () => { s.destroy(); resolve(false); });
  });
}

// One request exactly as written, the path not tidied as a browser or
// curl would: { status, head, body (a Buffer) }.
function request(port, target, host = `127.0.0.1:${port}`) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    const s = net.connect(port, '127.0.0.1', () =>
      s.write(`GET ${target} HTTP/1.0\r\nHost: ${host}\r\n\r\n`));
    s.on('data', (d) => chunks.push(d));
    s.on('error', reject);
    s.on('end', () => {
      const all = Buffer.concat(chunks);
      const at = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, at).toString();
      resolve({ status: Number((head.match(/^HTTP\/1\.\d (\d{3})/) || [])[1]), head, body: all.subarray(at + 4) });
    });
  });
}

// The sockets listening on port, from the kernel's tables: their local
// addresses as the tables write them (0100007F is 127.0.0.1).
function listeners(port) {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((f) => {
    try {
      return fs.readFileSync(f, 'utf8').split('\n').slice(1)
        .map((l) => l.trim().split(/\s+/))
        .filter((c) => c.length > 3 && c[3] === '0A' && c[1].endsWith(`:${hex}`))
        .map((c) => c[1].split(':')[0]);
    } catch {
      return [];
    }
  });
}

// The processes of a process group, from /proc.
function group(pgid) {
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid;
    } catch {
      return false;
    }
  });
}

// The book's files, but for what the build writes, and any build file
// left half-written.
function files(dir, rel = '') {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) return r === 'build' ? [] : files(dir, r);
    return [r];
  }).sort();
}
const halfWritten = (dir) => fs.readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.tmp'));

function preview(port, portVariable) {
  const child = spawn('make', ['-s', '-C', book, 'preview', 'CHAPTERS=preview', `${portVariable}=${port}`],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const run = { child, out: '', exit: null };
  child.stdout.on('data', (d) => { run.out += d; });
  child.stderr.on('data', (d) => { run.out += d; });
  run.exited = new Promise((resolve) => child.on('exit', (code, signal) => {
    run.exit = { code, signal };
    resolve(run.exit);
  }));
  return run;
}
const tail = (run) => run.out.trim().split('\n').slice(-3).join(' | ');

// Saves the chapter with each [from, to] of pairs replaced, in one write.
function edit(...pairs) {
  let text = fs.readFileSync(chapterFile, 'utf8');
  for (const [from, to] of pairs) {
    if (!text.includes(from)) throw new Error(`chapters/preview.nw has no "${from}"`);
    text = text.replace(from, to);
  }
  fs.writeFileSync(chapterFile, text);
}

async function main() {
  const port = await freePort();
  const run = preview(port, 'PREVIEW_PORT');
  const before = files(book);
  let browser = null;
  try {
    const banner = `serving build/html at http://127.0.0.1:${port}/`;
    if (!await until(() => run.out.includes(banner) || run.exit, kFirstBuild) || run.exit) {
      fail('make preview builds and serves the book', `no "${banner}" line: ${tail(run) || 'no output'}`);
      return;
    }
    pass(`make preview builds the book and serves it at http://127.0.0.1:${port}/`);

    // 127.0.0.1 only: the kernel's tables, and a connection to another
    // loopback address and to each address of this machine's interfaces.
    {
      const name = 'the preview listens on 127.0.0.1 only';
      const bound = listeners(port);
      const others = ['127.0.0.2', '::1', ...Object.values(os.networkInterfaces()).flat()
        .filter((a) => !a.internal).map((a) => a.address)];
      const reached = [];
      for (const a of others) if (await connects(a, port)) reached.push(a);
      if (bound.length !== 1 || bound[0] !== '0100007F') fail(name, `listening sockets on port ${port}: ${bound.join(', ') || 'none'}`);
      else if (reached.length) fail(name, `it answers on ${reached.join(', ')}`);
      else pass(`${name} (not on ${others.join(', ')})`);
    }

    // Nothing outside build/html, however asked for; no listing.
    {
      const name = 'the preview serves nothing outside build/html';
      fs.symlinkSync(path.join(book, 'Makefile'), path.join(htmlDir, 'outside.html'));
      fs.symlinkSync(book, path.join(htmlDir, 'outdir'));
      const secret = fs.readFileSync(path.join(book, 'Makefile'), 'utf8').split('\n')[0];
      const why = [];
      // build/html/../../Makefile is the book's.
      const targets = ['/../../Makefile', '/%2e%2e/%2e%2e/Makefile', '/%2E%2E%2F%2E%2E%2FMakefile',
        '/src/..%2f..%2f..%2fMakefile', '/.%2e/.%2e/Makefile', '/..%5c..%5cMakefile',
        '/outside.html', '/outdir/Makefile', '/outdir/', '/src/'];
      try {
        for (const t of targets) {
          const r = await request(port, t);
          if (![403, 404].includes(r.status) || r.body.toString().includes(secret)) why.push(`${t} answered ${r.status}`);
        }
        const other = await request(port, '/preview.html', 'preview.example:80');
        if (other.status !== 403) why.push(`a request for Host preview.example answered ${other.status}`);
        const ok = await request(port, '/book.css');
        if (ok.status !== 200) why.push(`/book.css answered ${ok.status}`);
      } finally {
        fs.unlinkSync(path.join(htmlDir, 'outside.html'));
        fs.unlinkSync(path.join(htmlDir, 'outdir'));
      }
      if (why.length) fail(name, why.join('; '));
      else pass(`${name}: ${targets.length} paths out (.., %2e%2e, %2f, a backslash, symlinks out) and a folder's listing refused, another Host too`);
    }

    // The built page is as the book publishes it; only the answer has the
    // reload script, which the page's own policy allows.
    {
      const name = 'the served page is the built page with one script tag added';
      const built = fs.readFileSync(path.join(htmlDir, 'preview.html'));
      const served = (await request(port, '/preview.html')).body;
      const tag = /<script src="\/__preview\/reload\.js\?g=\d+" defer><\/script>\n/;
      const marked = fs.readdirSync(htmlDir, { recursive: true })
        .filter((f) => f.endsWith('.html') || f.endsWith('.js'))
        .filter((f) => fs.readFileSync(path.join(htmlDir, f), 'utf8').includes('__preview'));
      if (marked.length) fail(name, `build/html/${marked[0]} mentions __preview`);
      else if (!tag.test(served.toString())) fail(name, 'the served page has no reload script');
      else if (!Buffer.from(served.toString('latin1').replace(tag, ''), 'latin1').equals(built)) fail(name, 'the served page differs from build/html/preview.html by more than the script');
      else pass(`${name}; build/html holds no trace of the preview`);
    }

    browser = await chromium.launch({ executablePath: exe, args: ['--no-sandbox', '--disable-gpu'] });
    const page = await browser.newPage({ viewport: { width: 1000, height: 600 } });
    const problems = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text().slice(0, 200)}`);
    });
    page.on('pageerror', (e) => problems.push(`script error: ${e.message}`));
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} for ${r.url()}`); });
    const following = page.waitForRequest((r) => r.url().endsWith('/__preview/events'), { timeout: 10000 });
    await page.goto(`http://127.0.0.1:${port}/preview.html`, { waitUntil: 'load' });
    await following;
    const marker = () => page.evaluate(() => [...document.querySelectorAll('p')]
      .map((p) => p.textContent).find((t) => t.startsWith('The marker reads')));
    const y = await page.evaluate(() => {
      window.scrollTo(0, Math.floor((document.documentElement.scrollHeight - window.innerHeight) / 2));
      window.previewStayed = true; // gone when the page reloads
      return window.scrollY;
    });
    const scrolled = () => page.evaluate(() => window.scrollY);
    const stayed = () => page.evaluate(() => window.previewStayed === true);

    // A prose edit: the page reloads by itself, at the same place.
    {
      const name = 'an edit of the prose reloads the page at its place';
      const reloaded = page.waitForEvent('load', { timeout: kRebuild });
      edit(['The marker reads before.', 'The marker reads after.']);
      try {
        await reloaded;
        const text = await until(async () => (await marker()) === 'The marker reads after.', 5000);
        const at = await until(async () => { const s = await scrolled(); return Math.abs(s - y) <= 2 ? s : null; }, 3000);
        if (y < 300) fail(name, `the page scrolls only to ${y} px; the chapter is too short to tell`);
        else if (!text) fail(name, `the page reads "${await marker()}"`);
        else if (at === null) fail(name, `scrolled to ${y} px, reloaded at ${await scrolled()} px`);
        else pass(`${name} (${y} px down)`);
      } catch (e) {
        fail(name, `${firstLine(e)}; the preview said: ${tail(run)}`);
      }
      await page.evaluate(() => { window.previewStayed = true; });
    }

    // A mistake: the error over the page, which stays as it was.
    const broken = 'undefined chunk <<Say helo>>';
    {
      const name = "a failed build shows make's error over the page and keeps it";
      edit(['The marker reads after.', 'The marker reads broken.'],
        ['<<preview.h>>=\n<<Say hello>>', '<<preview.h>>=\n<<Say helo>>']);
      try {
        const box = await page.waitForSelector('#preview-error', { timeout: kRebuild });
        const said = await box.textContent();
        const line = fs.readFileSync(chapterFile, 'utf8').split('\n').indexOf('<<Say helo>>') + 1;
        const where = `chapters/preview.nw:${line}: ${broken}`;
        const served = (await request(port, '/preview.html')).body.toString();
        if (!said.includes(where)) fail(name, `the page shows "${said.split('\n').slice(0, 2).join(' / ')}", not ${where}`);
        else if (!run.out.split('\n').some((l) => l.startsWith('preview: the build failed') && l.includes(where))) fail(name, `the terminal does not say ${where}`);
        else if (!await stayed() || (await marker()) !== 'The marker reads after.') fail(name, 'the page was reloaded');
        else if (!served.includes('The marker reads after.')) fail(name, 'the last good page is no longer served');
        else pass(`${name}: "${where}", there and in the terminal`);
      } catch (e) {
        fail(name, `${firstLine(e)}; the preview said: ${tail(run)}`);
      }
    }

    // Mended: the page reloads, the error gone, at the same place.
    {
      const name = 'the mended chapter reloads the page without the error';
      const reloaded = page.waitForEvent('load', { timeout: kRebuild });
      edit(['<<Say helo>>', '<<Say hello>>'], ['The marker reads broken.', 'The marker reads mended.']);
      try {
        await reloaded;
        const text = await until(async () => (await marker()) === 'The marker reads mended.', 5000);
        const at = await until(async () => Math.abs((await scrolled()) - y) <= 2, 3000);
        if (!text) fail(name, `the page reads "${await marker()}"`);
        else if (await page.$('#preview-error')) fail(name, 'the error is still shown');
        else if (!at) fail(name, `scrolled to ${y} px, reloaded at ${await scrolled()} px`);
        else pass(name);
      } catch (e) {
        fail(name, `${firstLine(e)}; the preview said: ${tail(run)}`);
      }
    }

    if (problems.length) fail('the preview script runs within the page policy', problems.join(' ; '));
    else pass('the preview script runs within the page policy, with no console message');
    await browser.close();
    browser = null;

    // A second preview on the same port, through PORT=, says so in one line.
    {
      const name = 'a port in use stops a second preview with one line';
      const second = preview(port, 'PORT');
      const exit = await Promise.race([second.exited, sleep(kRebuild).then(() => null)]);
      const want = `make preview: cannot listen on 127.0.0.1:${port}: `;
      if (!exit) {
        process.kill(-second.child.pid, 'SIGKILL');
        fail(name, 'it is still running');
      } else if (exit.code === 0 || !second.out.split('\n').some((l) => l.startsWith(want))) {
        fail(name, `exit ${exit.code}: ${tail(second)}`);
      } else {
        pass(`${name}: "${second.out.split('\n').find((l) => l.startsWith(want))}"`);
      }
    }

    // Ctrl-C: SIGINT to the whole group, as the terminal sends it.
    {
      const name = 'Ctrl-C stops the preview with nothing left behind';
      process.kill(-run.child.pid, 'SIGINT');
      const exit = await Promise.race([run.exited, sleep(15000).then(() => null)]);
      const left = await until(() => group(run.child.pid).length === 0, 3000) ? [] : group(run.child.pid);
      const after = files(book);
      const added = after.filter((f) => !before.includes(f));
      const tmps = halfWritten(path.join(book, 'build'));
      if (!exit) fail(name, 'make preview is still running 15 s after SIGINT');
      else if (left.length) fail(name, `processes ${left.join(', ')} of its group are still running`);
      else if (await connects('127.0.0.1', port)) fail(name, `port ${port} still answers`);
      else if (/Traceback/.test(run.out)) fail(name, `a traceback: ${tail(run)}`);
      else if (added.length || tmps.length) fail(name, `files left: ${[...added, ...tmps].join(', ')}`);
      else pass(name);
    }
  } finally {
    if (browser) await browser.close();
    if (!run.exit) process.kill(-run.child.pid, 'SIGKILL');
  }
}

main().then(() => process.exit(failed), (e) => {
  console.log(`FAIL preview: ${firstLine(e)}`);
  process.exit(1);
});
