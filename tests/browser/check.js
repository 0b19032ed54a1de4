// Opens every page of the built book in headless chromium, at a desktop
// width and at 390 px, and prints one line per check: "PASS name",
// "FAIL name: why". Screenshots go to SHOTS. The book's own structure is
// found through its classes, taken by name from CONTRACT
// (styles/classes.tsv); no class is written out here. See run.sh.
//
// usage: node check.js HTML_DIR SHOTS CHROMIUM CONTRACT
'use strict';

const fs = require('fs');
const path = require('path');
const { pathToFileURL, fileURLToPath } = require('url');
const { chromium } = require('playwright-core');

const [htmlDir, shotDir, exe, contractFile] = process.argv.slice(2).map((a, i) =>
  i < 2 ? path.resolve(a) : a);

const kDesktop = { width: 1280, height: 900 };
const kPhone = { width: 390, height: 844 };   // the narrowest common phone
const kLoadTimeout = 15000;                     // ms for one page to load

let failed = 0;
const pass = (name) => console.log(`PASS ${name}`);
const fail = (name, why) => { console.log(`FAIL ${name}: ${why}`); failed = 1; };

// The classes of the contract by their names, as selectors: sel.chunkRef
// is '.chunk-ref'. Every name this file looks up in sel, here and in the
// page, must be one the contract gives: in the page a selector made of a
// missing one would only match nothing.
function readContract(file) {
  const sel = {};
  fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (line === '' || line.startsWith('#')) return;
    const cols = line.split('\t');
    if (cols.length !== 5) throw new Error(`${file}:${i + 1}: ${cols.length} columns, not 5`);
    if (cols[0] !== '-') sel[cols[0]] = '.' + cols[1];
  });
  const missing = [...fs.readFileSync(__filename, 'utf8').matchAll(/\bsel\.(\w+)/g)]
    .map((m) => m[1]).filter((name) => !Object.hasOwn(sel, name));
  if (missing.length) {
    throw new Error(`${file} gives no class the name ${[...new Set(missing)].join(', ')}, which check.js uses`);
  }
  return sel;
}

// Everything a page knows about itself, gathered in the page; sel is the
// contract's selectors.
function survey(sel) {
  const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
  const seen = new Set();
  const dups = ids.filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
  const links = [...document.querySelectorAll('a[href]')].map((a) => a.href);
  const refs = [...document.querySelectorAll(`a${sel.chunkRef}`)].map((a) => {
    const id = decodeURIComponent(a.hash.slice(1));
    const target = document.getElementById(id);
    const name = target && target.querySelector(`${sel.chunkHead} ${sel.chunkName}`);
    return {
      text: a.textContent.trim(), id,
      isChunk: !!target && target.matches(sel.chunk),
      name: name ? name.textContent.trim() : null,
    };
  });
  const headings = [...document.querySelectorAll('main h1[id], main h2[id], main h3[id], main h4[id]')]
    .filter((h) => {
      const a = h.querySelector(`a${sel.permalink}`);
      return !a || a.getAttribute('href') !== '#' + h.id;
    }).map((h) => h.id);
  const chunks = [...document.querySelectorAll(`div${sel.chunk}[id]`)]
    .filter((c) => {
      const a = c.querySelector(`${sel.chunkHead} a${sel.chunkName}`);
      return !a || a.getAttribute('href') !== '#' + c.id;
    }).map((c) => c.id);
  const images = [...document.images].filter((i) => !(i.complete && i.naturalWidth > 0))
    .map((i) => i.getAttribute('src'));
  // What sticks out past the right edge of the window, outside any box
  // that scrolls on its own.
  const w = document.documentElement.clientWidth;
  const wide = [];
  if (document.documentElement.scrollWidth > w) {
    for (const e of document.querySelectorAll('main *, nav *, body > *')) {
      const r = e.getBoundingClientRect();
      if (r.right > w + 1 && r.width > 0) {
        let p = e.parentElement, clipped = false;
        while (p && p !== document.body) {
          const o = getComputedStyle(p).overflowX;
          if (o === 'auto' || o === 'scroll' || o === 'hidden') { clipped = true; break; }
          p = p.parentElement;
        }
        if (!clipped) {
          wide.push(`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className ? '.' + String(e.className).split(' ')[0] : ''} to ${Math.round(r.right)} px`);
          if (wide.length >= 3) break;
        }
      }
    }
  }
  return {
    ids, dups, links, refs, headings, chunks, images, wide,
    scrollWidth: document.documentElement.scrollWidth, width: w,
    chapters: document.querySelectorAll(`${sel.bookNav} ${sel.bookChapters} li`).length,
    toc: !!document.querySelector(sel.pageToc),
    title: document.title,
  };
}

async function main() {
  const sel = readContract(contractFile);
  fs.mkdirSync(shotDir, { recursive: true });
  const pages = fs.readdirSync(htmlDir).filter((f) => f.endsWith('.html')).sort();
  const browser = await chromium.launch({
    executablePath: exe,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update',
      '--disable-sync'],
  });

  // Opens a page, recording every console message, error, failed or
  // outside request; the problems are returned with the page.
  async function open(context, file) {
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') {
        problems.push(`console ${m.type()}: ${m.text().slice(0, 200)}`);
      }
    });
    page.on('pageerror', (e) => problems.push(`script error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`failed to load ${r.url()}`));
    page.on('request', (r) => {
      if (!/^(file|data|about):/.test(r.url())) {
        problems.push(`a request to the network: ${r.url()}`);
      }
    });
    await page.goto(pathToFileURL(path.join(htmlDir, file)).href,
      { waitUntil: 'load', timeout: kLoadTimeout });
    return { page, problems };
  }

  const desktop = await browser.newContext({ viewport: kDesktop, colorScheme: 'light' });
  const phone = await browser.newContext({ viewport: kPhone, colorScheme: 'light' });
  const dark = await browser.newContext({ viewport: kDesktop, colorScheme: 'dark' });

  // First pass: every page at both widths; the ids of each page for the
  // link check.
  const idsOf = new Map();
  const surveys = new Map();
  const chapterCount = [];
  for (const file of pages) {
    const name = `browser: ${file}`;
    const loads = [], wide = [], shape = [];
    try {
      for (const [ctx, kind] of [[desktop, 'desktop'], [phone, 'phone']]) {
        const { page, problems } = await open(ctx, file);
        const s = await page.evaluate(survey, sel);
        for (const p of problems) {
          if (!loads.includes(p)) loads.push(p);
        }
        if (kind === 'desktop') {
          idsOf.set(file, new Set(s.ids));
          surveys.set(file, s);
          chapterCount.push(s.chapters);
        }
        if (kind === 'phone' && (s.scrollWidth > kPhone.width || s.wide.length)) {
          wide.push(`${s.scrollWidth} px wide: ${s.wide.join(', ')}`);
        }
        await page.screenshot({ path: path.join(shotDir, `${file.replace(/\.html$/, '')}-${kind}.png`) });
        await page.close();
      }
      const s = surveys.get(file);
      if (s.dups.length) shape.push(`ids used twice: ${[...new Set(s.dups)].slice(0, 3).join(', ')}`);
      if (s.headings.length) shape.push(`headings without a permalink: ${s.headings.slice(0, 3).join(', ')}`);
      if (s.chunks.length) shape.push(`chunks whose name is not their permalink: ${s.chunks.slice(0, 3).join(', ')}`);
      if (s.images.length) shape.push(`images that did not load: ${s.images.slice(0, 3).join(', ')}`);
      if (s.chapters === 0) shape.push('no table of contents in the navigation');
    } catch (e) {
      loads.push(String(e.message || e).split('\n')[0]);
    }
    if (loads.length) fail(`${name} loads cleanly`, loads.slice(0, 3).join('; '));
    else pass(`${name} loads cleanly (desktop and ${kPhone.width} px: no console message, no failed load, nothing from the network)`);
    if (wide.length) fail(`${name} fits ${kPhone.width} px`, wide[0]);
    else pass(`${name} fits ${kPhone.width} px`);
    if (shape.length) fail(`${name} ids and permalinks`, shape.join('; '));
    else pass(`${name} ids and permalinks (unique ids, a permalink on every heading and chunk)`);
  }
  if (new Set(chapterCount).size > 1) {
    fail('browser: table of contents', `pages list different numbers of chapters: ${chapterCount.join(' ')}`);
  }

  // Links and anchors, across pages; chunk references land on their chunk.
  for (const file of pages) {
    const s = surveys.get(file);
    if (!s) continue;
    const broken = [];
    for (const href of s.links) {
      if (!href.startsWith('file:')) continue;
      const u = new URL(href);
      const target = fileURLToPath(href.split('#')[0].split('?')[0]);
      const rel = path.relative(htmlDir, target);
      if (rel.startsWith('..') || !fs.existsSync(target)) {
        broken.push(`${rel} (no such file)`);
        continue;
      }
      const frag = decodeURIComponent(u.hash.slice(1));
      if (frag && rel.endsWith('.html')) {
        const ids = idsOf.get(rel);
        if (!ids || !ids.has(frag)) broken.push(`${rel}#${frag}`);
      }
    }
    if (broken.length) fail(`browser: links on ${file}`, [...new Set(broken)].slice(0, 4).join(', '));
    else pass(`browser: links on ${file} (${s.links.length}, every file and anchor there)`);
    if (s.refs.length) {
      const bad = s.refs.filter((r) => !r.isChunk || r.name !== r.text);
      if (bad.length) {
        fail(`browser: chunk references on ${file}`, bad.slice(0, 3).map((r) =>
          `${r.text} -> #${r.id} (${r.isChunk ? 'lands on ' + r.name : 'no chunk there'})`).join(', '));
      } else {
        pass(`browser: chunk references on ${file} (${s.refs.length}, each lands on its chunk)`);
      }
    }
  }

  // Following a chunk reference scrolls its chunk into view, clear of the
  // bar at the top of a narrow window.
  for (const file of pages) {
    const s = surveys.get(file);
    if (!s || !s.refs.length) continue;
    for (const [ctx, kind] of [[desktop, 'desktop'], [phone, 'phone']]) {
      const { page } = await open(ctx, file);
      const ref = page.locator(`a${sel.chunkRef}`).nth(Math.floor(s.refs.length / 2));
      const id = s.refs[Math.floor(s.refs.length / 2)].id;
      await ref.scrollIntoViewIfNeeded();
      await ref.click();
      await page.waitForTimeout(100);
      const where = await page.evaluate(([target, topBar]) => {
        const t = document.getElementById(target);
        const bar = document.querySelector(topBar);
        const barH = bar && getComputedStyle(bar).display !== 'none' ? bar.getBoundingClientRect().height : 0;
        const r = t.getBoundingClientRect();
        return { hash: decodeURIComponent(location.hash.slice(1)), top: r.top, barH, h: innerHeight };
      }, [id, sel.topBar]);
      if (where.hash !== id || where.top < where.barH - 1 || where.top > where.h / 2) {
        fail(`browser: following a chunk reference on ${file} (${kind})`,
          `#${where.hash}: the chunk's top at ${Math.round(where.top)} px, the bar ${Math.round(where.barH)} px`);
      } else {
        pass(`browser: following a chunk reference on ${file} (${kind}) shows the chunk`);
      }
      if (kind === 'phone') {
        await page.screenshot({ path: path.join(shotDir, `${file.replace(/\.html$/, '')}-phone-chunk.png`) });
      }
      await page.close();
    }
  }

  // The chapters in the dark and in print.
  for (const file of pages.filter((f) => (surveys.get(f) || {}).toc)) {
    const base = file.replace(/\.html$/, '');
    const { page, problems } = await open(dark, file);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const lum = (bg.match(/\d+/g) || [255, 255, 255]).slice(0, 3).map(Number).reduce((a, b) => a + b, 0) / 765;
    await page.evaluate((chunk) => {
      const c = document.querySelector(`figure, div${chunk}`);
      if (c) c.scrollIntoView();
    }, sel.chunk);
    await page.screenshot({ path: path.join(shotDir, `${base}-dark.png`) });
    if (lum > 0.3 || problems.length) fail(`browser: ${file} in the dark`, problems[0] || `the page is light (${bg})`);
    else pass(`browser: ${file} follows a dark system setting`);

    await page.emulateMedia({ media: 'print', colorScheme: 'light' });
    const printed = await page.evaluate((navigation) => {
      const hidden = navigation.filter((s) => {
        const e = document.querySelector(s);
        return e && getComputedStyle(e).display !== 'none';
      });
      const cut = [...document.querySelectorAll('pre')].filter((p) => p.scrollWidth > p.clientWidth + 1).length;
      return { hidden, cut };
    }, [sel.bookNav, sel.topBar, sel.pageTurn]);
    await page.evaluate((chunk) => {
      const c = document.querySelector(`div${chunk}`);
      if (c) c.scrollIntoView();
    }, sel.chunk);
    await page.screenshot({ path: path.join(shotDir, `${base}-print.png`) });
    if (printed.hidden.length || printed.cut) {
      fail(`browser: ${file} in print`, `${printed.hidden.length ? 'still shown: ' + printed.hidden.join(' ') + '; ' : ''}${printed.cut} code blocks cut off`);
    } else {
      pass(`browser: ${file} in print: no navigation, no code cut off`);
    }
    const pdf = path.join(shotDir, `${base}.pdf`);
    await page.pdf({ path: pdf, format: 'A4', printBackground: true });
    await page.close();
  }

  // Search, from the box in the navigation, with no server.
  const searchBox = `${sel.search} input[type="search"]`;
  const resultLinks = `${sel.searchResults} li a`;
  {
    const { page, problems } = await open(desktop, 'index.html');
    const name = 'browser: search finds a chunk';
    try {
      await page.fill(searchBox, 'blelloch sweeps');
      await page.waitForSelector(resultLinks, { timeout: 5000 });
      const results = await page.$$eval(resultLinks, (as) => as.map((a) => a.href));
      await page.screenshot({ path: path.join(shotDir, 'search-desktop.png') });
      const first = new URL(results[0]);
      const file = path.relative(htmlDir, fileURLToPath(first.href.split('#')[0]));
      const ids = idsOf.get(file);
      const frag = decodeURIComponent(first.hash.slice(1));
      if (problems.length) fail(name, problems[0]);
      else if (!ids || (frag && !ids.has(frag))) fail(name, `the first result ${file}#${frag} is not on the page`);
      else pass(`${name}: ${results.length} results for "blelloch sweeps", the first ${file}#${frag}`);
    } catch (e) {
      fail(name, problems[0] || String(e.message || e).split('\n')[0]);
    }
    await page.close();
  }
  {
    const { page, problems } = await open(phone, 'index.html');
    const name = `browser: the navigation opens at ${kPhone.width} px`;
    try {
      const before = await page.isVisible(sel.bookNav);
      await page.click(`label${sel.navButton}`);
      const after = await page.isVisible(sel.bookNav);
      await page.fill(searchBox, 'cudaMemPrefetchAsync');
      await page.waitForSelector(resultLinks, { timeout: 5000 });
      await page.screenshot({ path: path.join(shotDir, 'search-phone.png') });
      if (before || !after) fail(name, before ? 'shown before the button is pressed' : 'not shown after');
      else if (problems.length) fail(name, problems[0]);
      else pass(`${name}, and search works there`);
    } catch (e) {
      fail(name, problems[0] || String(e.message || e).split('\n')[0]);
    }
    await page.close();
  }

  await browser.close();
  process.exit(failed);
}

main().catch((e) => {
  console.log(`FAIL browser: ${String(e.message || e).split('\n')[0]}`);
  process.exit(1);
});
