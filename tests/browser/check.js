// Opens every page of the built book in headless chromium, at a desktop
// width and at 390 px, and prints one line per check: "PASS name",
// "FAIL name: why", "SKIP name: why" (a known defect, named below, that
// another change is to mend). With BROWSER_SHOTS=1, screenshots go to SHOTS. The book's own structure is
// found through its classes, taken by name from CONTRACT
// (styles/classes.tsv); no class is written out here. See run.sh.
//
// With --toolchain, HTML_DIR is a small book built for this test
// (tests/fixtures/browser) and what is checked is what the pages' script
// and templates do whatever the chapter: the contents button, the
// outline's mark, landing on a label, the colours' switch, the page
// turns, quoted numbers and chunk references followed, the copy
// controls, search and folds (checkShared). Its pages are surveyed, not
// checked: the book's own pages are, each on its own.
//
// usage: node check.js [--toolchain] HTML_DIR SHOTS CHROMIUM CONTRACT
'use strict';

const fs = require('fs');
const path = require('path');
const { pathToFileURL, fileURLToPath } = require('url');
const { chromium } = require('playwright-core');

const kToolchain = process.argv[2] === '--toolchain';
const [htmlDir, shotDir, exe, contractFile] = process.argv.slice(kToolchain ? 3 : 2).map((a, i) =>
  i < 2 ? path.resolve(a) : a);

const kDesktop = { width: 1280, height: 900 };
const kPhone = { width: 390, height: 844 };   // the narrowest common phone
const kTablet = { width: 900, height: 900 };  // narrow: the contents behind a button
const kLoadTimeout = 90000;                     // ms for one page to load, or to open from a link (book.html, beside others, on a busy machine)
const kMinContrast = 4.5;                       // WCAG AA, for all text alike
const kSearchTimeout = 30000;                   // ms for search to answer (its index grows with the book)

// Numbered lists that start past 1 and are known, each with the reason
// and the change that is to remove it: pandoc starts a list wherever a
// line of prose begins with a number and a full stop, and a wrapped
// sentence can. A new one fails; a known one is reported as skipped.
const kKnownListStarts = [];

// Screenshots are for looking at, not tests: taken only with
// BROWSER_SHOTS=1 (as PDFs with BROWSER_PDF=1), each one a second or more.
const kShots = !!process.env.BROWSER_SHOTS;
async function shot(page, name) {
  if (kShots) await page.screenshot({ path: path.join(shotDir, name) });
}

let failed = 0;
const pass = (name) => console.log(`PASS ${name}`);
const fail = (name, why) => { console.log(`FAIL ${name}: ${why}`); failed = 1; };
// A check whose subject the book lacks fails, and so never passes by
// finding nothing: the toolchain's book (tests/fixtures/browser) holds
// one of each.
const lacking = (name, what) => fail(name, `the book has no ${what} to check it on`);

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
  // A folded T4 table is looked at open, as a reader who shows it sees it.
  for (const d of document.querySelectorAll(`${sel.t4Fit} details`)) d.open = true;
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
  // What scrolls sideways in the text must show that it does: the book
  // draws a shade at an edge with more beyond it (gradients in the
  // background, covers riding on the content, background-attachment
  // local) and keeps the scrollbar. What is cut off must end in an
  // ellipsis.
  const unshown = [];
  let scrollers = 0;
  const describe = (e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : ''}`;
  for (const e of document.querySelectorAll('main *')) {
    if (e.scrollWidth <= e.clientWidth + 1 || e.clientWidth === 0) continue;
    const cs = getComputedStyle(e);
    if (cs.overflowX === 'auto' || cs.overflowX === 'scroll') {
      scrollers++;
      const shaded = /gradient/.test(cs.backgroundImage) && /local/.test(cs.backgroundAttachment);
      if (!shaded || cs.scrollbarWidth === 'none') {
        unshown.push(`${describe(e)} (${e.scrollWidth} px in ${e.clientWidth}: ${shaded ? 'its scrollbar hidden' : 'no shade at the edge'})`);
      }
    } else if ((cs.overflowX === 'hidden' || cs.overflowX === 'clip') && cs.textOverflow !== 'ellipsis') {
      unshown.push(`${describe(e)} (${e.scrollWidth} px cut to ${e.clientWidth})`);
    }
  }
  // Numbered lists that do not start at 1.
  const listStarts = [...document.querySelectorAll('main ol[start]')]
    .filter((o) => o.getAttribute('start') !== '1')
    .map((o) => ({ start: Number(o.getAttribute('start')), text: o.textContent.trim().slice(0, 60) }));
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
  // A T4 table's kernel names wrap only at a blank (between template
  // arguments), never inside a word.
  const brokenNames = [];
  let kernelNames = 0;
  for (const code of document.querySelectorAll(`${sel.t4Fit} td:first-child code`)) {
    kernelNames++;
    const t = code.firstChild;
    if (!t || t.nodeType !== Node.TEXT_NODE || code.getClientRects().length < 2) continue;
    const r = document.createRange();
    let lastTop = null;
    for (let i = 0; i < t.data.length; i++) {
      r.setStart(t, i); r.setEnd(t, i + 1);
      const box = r.getClientRects()[0];
      if (!box) continue;
      if (lastTop !== null && box.top > lastTop + 1 && !/\s/.test(t.data[i]) && !/\s/.test(t.data[i - 1])) {
        brokenNames.push(`${t.data.slice(Math.max(0, i - 12), i)}|${t.data.slice(i, i + 12)}`);
        break;
      }
      lastTop = box.top;
    }
  }
  // A chunk's sign (≡, +≡) on the line where its name ends, not wrapped
  // onto a line of its own.
  const signs = document.querySelectorAll(`${sel.chunkHead} ${sel.chunkOp}`);
  const signAlone = [...signs].filter((op) => {
    const name = op.parentElement.querySelector(sel.chunkName);
    const lines = name ? name.getClientRects() : [];
    if (!lines.length) return false;
    const last = lines[lines.length - 1], r = op.getBoundingClientRect();
    return r.height > 0 && Math.abs(r.bottom - last.bottom) > 2;
  }).map((op) => op.closest(sel.chunk).id);
  // Markdown that reached the page as text, outside code: a heading mark
  // (pandoc joins a paragraph into one line, so a mark after other text
  // counts too), an attribute block, noweb's [[code]] and <<name>> (not
  // the <<<...>>> of a kernel launch).
  const rawMarks = [];
  const inCode = 'pre, code, script, style, math, svg, template, textarea';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (t.parentElement.closest(inCode)) continue;
    const m = /(?:^|\n)[ \t]*#{1,6} |##+ |\{#|\[\[|(?:^|[^<])<<[^<>\n]+>>(?!>)/.exec(t.data);
    if (m) rawMarks.push(`"${t.data.slice(Math.max(0, m.index - 20), m.index + 40).trim()}" in ${describe(t.parentElement)}`);
  }
  // Numbers shown where they are argued: a section of a chapter (from one
  // of its headings to the next; on a chapter's page they are h1) whose
  // prose quotes many values, argued.most's in a paragraph or in all, shows
  // them in a table or a chart too; and each chart sits in a section whose
  // prose quotes the values it argues from, not among the transcripts.
  // (The analysis sections quoted 6 to 13 values a paragraph, and up to
  // 55 a section, with neither.)
  const argued = { crowded: [], away: [], charts: 0, sections: 0, most: [7, 15] };
  if (document.querySelector(sel.pageToc) && !document.querySelector(sel.wholeBookChapter)) {
    const [perPara, perSection] = argued.most;
    const quotes = (e) => e.querySelectorAll(sel.quoted).length;
    const heads = [...document.querySelectorAll('main h1[id]')];
    heads.forEach((h, i) => {
      const next = heads[i + 1];
      const inside = (e) => (h.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING) &&
        (!next || (next.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_PRECEDING));
      const paras = [...document.querySelectorAll('main p, main li')]
        .filter((e) => inside(e) && !e.closest('table') && !e.querySelector('p, li'));
      const counts = paras.map(quotes);
      const most = Math.max(0, ...counts), all = counts.reduce((a, b) => a + b, 0);
      const shown = [...document.querySelectorAll(`main table, main img${sel.chart}`)].some(inside);
      // An exercise's answer stays in its words, after the question, not
      // in a table the reader meets before predicting it.
      const exercises = /^Exercises/.test(h.textContent.trim());
      if (!exercises && (most >= perPara || all >= perSection)) {
        argued.sections++;
        if (!shown) argued.crowded.push(`#${h.id} (${all} values quoted, ${most} in one paragraph)`);
      }
      for (const img of document.querySelectorAll(`main img${sel.chart}`)) {
        if (!inside(img)) continue;
        argued.charts++;
        if (h.id === 'sec-running' || all === 0) {
          argued.away.push(`${img.getAttribute('src').split('/').slice(-2).join('/')} in #${h.id}`);
        }
      }
    });
  }
  // Maths in the words' own face: its digits in the face of the text
  // around it, and a fence that is not stretched no wider than a fence of
  // that face (in the maths font a fence took nearly an em, 2 ( n - 1 )).
  const maths = { count: 0, face: [], loose: [], commands: [] };
  for (const m of document.querySelectorAll('main math')) {
    maths.count++;
    // The TeX commands its source uses (\bmod), which search's excerpts
    // are to show as text.
    for (const c of (m.querySelector('annotation') || { textContent: '' }).textContent.match(/\\[A-Za-z]+/g) || []) {
      if (!maths.commands.includes(c)) maths.commands.push(c);
    }
    const around = getComputedStyle(m.parentElement).fontFamily;
    const tex = () => (m.querySelector('annotation') || m).textContent.trim().slice(0, 30);
    if ([...m.querySelectorAll('mn')].some((e) => getComputedStyle(e).fontFamily !== around)) {
      maths.face.push(`${tex()} (${getComputedStyle(m.querySelector('mn')).fontFamily.split(',')[0]} in ${around.split(',')[0]})`);
    }
    for (const e of m.querySelectorAll('mo')) {
      if (!/^[()[\]{}]$/.test(e.textContent.trim())) continue;
      const r = e.getBoundingClientRect(), em = parseFloat(getComputedStyle(e).fontSize);
      if (r.height > 0 && r.height <= 1.5 * em && r.width > 0.65 * em) {
        maths.loose.push(`${tex()} (a fence ${(r.width / em).toFixed(2)} em wide)`);
        break;
      }
    }
  }
  // The notebook's offer: to run the chapter on a free T4 (sm_75) only
  // where a program's compile line builds it for one; else it names the
  // GPUs the programs are built for.
  const offer = document.querySelector(`header ${sel.pageLinks}`);
  const archs = [...document.querySelectorAll(`pre${sel.compileLine}`)]
    .map((p) => /-arch=sm_(\d+)/.exec(p.textContent)).filter(Boolean).map((m) => Number(m[1]));
  const notebook = offer && archs.length ? { text: offer.textContent.replace(/\s+/g, ' ').trim(), archs } : null;
  // Long chunks folded: every piece of more than 40 lines (search.js's
  // kFoldOver) shows its first ten lines or more, not all, over a button
  // that opens it; no shorter piece is folded.
  const folds = { long: 0, wrong: [], labelled: 0 };
  for (const c of document.querySelectorAll(`div${sel.chunk}`)) {
    const box = c.querySelector(':scope > div.sourceCode');
    const code = box && box.querySelector('pre code');
    if (!code) continue;
    const n = code.querySelectorAll(':scope > span').length;
    const button = c.querySelector(`:scope > button${sel.chunkFold}`);
    if (n <= 40) {
      if (button) folds.wrong.push(`#${c.id} (${n} lines) has a fold`);
      continue;
    }
    folds.long++;
    if (document.getElementById(`snippet:${c.id}`)) folds.labelled++;
    const lh = parseFloat(getComputedStyle(code.closest('pre')).lineHeight);
    const shown = box.clientHeight / lh;
    if (!button) folds.wrong.push(`#${c.id} (${n} lines) has no button`);
    else if (shown < 10 || box.scrollHeight <= box.clientHeight + 1) folds.wrong.push(`#${c.id} (${n} lines) shows ${shown.toFixed(1)}`);
  }
  // Where each quoted number and each claim leads: a quote to the line of
  // the transcript it was read from or to its entry under "Where the
  // numbers come from", a claim to its entry. (Following one by the
  // keyboard, the line marked in view, is search.js's and book.css's, the
  // same on every page: checkActions, on the toolchain's book.)
  const leads = { count: 0, wrong: [] };
  for (const a of document.querySelectorAll(`main a${sel.quoted}[href^="#"], main a${sel.claim}[href^="#"]`)) {
    leads.count++;
    const id = decodeURIComponent(a.hash.slice(1));
    const t = document.getElementById(id);
    const line = t && t.closest(`pre${sel.transcript}`);
    if (!t) leads.wrong.push(`${a.textContent.trim()} -> #${id}, not on the page`);
    else if (line ? !a.matches(sel.quoted) : !t.closest('li')) {
      leads.wrong.push(`${a.textContent.trim()} -> #${id}, neither a transcript's line nor an entry`);
    }
  }
  // The copy controls search.js gives the code: a chunk's in its head,
  // the compile line's in its box's corner; a label's, shown, with the
  // text it copies (its <template>). Clicking them is checkActions's.
  const line = `pre${sel.compileLine}`;
  const copies = {
    heads: document.querySelectorAll(`${sel.chunkHead} ${sel.copyCode}`).length,
    lines: document.querySelectorAll(line).length,
    boxes: [...document.querySelectorAll(line)].filter((p) => p.closest('div').parentElement.querySelector(`:scope > ${sel.copyCode}`)).length,
    snippets: [...document.querySelectorAll(`button${sel.copySnippet}`)].map((b) => {
      const t = document.getElementById(b.dataset.snippet);
      return { id: b.dataset.snippet, shown: !b.hidden && b.offsetParent !== null, text: t && t.content ? t.content.textContent : null };
    }),
  };
  // The page turns' links whole: none cut short at this width.
  const turnsCut = [...document.querySelectorAll(`${sel.pageTurn} a`)]
    .filter((a) => a.getClientRects().length && a.scrollWidth > a.clientWidth + 1)
    .map((a) => `"${a.textContent.trim().replace(/\s+/g, ' ').slice(0, 40)}" shown ${a.clientWidth} px of ${a.scrollWidth}`);
  // The chapters' names as the contents, the page's title and the whole
  // book's headings give them (each heading without its permalink).
  const own = (e) => [...e.childNodes].filter((n) => !(n.nodeType === 1 && n.matches(`a${sel.permalink}`)))
    .map((n) => n.textContent).join('').trim().replace(/\s+/g, ' ');
  const names = {
    contents: [...document.querySelectorAll(`${sel.bookNav} ${sel.bookChapters} li`)].map(own),
    title: document.querySelector('main h1.title') ? own(document.querySelector('main h1.title')) : null,
    whole: [...document.querySelectorAll(`main h1${sel.wholeBookChapter}`)].map(own),
  };
  // A link to a program's source saves it, as the notebook's link does,
  // rather than opening it as a page.
  const sources = [...document.querySelectorAll('a[href]')]
    .filter((a) => /\.(cu|cuh|cpp|h)$/.test(a.pathname));
  const noDownload = sources.filter((a) => !a.hasAttribute('download'))
    .map((a) => a.getAttribute('href'));
  return {
    ids, dups, links, refs, headings, chunks, images, wide, unshown, scrollers, listStarts,
    rawMarks, noDownload, sources: sources.length, argued, leads, copies, notebook, maths, turnsCut, names, folds, signAlone, signs: signs.length, brokenNames, kernelNames,
    // The page turns above the title ("prev next", sorted).
    turnsAbove: (() => {
      const title = document.querySelector('main h1');
      return !title ? '' : [...document.querySelectorAll('main a[rel~="prev"], main a[rel~="next"]')]
        .filter((a) => a.compareDocumentPosition(title) & Node.DOCUMENT_POSITION_FOLLOWING)
        .map((a) => a.rel).sort().join(' ');
    })(),
    scrollWidth: document.documentElement.scrollWidth, width: w,
    chapters: document.querySelectorAll(`${sel.bookNav} ${sel.bookChapters} li`).length,
    toc: !!document.querySelector(sel.pageToc),
    whole: !!document.querySelector(sel.wholeBookChapter),
    labels: document.querySelectorAll(`template${sel.snippetText}`).length,
    title: document.title,
  };
}

// The contrast of every piece of text in the page's main content, code
// included, and of generated text (line numbers, arrows), from the
// computed styles: its colour, with the opacity of it and its ancestors,
// over the backgrounds behind it, composed up to the page. Text that is
// not drawn (display none, hidden, opacity 0) is left out. Returns the
// lowest ratio and the pairs of colours under kMin, worst first.
function contrast(arg) {
  // kMin, or [kMin, the whole book's chapter heading selector]
  const [kMin, wholeChapter] = Array.isArray(arg) ? arg : [arg, null];
  const parse = (c) => {
    const m = /^rgba?\(([^)]*)\)$/.exec(c);
    if (!m) return null;
    const v = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return { r: v[0], g: v[1], b: v[2], a: v.length > 3 ? v[3] : 1 };
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a), a: 1,
  });
  const lum = (c) => {
    const f = (x) => { x /= 255; return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const hex = (c) => '#' + [c.r, c.g, c.b].map((x) => Math.round(x).toString(16).padStart(2, '0')).join('');
  const bgCache = new Map();
  const background = (el) => {
    if (bgCache.has(el)) return bgCache.get(el);
    const under = el.parentElement ? background(el.parentElement) : { r: 255, g: 255, b: 255, a: 1 };
    const own = parse(getComputedStyle(el).backgroundColor);
    const bg = own && own.a > 0 ? over(own, under) : under;
    bgCache.set(el, bg);
    return bg;
  };
  const opacityCache = new Map();
  const opacity = (el) => {
    if (!el) return 1;
    if (!opacityCache.has(el)) {
      opacityCache.set(el, Number(getComputedStyle(el).opacity) * opacity(el.parentElement));
    }
    return opacityCache.get(el);
  };
  const low = new Map();
  let lowest = Infinity, count = 0;
  const check = (el, cs, text) => {
    if (cs.visibility === 'hidden' || cs.display === 'none') return;
    const o = opacity(el);
    const fg = parse(cs.color);
    if (o === 0 || !fg) return;
    const bg = background(el);
    const drawn = over({ ...fg, a: fg.a * o }, bg);
    const [a, b] = [lum(drawn), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    count++;
    lowest = Math.min(lowest, ratio);
    if (ratio < kMin) {
      const key = `${hex(drawn)} on ${hex(bg)}`;
      if (!low.has(key)) low.set(key, { ratio, text: text.trim().slice(0, 30), where: el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '') });
    }
  };
  const main = document.querySelector('main');
  // On the whole book's page (its chapters under headings wholeChapter),
  // what its own pages do not show: every chapter's heading, and the first
  // chapter, to hold the page's own styles; each chapter's text is held on
  // its own page, with the same styles.
  const heads = wholeChapter ? [...main.querySelectorAll(wholeChapter)] : [];
  // The text and elements held: main's, or the whole book's first chapter
  // (all before the second chapter's heading) and each later heading's,
  // walked alone (a test over the whole book for each node grew with the
  // square of the chapters).
  const texts = [], elements = [];
  const collect = (root, stop) => {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walk.currentNode; n && n !== stop; n = walk.nextNode()) {
      if (n.nodeType === Node.TEXT_NODE) texts.push(n);
      else if (n !== main) elements.push(n);
    }
  };
  if (heads.length < 2) collect(main, null);
  else {
    collect(main, heads[1]);
    for (const h of heads.slice(1)) collect(h, null);
  }
  for (const n of texts) {
    if (!n.data.trim()) continue;
    const el = n.parentElement;
    if (!el.getClientRects().length) continue;
    check(el, getComputedStyle(el), n.data);
  }
  for (const el of elements) {
    for (const pseudo of ['::before', '::after']) {
      const cs = getComputedStyle(el, pseudo);
      if (cs.content === 'none' || cs.content === 'normal' || cs.content === '""') continue;
      if (!el.getClientRects().length) continue;
      check(el, cs, `${pseudo} ${cs.content}`);
    }
  }
  return {
    lowest, count,
    low: [...low.entries()].sort((x, y) => x[1].ratio - y[1].ratio)
      .map(([k, v]) => `${v.ratio.toFixed(2)}:1 ${k} (${v.where} "${v.text}")`),
  };
}

// Where a link landed, in the page: the address's fragment, the top and
// bottom of the element target, the height of the bar at the top of a
// narrow window, and whether the target is a transcript's line (and marked
// there) or an entry of a list.
function landing([target, topBar]) {
  const t = document.getElementById(target);
  const bar = document.querySelector(topBar);
  const barH = bar && getComputedStyle(bar).display !== 'none' ? bar.getBoundingClientRect().height : 0;
  const r = t.getBoundingClientRect();
  const pre = t.closest('pre');
  return {
    hash: decodeURIComponent(location.hash.slice(1)), top: r.top, bottom: r.bottom, barH, h: innerHeight,
    line: !!pre && getComputedStyle(t).backgroundColor !== getComputedStyle(pre).backgroundColor,
    entry: t.closest('li') !== null, inTranscript: !!pre,
  };
}

// CUDA's own words in the code, and whether each is highlighted: a token
// of its own, in a colour unlike the code around it. pandoc writes a line
// of code as a span of the code element, and each token as a span in the
// line; a word in the line's own text is not highlighted, and one inside
// a longer token (a comment, a string) is not code.
function cudaWords() {
  const words = ['__global__', '__shared__', '__device__', '__syncthreads', 'threadIdx', 'blockIdx', '<<<', '>>>'];
  const has = (text, w) => new RegExp(`(^|[^A-Za-z0-9_])${w}([^A-Za-z0-9_]|$)`).test(text);
  let found = 0;
  const plain = new Set();
  for (const code of document.querySelectorAll('main pre code')) {
    const color = getComputedStyle(code).color;
    const walk = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      for (const w of words) {
        if (!has(n.data, w)) continue;
        if (el === code || el.parentElement === code) {
          found++;
          plain.add(w);
        } else if (n.data.trim() === w) {
          found++;
          if (getComputedStyle(el).color === color) plain.add(w);
        }
      }
    }
  }
  return { found, plain: [...plain] };
}

// Pages opened at once: chromium's processes share the machine's cores,
// and a page that waits (a load, a screenshot) leaves them to the other.
const kConcurrency = 2;
// Runs fn on each of list, kConcurrency at a time.
async function eachPage(list, fn) {
  let next = 0;
  const worker = async () => {
    while (next < list.length) await fn(list[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(kConcurrency, list.length) }, worker));
}

// Pages given back (done), kept by window for the next open: loading a
// page into one costs about a third of a new one's making and loading.
// Each window's colour scheme, the dark window's dark, and each page's
// first size, to which done puts a page back.
const idle = new WeakMap();
const schemeOf = new WeakMap();
const sizeOf = new WeakMap();

// Opens a page, recording every console message, error, failed or
// outside request; the problems are returned with the page.
async function open(context, file) {
  if (!idle.has(context)) idle.set(context, []);
  const page = idle.get(context).pop() || await context.newPage();
  if (!sizeOf.has(page)) sizeOf.set(page, page.viewportSize());
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

// Gives back a page open() opened, emptied (about:blank: the next open
// loads its page anew even where only the fragment differs), with none
// of its listeners, at its window's size and colour scheme on a screen;
// a page that cannot be put back so is closed.
async function done(page) {
  for (const e of ['console', 'pageerror', 'requestfailed', 'request']) page.removeAllListeners(e);
  try {
    await page.goto('about:blank');
    await page.setViewportSize(sizeOf.get(page));
    await page.emulateMedia({ media: 'screen', colorScheme: schemeOf.get(page.context()) || 'light' });
    idle.get(page.context()).push(page);
  } catch {
    await page.close();
  }
}

// The book under test, which every check is given: the page contract's
// selectors (sel), the pages to open, the browser and its windows, and
// what the survey of each page found, which the checks after it read.
async function openBook(sel) {
  // PAGES, where set, names the pages to open (make check CHAPTER=x: the
  // chapter's and the pages that hold every chapter); else every page.
  const only = (process.env.PAGES || '').split(/\s+/).filter(Boolean);
  const pages = fs.readdirSync(htmlDir).filter((f) => f.endsWith('.html'))
    .filter((f) => only.length === 0 || only.includes(f)).sort();
  const browser = await chromium.launch({
    executablePath: exe,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update',
      '--disable-sync'],
  });
  const desktop = await browser.newContext({ viewport: kDesktop, colorScheme: 'light' });
  // The copy control's test reads what it copied.
  await desktop.grantPermissions(['clipboard-read', 'clipboard-write']);
  const phone = await browser.newContext({ viewport: kPhone, colorScheme: 'light' });
  const tablet = await browser.newContext({ viewport: kTablet, colorScheme: 'light' });
  const dark = await browser.newContext({ viewport: kDesktop, colorScheme: 'dark' });
  schemeOf.set(dark, 'dark');
  const book = {
    sel, only, pages, browser, desktop, phone, tablet, dark,
    // What each page's survey found (survey()), the ids of each page, as
    // the link check wants them, and the number of chapters each lists.
    surveys: new Map(),
    idsOf: new Map(),
    chapterCount: [],
    // Search, from the box in the navigation, with no server.
    searchBox: `${sel.search} input[type="search"]`,
    resultLinks: `${sel.searchResults} li a`,
  };
  // A chapter's page has an outline; the whole book's page has one too, and
  // holds every chapter under a heading of its own.
  book.isChapter = (f) => !!(book.surveys.get(f) || {}).toc && !(book.surveys.get(f) || {}).whole;
  // The ids of a page: as the browser found them where it opened the page,
  // else (a page PAGES leaves out) as its file writes them.
  book.idsIn = (file) => {
    if (!book.idsOf.has(file) && fs.existsSync(path.join(htmlDir, file))) {
      const html = fs.readFileSync(path.join(htmlDir, file), 'utf8');
      book.idsOf.set(file, new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1])));
    }
    return book.idsOf.get(file);
  };
  return book;
}

// Contrast, in either theme: the page's text, code and line numbers
// included, at least kMinContrast.
async function checkContrast(book, page, file, theme) {
  const { sel } = book;
  const name = `browser: contrast on ${file} (${theme})`;
  const c = await page.evaluate(contrast, [kMinContrast, sel.wholeBookChapter]);
  if (c.low.length) fail(name, `${c.low.length} pairs under ${kMinContrast}:1: ${c.low.slice(0, 4).join('; ')}`);
  else pass(`${name}: ${c.count} pieces of text, the lowest ${c.lowest.toFixed(2)}:1`);
}

// CUDA is highlighted as CUDA: its qualifiers, built-in variables,
// intrinsics and launch brackets each in a colour of their own.
async function checkCuda(page, file) {
  const w = await page.evaluate(cudaWords);
  const name = `browser: CUDA highlighted on ${file}`;
  if (w.plain.length) fail(name, `not highlighted: ${w.plain.join(' ')}`);
  else pass(`${name} (${w.found} of its words)`);
}

// Following a chunk reference scrolls its chunk into view, clear of the
// bar at the top of a narrow window.
async function followRef(book, page, file, s, kind) {
  const { sel } = book;
  const ref = page.locator(`a${sel.chunkRef}`).nth(Math.floor(s.refs.length / 2));
  const id = s.refs[Math.floor(s.refs.length / 2)].id;
  await ref.scrollIntoViewIfNeeded();
  await ref.click();
  await page.waitForTimeout(100);
  const where = await page.evaluate(landing, [id, sel.topBar]);
  if (where.hash !== id || where.top < where.barH - 1 || where.top > where.h / 2) {
    fail(`browser: following a chunk reference on ${file} (${kind})`,
      `#${where.hash}: the chunk's top at ${Math.round(where.top)} px, the bar ${Math.round(where.barH)} px`);
  } else {
    pass(`browser: following a chunk reference on ${file} (${kind}) shows the chunk`);
  }
  if (kind === 'phone') {
    await shot(page, `${file.replace(/\.html$/, '')}-phone-chunk.png`);
  }
}

// The clipboard is the browser's, one for every page: one copy at a time.
let clipboardFree = Promise.resolve();
async function withClipboard(fn) {
  const before = clipboardFree;
  let done;
  clipboardFree = new Promise((r) => { done = r; });
  await before;
  try { return await fn(); } finally { done(); }
}
// Clicks button and returns what it put on the clipboard.
async function copied(page, button) {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await button.scrollIntoViewIfNeeded();
  await button.click();
  let got = '';
  for (let i = 0; i < 20 && got === ''; i++) {
    await page.waitForTimeout(50);
    got = await page.evaluate(() => navigator.clipboard.readText());
  }
  return got;
}

// A code block's copy control copies its code as shown: a chunk's piece
// (the middle one with a control in its head) and the compile line.
// Returns whether the page has either.
async function copyCode(book, page, file) {
  const { sel } = book;
  const { heads, lines } = book.surveys.get(file).copies;
  const name = `browser: the copy controls on ${file} copy the code`;
  const why = [];
  const cases = [];
  if (heads) cases.push([page.locator(`${sel.chunkHead} ${sel.copyCode}`).nth(Math.floor(heads / 2)), 'a chunk']);
  if (lines) cases.push([page.locator(`pre${sel.compileLine}`).first().locator(`xpath=../following-sibling::button`), 'the compile line']);
  if (cases.length === 0) return false;
  for (const [button, what] of cases) {
    const want = await button.evaluate((b, [chunk]) => {
      const c = b.closest(chunk);
      return (c ? c.querySelector('pre code') : b.parentElement.querySelector('pre code')).textContent;
    }, [sel.chunk]);
    const got = await withClipboard(() => copied(page, button));
    if (got !== want) why.push(`${what}: ${got.length} characters copied, its code has ${want.length}`);
  }
  if (why.length) fail(name, why.join('; '));
  else pass(`${name} (${cases.map(([, what]) => what).join(', ')})`);
  return true;
}

// A label's copy control, the middle one clicked, copies exactly its
// file, snippets/LABEL.cu. Returns false where the page has none.
async function copySnippet(book, page, file) {
  const { sel } = book;
  const name = `browser: a label's copy control on ${file} copies its snippet file`;
  const buttons = book.surveys.get(file).copies.snippets;
  if (buttons.length === 0) return false;
  const middle = Math.floor(buttons.length / 2);
  const label = buttons[middle].id.replace(/^snippet:/, '');
  const want = fs.readFileSync(path.join(htmlDir, 'snippets', `${label}.cu`), 'utf8');
  const got = await withClipboard(() => copied(page, page.locator(`button${sel.copySnippet}`).nth(middle)));
  if (got !== want) {
    const at = [...want].findIndex((c, i) => c !== got[i]);
    fail(name, `${label}: ${got.length} characters copied, the file has ${want.length}; they part at ${at}`);
  } else pass(`${name}: ${label}, ${want.length} characters`);
  return true;
}

// A quoted number, reached by the keyboard, leads to the line of the
// transcript it was read from (or to its entry under "Where the numbers
// come from"), in view below the bar, the line marked; a claim's check
// mark, to its entry. Returns which of the three the page has.
async function followQuotes(book, page, file, kind) {
  const { sel } = book;
  const targets = await page.evaluate(([quoted, claim]) => {
    const first = (q) => {
      const a = document.querySelector(`main a${q}[href^="#"]`);
      return a ? a.getAttribute('href').slice(1) : null;
    };
    return { line: first(`${quoted}[href^="#ev-"]`), entry: first(`${quoted}[href^="#value-"]`), claim: first(claim) };
  }, [sel.quoted, sel.claim]);
  const found = [];
  for (const [what, q, id] of [['a quoted number', sel.quoted, targets.line],
    ['a number with an entry of its own', sel.quoted, targets.entry], ['a claim', sel.claim, targets.claim]]) {
    if (!id) continue;
    found.push(what);
    const name = `browser: ${what} on ${file} leads to where it comes from, by the keyboard (${kind})`;
    await page.focus(`main a${q}[href="#${id}"]`);
    await page.keyboard.press('Enter');
    await page.waitForTimeout(100);
    const where = await page.evaluate(landing, [id, sel.topBar]);
    const why = [];
    if (where.hash !== id) why.push(`Enter went to #${where.hash}, not #${id}`);
    if (where.top < where.barH - 1 || where.bottom > where.h) why.push(`#${id} at ${Math.round(where.top)} px, out of view`);
    if (where.inTranscript && !where.line) why.push('the line is not marked');
    if (!where.inTranscript && !where.entry) why.push(`#${id} is neither a transcript's line nor an entry`);
    if (why.length) fail(name, why.join('; '));
    else pass(`${name}: #${id}`);
    await page.goBack();
  }
  return found;
}

// A folded chunk opens by its button and folds again; a link to one of
// its lines past the fold opens it with the line in view. The page is
// left as it was, folded, with no fragment.
async function openFold(book, page, file) {
  const { sel } = book;
  const name = `browser: a long chunk on ${file} opens`;
  const r = await page.evaluate(async (fold) => {
    const frame = () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
    const c = document.querySelector('div[data-folded]');
    if (!c) return { id: '-', n: 0, why: ['no chunk folded'] };
    const box = c.querySelector(':scope > div.sourceCode');
    const button = c.querySelector(`:scope > button${fold}`);
    const whole = () => box.scrollHeight <= box.clientHeight + 1;
    const why = [];
    button.click();
    await frame();
    if (!whole() || button.getAttribute('aria-expanded') !== 'true') why.push('its button did not open it');
    button.click();
    await frame();
    if (whole()) why.push('its button did not fold it again');
    const lines = box.querySelectorAll('pre code > span[id]');
    const line = lines[lines.length - 2];
    location.hash = line.id;
    await frame();
    const r = line.getBoundingClientRect();
    const at = document.elementFromPoint(Math.min(r.left + 40, innerWidth - 1), r.top + r.height / 2);
    if (!whole()) why.push(`a link to its line ${line.id} left it folded`);
    else if (!at || !line.contains(at)) why.push(`a link to its line ${line.id} left the line out of view`);
    button.click();
    history.replaceState(null, '', location.pathname);
    return { id: c.id, n: lines.length, why };
  }, sel.chunkFold);
  if (r.why.length) fail(name, `#${r.id}: ${r.why.join('; ')}`);
  else pass(`${name} (#${r.id}, ${r.n} lines): by its button, and by a link to a line past the fold`);
}

// A chapter in the dark, then in print (s.toc: a page with an outline).
async function darkAndPrint(book, page, file) {
  const { sel, surveys } = book;
  const base = file.replace(/\.html$/, '');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const lum = (bg.match(/\d+/g) || [255, 255, 255]).slice(0, 3).map(Number).reduce((a, b) => a + b, 0) / 765;
  await page.evaluate((chunk) => {
    const c = document.querySelector(`figure, div${chunk}`);
    if (c) c.scrollIntoView();
  }, sel.chunk);
  await shot(page, `${base}-dark.png`);
  if (lum > 0.3) fail(`browser: ${file} in the dark`, `the page is light (${bg})`);
  else pass(`browser: ${file} follows a dark system setting`);

  await page.emulateMedia({ media: 'print', colorScheme: 'light' });
  const printed = await page.evaluate(([navigation, chapter, chunk]) => {
    const hidden = navigation.filter((s) => {
      const e = document.querySelector(s);
      return e && getComputedStyle(e).display !== 'none';
    });
    const cut = [...document.querySelectorAll('pre')].filter((p) => p.scrollWidth > p.clientWidth + 1).length;
    // A long chunk folded on the screen is printed whole: no box of a
    // chunk (its code's) cut short.
    const short = [...document.querySelectorAll(`div${chunk} > div`)]
      .filter((b) => b.scrollHeight > b.clientHeight + 1).map((b) => b.parentElement.id);
    // On the whole book's page, each chapter starts a new sheet.
    const unbroken = [...document.querySelectorAll(chapter)].filter((h) =>
      getComputedStyle(h).breakBefore !== 'page').map((h) => h.id);
    return { hidden, cut, short, unbroken };
  }, [[sel.bookNav, sel.topBar, sel.pageTurn], sel.wholeBookChapter, sel.chunk]);
  await page.evaluate((chunk) => {
    const c = document.querySelector(`div${chunk}`);
    if (c) c.scrollIntoView();
  }, sel.chunk);
  await shot(page, `${base}-print.png`);
  if (printed.hidden.length || printed.cut || printed.short.length || printed.unbroken.length) {
    fail(`browser: ${file} in print`, `${printed.hidden.length ? 'still shown: ' + printed.hidden.join(' ') + '; ' : ''}${printed.cut} code blocks cut off${printed.short.length ? `; ${printed.short.length} folded, not whole: ${printed.short.slice(0, 3).join(' ')}` : ''}${printed.unbroken.length ? '; chapters not on a new sheet: ' + printed.unbroken.join(' ') : ''}`);
  } else {
    pass(`browser: ${file} in print: no navigation, no code cut off${surveys.get(file).folds.long ? `, the ${surveys.get(file).folds.long} pieces folded on the screen whole` : ''}`);
  }
  // The page printed, to look at (BROWSER_PDF=1); it asserts nothing.
  if (process.env.BROWSER_PDF) {
    await page.pdf({ path: path.join(shotDir, `${base}.pdf`), format: 'A4', printBackground: true });
  }
}

// Each page is opened once, on the desktop, light; narrowed to 390 px;
// then wide again and turned dark (the system's colour scheme,
// emulated) and printed. Each width and theme gets every check it
// allows; the ids of each page are kept for the link check. What the
// reader does on a page, the same on every page, is checkActions's.
async function checkPage(book, file) {
  reportPage(book, file, await seePage(book, file));
}

// What a page shows, at each width and in the dark: the checks made in
// the page say so as they go, the findings the rest reads are returned.
async function seePage(book, file) {
  const { desktop, surveys } = book;
  const f = {
    loads: [], wide: [], shape: [], unshown: [], scrolling: [], charts: [], signs: [], broken: [],
    crowded: [], away: [], mathFace: [], mathLoose: [], cutTurns: [], foldsWrong: [],
    // The widths the page was seen at, as the pass lines say them.
    seen: [],
    chartCount: 0,
  };
  const { loads, shape, seen } = f;
  try {
    // One window: the desktop's, then narrowed to the phone's width (a
    // page's styles and pictures follow the width, and nothing in its
    // script reads the width when it loads), then wide again and dark.
    const { page, problems } = await open(desktop, file);
    for (const kind of ['desktop', 'phone']) {
      // The whole book's page is its chapters' pages under one outline:
      // the same elements in the same styles, each checked narrow and
      // for its CUDA words on its own page. It is held here to what is
      // its own at the desktop's width, in the dark and in print.
      if (kind === 'phone' && surveys.get(file).whole) break;
      seen.push(kind);
      await seeWidth(book, page, problems, file, kind, f);
    }
    // The same window wide in the dark, as the system's setting would
    // have it (the dark window's colour scheme, without loading it
    // again), then printed.
    await page.setViewportSize(kDesktop);
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkContrast(book, page, file, 'dark');
    if (surveys.get(file).toc) await darkAndPrint(book, page, file);
    for (const p of problems) {
      if (!loads.includes(p)) loads.push(p);
    }
    await done(page);
    const s = surveys.get(file);
    if (s.dups.length) shape.push(`ids used twice: ${[...new Set(s.dups)].slice(0, 3).join(', ')}`);
    if (s.headings.length) shape.push(`headings without a permalink: ${s.headings.slice(0, 3).join(', ')}`);
    if (s.chunks.length) shape.push(`chunks whose name is not their permalink: ${s.chunks.slice(0, 3).join(', ')}`);
    if (s.images.length) shape.push(`images that did not load: ${s.images.slice(0, 3).join(', ')}`);
    if (s.chapters === 0) shape.push('no table of contents in the navigation');

  } catch (e) {
    loads.push(String(e.message || e).split('\n')[0]);
  }
  return f;
}

// The page at one width (kind): its survey, what it fits, shows and
// scrolls, its charts as the width has them; on the desktop its contrast
// and its CUDA.
async function seeWidth(book, page, problems, file, kind, f) {
  const { sel, idsOf, surveys, chapterCount } = book;
  const { loads, wide, unshown, signs, cutTurns, foldsWrong, mathFace, mathLoose, crowded, away, broken, scrolling, charts } = f;
  if (kind === 'phone') {
    await page.setViewportSize(kPhone);
    await page.evaluate(() => window.scrollTo(0, 0));
    // The pictures the narrow width chooses, chosen and loaded (the
    // browser takes another source after a resize in its own time);
    // past the wait, the chart check below says which did not.
    await page.waitForFunction(() => [...document.querySelectorAll('picture')].every((p) => {
      const img = p.querySelector('img');
      const src = [...p.querySelectorAll('source')].find((x) => matchMedia(x.media).matches);
      const want = src ? new URL(src.srcset, document.baseURI).href : img.src;
      return img.complete && img.currentSrc === want;
    }), null, { timeout: 5000 }).catch(() => {});
  }
  const s = await page.evaluate(survey, sel);
  for (const p of problems) {
    if (!loads.includes(p)) loads.push(p);
  }
  if (kind === 'desktop') {
    idsOf.set(file, new Set(s.ids));
    surveys.set(file, s);
    chapterCount.push(s.chapters);
  }
  if (s.scrollWidth > s.width || s.wide.length) {
    wide.push(`${kind}: ${s.scrollWidth} px wide: ${s.wide.join(', ')}`);
  }
  if (s.unshown.length) unshown.push(`${kind}: ${s.unshown.slice(0, 3).join(', ')}`);
  if (s.signAlone.length) signs.push(`${kind}: ${s.signAlone.slice(0, 3).join(', ')}`);
  for (const c of s.turnsCut) cutTurns.push(`${kind}: ${c}`);
  for (const c of s.folds.wrong) foldsWrong.push(`${kind}: ${c}`);
  for (const c of s.maths.face) mathFace.push(`${kind}: ${c}`);
  for (const c of s.maths.loose) mathLoose.push(`${kind}: ${c}`);
  for (const c of s.argued.crowded) crowded.push(`${kind}: ${c}`);
  for (const c of s.argued.away) away.push(`${kind}: ${c}`);
  if (s.brokenNames.length) broken.push(`${kind}: ${s.brokenNames.slice(0, 3).join(', ')}`);
  scrolling.push(`${s.scrollers} at ${kind === 'phone' ? kPhone.width + ' px' : kind}`);
  const base = file.replace(/\.html$/, '');
  await shot(page, `${base}-${kind}.png`);
  // Each chart as the width has it: drawn narrow on the phone, wide
  // on the desktop (the picture's source, chart.c).
  const srcs = await page.evaluate((c) =>
    [...document.querySelectorAll(`main img${c}`)].map((i) => i.currentSrc), sel.chart);
  for (const src of srcs) {
    const narrow = /\.narrow\.svg$/.test(src);
    if (narrow !== (kind === 'phone')) charts.push(`${kind}: ${src.split('/').slice(-2).join('/')}`);
  }
  f.chartCount = srcs.length;
  // The evidence, to look at: the first chart, in the prose that
  // argues from it, and the first transcript.
  const chartFig = `main figure:has(img${sel.chart})`;
  if (kShots && await page.evaluate((f) => !!document.querySelector(f), chartFig)) {
    await page.evaluate((f) => document.querySelector(f).scrollIntoView(), chartFig);
    await shot(page, `${base}-${kind}-chart.png`);
    await page.evaluate((t) => {
      const pre = document.querySelector(`main pre${t}`);
      if (pre) pre.scrollIntoView();
    }, sel.transcript);
    await shot(page, `${base}-${kind}-transcript.png`);
  }
  if (kind === 'desktop') {
    await checkContrast(book, page, file, 'light');
    if (s.toc && !s.whole) await checkCuda(page, file);
  }
}

// Each finding of seePage, one pass or fail line each.
function reportPage(book, file, f) {
  const { surveys } = book;
  const { loads, wide, shape, unshown, scrolling, charts, signs, broken, crowded, away, mathFace, mathLoose,
    cutTurns, foldsWrong, seen, chartCount } = f;
  const name = `browser: ${file}`;
  const widths = () => seen.map((k) => (k === 'phone' ? `${kPhone.width} px` : k)).join(' and ');
  if (loads.length) fail(`${name} loads cleanly`, loads.slice(0, 3).join('; '));
  else pass(`${name} loads cleanly (${widths()}, light and dark: no console message, no failed load, nothing from the network)`);
  if (charts.length) fail(`${name} draws its charts for the width`, charts.slice(0, 3).join('; '));
  else if (chartCount) pass(`${name} draws its charts for the width (${chartCount}: ${seen.includes('phone') ? `narrow at ${kPhone.width} px, ` : ''}wide on the desktop)`);
  if (wide.length) fail(`${name} fits the window`, wide[0]);
  else pass(`${name} fits the window (${widths()})`);
  if (broken.length) fail(`${name} wraps its T4 tables' kernel names only between words`, `broken inside a word (|): ${broken.join('; ')}`);
  else if (surveys.get(file) && surveys.get(file).kernelNames) pass(`${name} wraps its T4 tables' kernel names only between words (${surveys.get(file).kernelNames}, ${widths()})`);
  if (foldsWrong.length) fail(`${name} folds its long chunks`, foldsWrong.slice(0, 3).join('; '));
  else if (surveys.get(file) && surveys.get(file).folds.long) pass(`${name} folds its long chunks (${surveys.get(file).folds.long} pieces over 40 lines, each to its first lines; ${widths()})`);
  if (cutTurns.length) fail(`${name} shows its page turns whole`, cutTurns.slice(0, 3).join('; '));
  else if (surveys.get(file) && surveys.get(file).turnsAbove) pass(`${name} shows its page turns whole (no link cut short; ${widths()})`);
  const mathCount = surveys.get(file) ? surveys.get(file).maths.count : 0;
  if (mathFace.length || mathLoose.length) {
    fail(`${name} sets its maths in the text's face`, [...mathFace.slice(0, 3), ...mathLoose.slice(0, 3)].join('; '));
  } else if (mathCount) {
    pass(`${name} sets its maths in the text's face (${mathCount} formulas: digits in the face around them, fences unspaced; ${widths()})`);
  }
  const nb = surveys.get(file) && surveys.get(file).notebook;
  if (nb) {
    const t4 = nb.archs.some((a) => a <= 75);
    const offers = /run it on a free T4/.test(nb.text);
    const unnamed = t4 ? [] : [...new Set(nb.archs)].filter((a) => !nb.text.includes(`sm_${a}`));
    if (offers !== t4 || unnamed.length) {
      fail(`${name} says what a T4 can do with its notebook`, `programs built for ${[...new Set(nb.archs)].map((a) => 'sm_' + a).join(', ')}; the page says: "${nb.text}"`);
    } else {
      pass(`${name} says what a T4 can do with its notebook (programs built for ${[...new Set(nb.archs)].map((a) => 'sm_' + a).join(', ')}: ${t4 ? 'run there' : 'named, not offered to run'})`);
    }
  }
  const argued = surveys.get(file) && surveys.get(file).argued;
  if (crowded.length || away.length) {
    fail(`${name} shows its numbers where it argues from them`, [
      crowded.length ? `sections quoting many values with no table or chart: ${crowded.slice(0, 3).join(', ')}` : '',
      away.length ? `charts away from the prose that argues from them: ${away.slice(0, 3).join(', ')}` : '',
    ].filter(Boolean).join('; '));
  } else if (argued && (argued.sections || argued.charts)) {
    pass(`${name} shows its numbers where it argues from them (charts: ${argued.charts}; sections quoting ${argued.most[0]} values a paragraph or ${argued.most[1]} in all: ${argued.sections}, each with a table or chart; ${widths()})`);
  }
  if (signs.length) fail(`${name} keeps each chunk's sign beside its name`, `on a line of its own: ${signs.join('; ')}`);
  else if (surveys.get(file) && surveys.get(file).signs) pass(`${name} keeps each chunk's sign beside its name (${widths()})`);
  if (unshown.length) fail(`${name} shows what scrolls`, unshown.join('; '));
  else pass(`${name} shows what scrolls (a shade at the edge and a scrollbar; scrolling sideways: ${scrolling.join(', ')})`);
  const s = surveys.get(file);
  if (s) {
    const starts = s.listStarts.filter((l) => !kKnownListStarts.some((k) =>
      k.page === file && k.start === l.start && l.text.startsWith(k.text)));
    const known = kKnownListStarts.filter((k) => k.page === file && s.listStarts.some((l) =>
      k.start === l.start && l.text.startsWith(k.text)));
    if (starts.length) {
      fail(`${name} lists start at 1`, starts.map((l) => `a list starting at ${l.start}: "${l.text}"`).join('; '));
    } else if (known.length) {
      console.log(`SKIP ${name} lists start at 1: known: ${known.map((k) => k.why).join('; ')}`);
    } else {
      pass(`${name} lists start at 1 (no <ol start> but at 1)`);
    }
  }
  if (s && s.toc && !s.whole) reportChapter(book, file, s);
  if (shape.length) fail(`${name} ids and permalinks`, shape.join('; '));
  else pass(`${name} ids and permalinks (unique ids, a permalink on every heading and chunk)`);
}

// What a chapter's page holds for the reader's actions, each page its
// own (acting on them, the same on every page, is checkActions's): where
// its quoted numbers and claims lead, its code's copy controls, and its
// labels' copy controls, shown, each with the bytes of its snippet file.
function reportChapter(book, file, s) {
  const name = `browser: ${file}`;
  const { leads, copies } = s;
  if (leads.wrong.length) fail(`${name} leads each quoted number and claim to where it comes from`, leads.wrong.slice(0, 3).join('; '));
  else if (leads.count) pass(`${name} leads each quoted number and claim to where it comes from (${leads.count}: a transcript's line or an entry)`);
  const why = [];
  if (!copies.heads) why.push('no chunk has a copy control');
  if (copies.boxes !== copies.lines) why.push(`${copies.lines - copies.boxes} of ${copies.lines} compile lines without a copy control`);
  if (why.length) fail(`${name} gives its code copy controls`, why.join('; '));
  else pass(`${name} gives its code copy controls (${copies.heads} chunk pieces, ${copies.lines} compile lines)`);
  const labels = `${name}'s labels' copy controls hold their snippet files`;
  if (copies.snippets.length === 0) {
    if (s.labels) fail(labels, `the page publishes ${s.labels} labels and has no copy control`);
    return;
  }
  const wrong = [];
  for (const b of copies.snippets) {
    const label = b.id.replace(/^snippet:/, '');
    const f = path.join(htmlDir, 'snippets', `${label}.cu`);
    if (!b.shown) wrong.push(`${label}: not shown`);
    else if (!fs.existsSync(f)) wrong.push(`${label}: no snippets/${label}.cu`);
    else if (b.text !== fs.readFileSync(f, 'utf8')) wrong.push(`${label}: ${b.text === null ? 'no text' : `${b.text.length} characters`}, the file has ${fs.statSync(f).size} bytes`);
  }
  if (wrong.length) fail(labels, wrong.slice(0, 3).join('; '));
  else pass(`${labels} (${copies.snippets.length}, each shown, its text the file's)`);
}

// The chapters' names: numbered all or none, and each the same in the
// contents, on its page and as the whole book's heading.
// And every page lists them all.
function checkChapterNames(book) {
  const { surveys, chapterCount } = book;
  const named = [...surveys.values()].find((x) => x.names.contents.length);
  const contents = named ? named.names.contents : [];
  const numbered = contents.filter((t) => /^(?:day|chapter|part)?\s*\d+\b/i.test(t));
  const differ = [];
  for (const [file, x] of surveys) {
    if (x.names.contents.join('\n') !== contents.join('\n')) differ.push(`${file}'s contents`);
    if (x.toc && !x.whole && x.names.title !== null) {
      const i = contents.indexOf(x.names.title);
      if (i < 0) differ.push(`${file}'s title "${x.names.title}" is not in the contents`);
    }
    if (x.whole && x.names.whole.join('\n') !== contents.join('\n')) differ.push(`${file}'s chapter headings`);
  }
  if (numbered.length && numbered.length !== contents.length) {
    fail('browser: chapter names', `${numbered.length} of ${contents.length} numbered: ${numbered.join('; ')}`);
  } else if (differ.length) {
    fail('browser: chapter names', `not as the contents name them: ${differ.slice(0, 3).join('; ')}`);
  } else if (contents.length) {
    pass(`browser: chapter names (${contents.length}, ${numbered.length ? 'all' : 'none'} numbered, the same in the contents, on their pages and in the whole book)`);
  }
  if (new Set(chapterCount).size > 1) {
    fail('browser: table of contents', `pages list different numbers of chapters: ${chapterCount.join(' ')}`);
  }
}

// Links and anchors, across pages; chunk references land on their chunk.
function checkLinks(book) {
  const { pages, surveys, idsIn } = book;
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
        const ids = idsIn(rel);
        if (!ids || !ids.has(frag)) broken.push(`${rel}#${frag}`);
      }
    }
    if (broken.length) fail(`browser: links on ${file}`, [...new Set(broken)].slice(0, 4).join(', '));
    else pass(`browser: links on ${file} (${s.links.length}, every file and anchor there)`);
    if (s.rawMarks.length) fail(`browser: no raw Markdown on ${file}`, s.rawMarks.slice(0, 3).join('; '));
    else pass(`browser: no raw Markdown on ${file} (no heading mark, {#, [[ or <<name>> outside code)`);
    if (s.noDownload.length) fail(`browser: source links on ${file} save the file`, `no download attribute: ${[...new Set(s.noDownload)].slice(0, 3).join(', ')}`);
    else if (s.sources) pass(`browser: source links on ${file} save the file (${s.sources}, each with a download attribute)`);
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
}

  // Every drawing's text inside its drawing: each figure (html/fig/) and
  // each chart, wide and narrow (html/charts/), opened by itself, every
  // text's box, in the drawing's own units, within its viewBox.
async function checkDrawings(book) {
  const drawings = [];
  for (const dir of ['fig', 'charts']) {
    const walk = (d) => {
      if (!fs.existsSync(path.join(htmlDir, d))) return;
      for (const e of fs.readdirSync(path.join(htmlDir, d), { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(d, e.name));
        else if (e.name.endsWith('.svg')) drawings.push(path.join(d, e.name));
      }
    };
    walk(dir);
  }
  await eachPage(drawings.sort(), (file) => checkDrawing(book, file));
}

async function checkDrawing(book, file) {
  const { desktop } = book;
  const name = `browser: ${file} keeps its text inside`;
  try {
    const { page } = await open(desktop, file);
    const r = await page.evaluate(drawingTexts);
    await done(page);
    if (r.out.length) fail(name, r.out.slice(0, 3).join('; '));
    else if (r.n === 0) fail(name, 'no text found');
    else pass(`${name} (${r.n} texts)`);
    if (r.crossed.length) fail(`browser: ${file} draws its reference lines under its texts`, `a dashed line over ${r.crossed.slice(0, 3).join(', ')}`);
    else if (r.n) pass(`browser: ${file} draws its reference lines under its texts`);
    if (r.over.length) fail(`browser: ${file} keeps its texts apart`, `run together or over each other: ${r.over.slice(0, 3).join('; ')}`);
    else if (r.n) pass(`browser: ${file} keeps its texts apart (${r.n} texts, none over another or run together)`);
  } catch (e) {
    fail(name, String(e.message || e).split('\n')[0]);
  }
}

// In a drawing opened by itself: its texts, each its box in the drawing's
// own units; those out of its viewBox, those over another or run together,
// and those a dashed reference line is drawn over.
function drawingTexts() {
  const svg = document.documentElement;
  const vb = svg.viewBox.baseVal;
  const toRoot = svg.getScreenCTM().inverse();
  const out = [], boxes = [], over = [];
  let n = 0;
  for (const t of svg.querySelectorAll('text')) {
    const b = t.getBBox();
    if (!b.width) continue;
    n++;
    const m = toRoot.multiply(t.getScreenCTM());
    const xs = [], ys = [];
    for (const [x, y] of [[b.x, b.y], [b.x + b.width, b.y + b.height]]) {
      const p = new DOMPoint(x, y).matrixTransform(m);
      xs.push(p.x); ys.push(p.y);
    }
    const [l, rt, tp, bt] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    boxes.push({ l, rt, tp, bt, text: t.textContent.trim().slice(0, 30) });
    if (l < vb.x - 1.5 || rt > vb.x + vb.width + 1.5 || tp < vb.y - 1.5 || bt > vb.y + vb.height + 1.5) {
      out.push(`"${t.textContent.trim().slice(0, 30)}" at ${l.toFixed(0)}..${rt.toFixed(0)}, ` +
        `${tp.toFixed(0)}..${bt.toFixed(0)} in ${vb.width} x ${vb.height}`);
    }
  }
  // No two texts over each other or run together on one line (an
  // axis's numbers do where it has too many): texts that share a
  // line are at least 0.3 of its height apart, about a blank. A
  // text's box is its font's, taller than its letters: lines set
  // close above each other share a sliver of it, a third of a
  // line is letters beside letters.
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      const line = Math.min(a.bt - a.tp, b.bt - b.tp);
      // gnuplot draws a boxed text twice in one place: its box
      // (an SVG filter under it), then the text.
      if (a.text === b.text && Math.abs(a.l - b.l) < 0.5 && Math.abs(a.tp - b.tp) < 0.5) continue;
      if (Math.min(a.bt, b.bt) - Math.max(a.tp, b.tp) > line / 3 &&
          Math.min(a.rt, b.rt) - Math.max(a.l, b.l) > -0.3 * line) {
        over.push(`"${a.text}" and "${b.text}"`);
      }
    }
  }
  // A reference's dashed line passes under the texts it crosses:
  // where it crosses one, what is drawn on top is not the line.
  const crossed = [];
  for (const line of svg.querySelectorAll('path[stroke-dasharray]')) {
    const m = line.getScreenCTM();
    const segs = [...line.getAttribute('d').matchAll(/M\s*([-\d.]+)[ ,]+([-\d.]+)\s*L\s*([-\d.]+)[ ,]+([-\d.]+)/g)]
      .map((g) => [new DOMPoint(+g[1], +g[2]).matrixTransform(m), new DOMPoint(+g[3], +g[4]).matrixTransform(m)]);
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBoundingClientRect();
      if (!b.width) continue;
      for (const [a, c] of segs) {
        const x = (a.x + c.x) / 2;
        if (Math.abs(a.x - c.x) > 0.5 || x < b.left || x > b.right) continue;
        // Along the text's height, a pixel at a time: a dash or a
        // gap of the line may be at any one point.
        for (let y = Math.max(b.top, Math.min(a.y, c.y)); y <= Math.min(b.bottom, Math.max(a.y, c.y)); y += 1) {
          if (document.elementFromPoint(x, y) === line) {
            crossed.push(`"${t.textContent.trim().slice(0, 20)}"`);
            break;
          }
        }
      }
    }
  }
  return { n, out, over, crossed };
}

// Opening the contents on a narrow screen and closing it again keeps
// the reader's place; following a link of the page's outline closes it.
async function checkContentsButton(book) {
  const { sel, pages, phone, tablet, isChapter } = book;
  const file = pages.find((f) => isChapter(f));
  for (const [ctx, size] of [[phone, kPhone], [tablet, kTablet]]) {
    const name = `browser: the contents at ${size.width} px keep the reader's place`;
    const { page } = await open(ctx, file);
    try {
      const y0 = await page.evaluate(() => {
        window.scrollTo(0, Math.floor(document.documentElement.scrollHeight / 2));
        return window.scrollY;
      });
      await page.click(`label${sel.navButton}`);
      await page.waitForTimeout(100);
      const opened = await page.evaluate((nav) => {
        const r = document.querySelector(nav).getBoundingClientRect();
        return { y: window.scrollY, seen: r.height > 0 && r.top < innerHeight && r.bottom > 0 };
      }, sel.bookNav);
      await shot(page, `${file.replace(/\.html$/, '')}-${size.width}-contents.png`);
      await page.click(`label${sel.navButton}`);
      await page.waitForTimeout(100);
      const y2 = await page.evaluate(() => window.scrollY);
      const closed = !(await page.isVisible(sel.bookNav));
      await page.click(`label${sel.navButton}`);
      const link = page.locator(`${sel.pageToc} a[href^="#"]`).nth(1);
      const hash = await link.getAttribute('href');
      await link.click();
      await page.waitForTimeout(100);
      const after = await page.evaluate((nav) => ({
        hash: location.hash, open: getComputedStyle(document.querySelector(nav)).display !== 'none',
      }), sel.bookNav);
      const why = [];
      if (!opened.seen) why.push('opened, the contents are not in view');
      if (opened.y !== y0) why.push(`opening moved the page from ${y0} to ${opened.y} px`);
      if (!closed) why.push('pressed again, the contents stay open');
      if (y2 !== y0) why.push(`closing left the page at ${y2} px, not ${y0}`);
      if (after.hash !== hash || after.open) why.push(`following ${hash} of the outline ${after.open ? 'left the contents open' : 'went to ' + after.hash}`);
      if (why.length) fail(name, why.join('; '));
      else pass(`${name} (${y0} px), and following the outline closes them`);
    } catch (e) {
      fail(name, String(e.message || e).split('\n')[0]);
    }
    await done(page);
  }
}

// The outline marks the section being read: scrolled to a heading of
// it (the second, the middle one, the last), its link and no other is
// aria-current="location", at both widths; above the first, none.
async function checkOutlineMark(book, ctx, kind) {
  const { sel, pages, isChapter } = book;
  const file = pages.find((f) => isChapter(f));
  const name = `browser: the outline marks the section being read (${kind})`;
  const { page } = await open(ctx, file);
  const why = [];
  try {
    const ids = await page.evaluate((toc) => [...document.querySelectorAll(`${toc} a[href^="#"]`)]
      .map((a) => decodeURIComponent(a.hash.slice(1))), sel.pageToc);
    const marked = () => page.evaluate((toc) => [...document.querySelectorAll(`${toc} a[aria-current="location"]`)]
      .map((a) => decodeURIComponent(a.hash.slice(1))), sel.pageToc);
    // The mark follows a scroll at the next frame, which a busy
    // machine may give late: each mark is waited for (up to 5 s), then
    // read.
    const settled = (want) => page.waitForFunction(([toc, w]) => {
      const m = [...document.querySelectorAll(`${toc} a[aria-current="location"]`)];
      if (w === null) {
        // The last heading may sit too low to reach the top quarter:
        // then the last that does.
        const reached = [...document.querySelectorAll(`${toc} a[href^="#"]`)]
          .map((a) => document.getElementById(decodeURIComponent(a.hash.slice(1))))
          .filter((h) => h && h.getBoundingClientRect().top <= innerHeight / 4);
        w = reached.length ? reached[reached.length - 1].id : null;
      }
      return m.length === 1 && decodeURIComponent(m[0].hash.slice(1)) === w;
    }, [sel.pageToc, want], { timeout: 5000 }).catch(() => {});
    for (const id of [ids[1], ids[Math.floor(ids.length / 2)], ids[ids.length - 1]]) {
      await page.evaluate((h) => {
        const e = document.getElementById(h);
        window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 10);
      }, id);
      await settled(id === ids[ids.length - 1] ? null : id);
      const m = await marked();
      // The last heading may sit too low to reach the top: then the one
      // marked is the last that does.
      if (m.length !== 1 || (m[0] !== id && id !== ids[ids.length - 1])) why.push(`at #${id}: marked ${m.join(' ') || 'none'}`);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(([toc, first]) => [...document.querySelectorAll(`${toc} a[aria-current="location"]`)]
      .every((a) => decodeURIComponent(a.hash.slice(1)) === first), [sel.pageToc, ids[0]], { timeout: 5000 }).catch(() => {});
    const top = await marked();
    if (top.length > 1 || (top.length === 1 && top[0] !== ids[0])) why.push(`at the top: marked ${top.join(' ')}`);
  } catch (e) {
    why.push(String(e.message || e).split('\n')[0]);
  }
  await done(page);
  if (why.length) fail(name, why.join('; '));
  else pass(`${name} on ${file}`);
}

// Landing on a label (a lesson's link, CHAPTER.html#LABEL): its chunk
// comes below the top by a fifth of the window or more, with the end of
// the prose before it in view, and every piece of it is outlined and
// open. The label with the most pieces on the first chapter page that
// has one, and (folded) the first label folded at load, on the first
// chapter page that has one: landing there opens it.
async function checkLanding(book, ctx, kind, folded) {
  const { sel, pages, surveys, isChapter } = book;
  const name = `browser: landing on a ${folded ? 'folded ' : ''}label (${kind})`;
  const file = pages.find((f) => isChapter(f) && (folded ? surveys.get(f).folds.labelled : surveys.get(f).labels));
  if (!file) return lacking(name, `a chapter with a ${folded ? 'folded ' : ''}label`);
  const { page } = await open(ctx, file);
  const why = [];
  let label = null;
  try {
    label = await page.evaluate(([texts, chunk, folded]) => {
      let best = null, most = 0;
      for (const t of document.querySelectorAll(`template${texts}`)) {
        const id = t.id.replace(/^snippet:/, '');
        if (folded) {
          if (document.getElementById(id).hasAttribute('data-folded')) return id;
          continue;
        }
        const pieces = [...document.querySelectorAll(`div${chunk}[id]`)]
          .filter((c) => c.id === id || new RegExp(`^${id}-[0-9]+$`).test(c.id)).length;
        if (pieces > most) { best = id; most = pieces; }
      }
      return best;
    }, [sel.snippetText, sel.chunk, !!folded]);
    if (!label) throw new Error(folded ? 'no label folded at load' : 'no label');
    await page.goto(`${pathToFileURL(path.join(htmlDir, file)).href}#${label}`, { waitUntil: 'load', timeout: kLoadTimeout });
    await page.waitForTimeout(100);
    const r = await page.evaluate(([id, topBar, chunk, head, next]) => {
      const c = document.getElementById(id);
      const bar = document.querySelector(topBar);
      const barH = bar && getComputedStyle(bar).display !== 'none' ? bar.getBoundingClientRect().height : 0;
      const before = c.previousElementSibling;
      const pieces = [c];
      for (let p = c; p;) {
        const a = p.querySelector(`${head} ${next}`);
        p = a && document.getElementById(decodeURIComponent(a.hash.slice(1)));
        if (p && p.matches(`div${chunk}`)) pieces.push(p); else break;
      }
      return {
        top: c.getBoundingClientRect().top - barH, h: innerHeight - barH,
        before: before ? before.getBoundingClientRect().bottom - barH : null,
        unmarked: pieces.filter((p) => getComputedStyle(p).boxShadow === 'none').map((p) => p.id),
        folded: pieces.filter((p) => {
          const box = p.querySelector(':scope > div.sourceCode');
          return p.hasAttribute('data-folded') || (box && box.scrollHeight > box.clientHeight + 1);
        }).map((p) => p.id),
        pieces: pieces.length,
      };
    }, [label, sel.topBar, sel.chunk, sel.chunkHead, sel.chunkNext]);
    if (r.top < r.h / 5 - 2 || r.top > r.h / 2) why.push(`the chunk is ${Math.round(r.top)} px below the top, of ${r.h}`);
    if (r.before !== null && r.before <= 0) why.push('the prose before it is off screen');
    if (r.unmarked.length) why.push(`${r.unmarked.length} of its ${r.pieces} pieces not outlined: ${r.unmarked.slice(0, 3).join(' ')}`);
    if (r.folded.length) why.push(`${r.folded.length} of its ${r.pieces} pieces left folded: ${r.folded.slice(0, 3).join(' ')}`);
  } catch (e) {
    why.push(String(e.message || e).split('\n')[0]);
  }
  await done(page);
  if (why.length) fail(name, `${file}#${label}: ${why.join('; ')}`);
  else pass(`${name}: ${file}#${label}, below the top by a fifth of the window or more, the prose before it in view, every piece outlined${folded ? ' and open' : ''}`);
}

// The colours' switch: dark chosen on a light system, the page dark
// (text at full contrast, a chart turned over) and dark again from the
// first frame of the next page opened (the body is made with the root
// already dark, no flash of light); then as the system has them, light
// again; and light chosen on a dark system, its text at full contrast
// (no dark rule that ignores the choice) and its chart as drawn; and at
// the phone's width, the switch in sight in the opened contents, dark
// when chosen there. The choice is kept in localStorage, which file://
// pages share.
async function checkThemeSwitch(book) {
  const { sel, pages, surveys, isChapter, desktop, dark, phone } = book;
  const name = 'browser: the colours\' switch';
  const file = pages.find((f) => isChapter(f) && surveys.get(f).argued.charts);
  if (!file) return lacking(name, 'a chapter with a chart');
  const why = [];
  const state = (x) => x.evaluate(([sw, chartSel]) => {
    const bg = getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number);
    const chart = document.querySelector(`img${chartSel}`);
    return {
      dark: bg[0] + bg[1] + bg[2] < 3 * 128,
      shown: !!document.querySelector(sw) && !document.querySelector(sw).hidden,
      chart: chart ? getComputedStyle(chart).filter !== 'none' : null,
    };
  }, [sel.themeSwitch, sel.chart]);
  const pages2 = [];
  // The next page, which runs a script of its own first: closed, not kept.
  let next = null;
  try {
    const { page, problems } = await open(desktop, file);
    pages2.push(page);
    let st = await state(page);
    if (!st.shown) why.push('no switch shown');
    if (st.dark) why.push('dark before any choice on a light system');
    await page.selectOption(`${sel.themeSwitch} select`, 'dark');
    st = await state(page);
    if (!st.dark) why.push('not dark once dark was chosen');
    if (st.chart === false) why.push('its chart not turned over in the dark');
    await checkContrast(book, page, file, 'dark, chosen');
    // The next page, dark from its first frame.
    next = await desktop.newPage();
    pages2.push(next);
    await next.addInitScript(() => {
      new MutationObserver((_, o) => {
        if (document.body) {
          window.themeAtBody = document.documentElement.getAttribute('data-theme');
          o.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await next.goto(pathToFileURL(path.join(htmlDir, file)).href, { waitUntil: 'load', timeout: kLoadTimeout });
    const atBody = await next.evaluate(() => window.themeAtBody);
    if (atBody !== 'dark') why.push(`the next page's body made with the root's theme ${atBody}, not dark`);
    if (!(await state(next)).dark) why.push('the next page not dark');
    await next.selectOption(`${sel.themeSwitch} select`, '');
    if ((await state(next)).dark) why.push('still dark once the system\'s (light) was chosen');
    const kept = await next.evaluate(() => Object.keys(localStorage).filter((k) => /theme/.test(k)));
    if (kept.length) why.push(`${kept.join(', ')} left in localStorage once the system's was chosen`);
    // Light chosen on a dark system.
    const d = await open(dark, file);
    pages2.push(d.page);
    if (!(await state(d.page)).dark) why.push('not dark on a dark system');
    await d.page.selectOption(`${sel.themeSwitch} select`, 'light');
    st = await state(d.page);
    if (st.dark) why.push('dark on a dark system once light was chosen');
    if (st.chart === true) why.push('its chart still turned over once light was chosen');
    await checkContrast(book, d.page, file, 'light, chosen on a dark system');
    // At the phone's width, in the navigation behind the Contents button.
    const p = await open(phone, file);
    pages2.push(p.page);
    await p.page.click(`label${sel.navButton}`);
    const reach = await p.page.evaluate((sw) => {
      const s = document.querySelector(`${sw} select`);
      const r = s && s.getBoundingClientRect();
      return !!r && r.width > 0 && r.height > 0 && r.right <= innerWidth && r.bottom <= innerHeight && r.top >= 0;
    }, sel.themeSwitch);
    if (!reach) why.push(`no switch in sight at ${kPhone.width} px once the contents are open`);
    else {
      await p.page.selectOption(`${sel.themeSwitch} select`, 'dark');
      if (!(await state(p.page)).dark) why.push(`not dark once dark was chosen at ${kPhone.width} px`);
      await p.page.selectOption(`${sel.themeSwitch} select`, '');
    }
    for (const q of [...problems, ...d.problems, ...p.problems]) why.push(q);
  } catch (e) {
    why.push(String(e.message || e).split('\n')[0]);
  }
  for (const p of pages2) await (p === next ? p.close() : done(p));
  if (why.length) fail(name, `${file}: ${why.join('; ')}`);
  else pass(`${name} on ${file}: dark chosen on a light system (its chart turned over), kept for the next page from its first frame, the system's again, light chosen on a dark system (at full contrast, its chart as drawn), dark chosen at ${kPhone.width} px in the contents`);
}

// The previous and next chapter above the text as well as below it, the
// front page's next the first chapter, and the arrow keys to go there
// (not from a text field).
async function checkPageTurns(book) {
  const { sel, pages, surveys, isChapter, desktop } = book;
  const name = 'browser: previous and next chapter, above the text and by the arrow keys';
  const why = [];
  const chapters = pages.filter((f) => isChapter(f));
  const order = await (async () => {
    const { page } = await open(desktop, 'index.html');
    const r = await page.evaluate(([nav, list]) => ({
      chapters: [...document.querySelectorAll(`${nav} ${list} li a`)].map((a) => a.getAttribute('href')),
      next: (document.querySelector('main a[rel~="next"]') || {}).href || null,
    }), [sel.bookNav, sel.bookChapters]);
    await done(page);
    return r;
  })();
  if (!order.next || !order.next.endsWith('/' + order.chapters[0])) {
    why.push(`the front page's next is ${order.next}, not ${order.chapters[0]}`);
  }
  for (const file of chapters) {
    const top = surveys.get(file).turnsAbove; // as the desktop window had it
    const i = order.chapters.indexOf(file);
    const want = [i > 0 ? 'prev' : null, i < order.chapters.length - 1 ? 'next' : null].filter(Boolean).sort().join(' ');
    if (top !== want) why.push(`${file}: above the title "${top}", not "${want}"`);
  }
  const file = order.chapters[1] || order.chapters[0];
  const { page } = await open(desktop, file);
  try {
    await page.fill(`${sel.search} input[type="search"]`, 'x');
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(300);
    if (!page.url().endsWith('/' + file)) why.push(`ArrowRight in the search box left the page for ${page.url()}`);
    await page.evaluate(() => document.activeElement.blur());
    for (const [key, to] of [['ArrowRight', order.chapters[order.chapters.indexOf(file) + 1]],
      ['ArrowLeft', file]]) {
      if (!to) continue;
      await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/' + to), { timeout: kLoadTimeout }),
        page.keyboard.press(key)]);
    }
  } catch (e) {
    why.push(`the arrow keys: ${String(e.message || e).split('\n')[0]}`);
  }
  await done(page);
  if (why.length) fail(name, why.join('; '));
  else pass(`${name} (${chapters.length} chapters; the front page's next is ${order.chapters[0]})`);
}

// The first search, from the front page: the index loading said, and a
// chunk found.
async function checkFirstSearch(book) {
  const { sel, desktop, searchBox, resultLinks, idsIn } = book;
  const { page, problems } = await open(desktop, 'index.html');
  const name = 'browser: search finds a chunk';
  try {
    // The first search builds the index: until its results, the
    // status says what is happening, the form aria-busy. Every change
    // of the status before the results is kept with the form's state
    // then (a change is seen however fast the build, so the check does
    // not depend on how long the index takes to build).
    await page.evaluate(([status, results, form]) => {
      window.seenStatus = [];
      const st = document.querySelector(status), list = document.querySelector(results);
      new MutationObserver(() => {
        if (!list.children.length) {
          window.seenStatus.push({ text: st.textContent, busy: document.querySelector(form).getAttribute('aria-busy') });
        }
      }).observe(st, { childList: true, characterData: true, subtree: true });
    }, [sel.searchStatus, sel.searchResults, sel.search]);
    await page.fill(searchBox, 'blelloch sweeps');
    await page.waitForSelector(resultLinks, { timeout: kSearchTimeout });
    const seen = await page.evaluate(() => window.seenStatus);
    const said = seen.map((x) => x.text).filter(Boolean);
    const loading = seen.find((x) => x.text && x.busy === 'true');
    if (!loading) {
      fail('browser: the first search says it is loading', `before its results the status said ${said.length ? said.map((t) => `"${t}"`).join(', ') : 'nothing'}, and the form was never aria-busy with it`);
    } else {
      pass(`browser: the first search says it is loading ("${loading.text}", aria-busy, until its results; said before them: ${[...new Set(said)].join(' / ')})`);
    }
    const results = await page.$$eval(resultLinks, (as) => as.map((a) => a.href));
    await shot(page, 'search-desktop.png');
    const first = new URL(results[0]);
    const file = path.relative(htmlDir, fileURLToPath(first.href.split('#')[0]));
    const ids = idsIn(file);
    const frag = decodeURIComponent(first.hash.slice(1));
    if (problems.length) fail(name, problems[0]);
    else if (!ids || (frag && !ids.has(frag))) fail(name, `the first result ${file}#${frag} is not on the page`);
    else pass(`${name}: ${results.length} results for "blelloch sweeps", the first ${file}#${frag}`);
  } catch (e) {
    fail(name, problems[0] || String(e.message || e).split('\n')[0]);
  }
  await done(page);
}

// The navigation, behind its button at the phone's width, and search
// from there.
async function checkPhoneNavigation(book) {
  const { sel, phone, searchBox, resultLinks } = book;
  const { page, problems } = await open(phone, 'index.html');
  const name = `browser: the navigation opens at ${kPhone.width} px`;
  try {
    const before = await page.isVisible(sel.bookNav);
    await page.click(`label${sel.navButton}`);
    const after = await page.isVisible(sel.bookNav);
    await page.fill(searchBox, 'cudaMemPrefetchAsync');
    await page.waitForSelector(resultLinks, { timeout: kSearchTimeout });
    await shot(page, 'search-phone.png');
    if (before || !after) fail(name, before ? 'shown before the button is pressed' : 'not shown after');
    else if (problems.length) fail(name, problems[0]);
    else pass(`${name}, and search works there`);
  } catch (e) {
    fail(name, problems[0] || String(e.message || e).split('\n')[0]);
  }
  await done(page);
}

// chunks.html: a heading per chapter, in the book's order, each chunk's
// entry under its own chapter's (its id CHAPTER--ANCHOR), and under each
// heading the chunks' initials, each leading to the first chunk of its
// letter in that chapter, in view.
async function checkChunksIndex(book) {
  const { sel, desktop } = book;
  const name = 'browser: chunks.html by chapter, with a jump to each letter';
  const { page, problems } = await open(desktop, 'chunks.html');
  const why = [];
  try {
    const r = await page.evaluate(([nav, list, entry, entryName, letters]) => {
      const chapters = [...document.querySelectorAll(`${nav} ${list} li a`)].map((a) => a.getAttribute('href').replace(/\.html$/, ''));
      const heads = [...document.querySelectorAll('main h1[id]')].map((h) => h.id);
      const misplaced = [];
      let under = null;
      for (const e of document.querySelectorAll(`main h1[id], main ${entry}`)) {
        if (e.tagName === 'H1') { under = e.id; continue; }
        if (!under || !e.id.startsWith(under + '--')) misplaced.push(`${e.id} under ${under}`);
      }
      const initial = (e) => (e.querySelector(entryName).textContent.replace(/[^\p{L}\p{N}]/gu, '')[0] || '').toUpperCase();
      const jumps = [...document.querySelectorAll(`main ${letters} a`)].map((a) => {
        const t = document.getElementById(decodeURIComponent(a.hash.slice(1)));
        const ch = t && t.id.split('--')[0];
        const firstOfLetter = [...document.querySelectorAll(`main ${entry}`)]
          .find((e) => e.id.startsWith(ch + '--') && initial(e) === a.textContent);
        return { letter: a.textContent, to: a.hash, ok: !!t && firstOfLetter === t };
      });
      return { chapters, heads, misplaced, jumps, entries: document.querySelectorAll(`main ${entry}`).length };
    }, [sel.bookNav, sel.bookChapters, sel.chunkEntry, sel.entryName, sel.letters]);
    if (r.heads.join(' ') !== r.chapters.join(' ')) why.push(`headings ${r.heads.join(' ')}, not the chapters ${r.chapters.join(' ')}`);
    if (r.misplaced.length) why.push(`${r.misplaced.length} entries under another chapter: ${r.misplaced.slice(0, 3).join(', ')}`);
    const bad = r.jumps.filter((j) => !j.ok);
    if (r.jumps.length < r.chapters.length) why.push(`${r.jumps.length} letters for ${r.chapters.length} chapters`);
    if (bad.length) why.push(`letters not to the first chunk of theirs: ${bad.slice(0, 3).map((j) => `${j.letter} ${j.to}`).join(', ')}`);
    const jump = page.locator(`main ${sel.letters} a`).nth(Math.floor(r.jumps.length / 2));
    const to = decodeURIComponent((await jump.getAttribute('href')).slice(1));
    await jump.click();
    await page.waitForTimeout(100);
    const top = await page.evaluate((id) => document.getElementById(id).getBoundingClientRect().top, to);
    if (top < 0 || top > kDesktop.height / 2) why.push(`following ${to} left it at ${Math.round(top)} px`);
    if (problems.length) why.push(problems[0]);
    if (why.length) fail(name, why.join('; '));
    else pass(`${name}: ${r.entries} chunks under ${r.heads.length} chapters, ${r.jumps.length} letters`);
  } catch (e) {
    fail(name, problems[0] || String(e.message || e).split('\n')[0]);
  }
  await done(page);
}

// What search finds, in the desktop window: a word with '_' and its
// parts, a flag with its dashes and '=', a CUDA call, and maths, which
// the index holds as its TeX read as text ("\log_2" as "log_2"; the
// rendered form's text runs together, "n log2 n" as "nlog2n"). Each
// search must list every result (through "Show all N" where there are
// more than a screenful), each with a
// match marked that is a whole word and no punctuation; and every text
// of the index with the word written out must be among them.
const kSearches = [
  { q: 'sm_75', has: ['sm_75'] },
  { q: '-arch=sm_75', has: ['-arch=sm_75'] },
  { q: 'syncthreads', has: ['__syncthreads'] },
  { q: '__syncthreads', has: ['__syncthreads'] },
  { q: 'cudaMemcpyAsync', has: ['cudaMemcpyAsync'] },
  { q: 'memcpyasync', has: ['cudaMemcpyAsync'] },
  { q: 'log_2', has: ['log_2'] },
  { q: 'nlog2n', has: [] },
];
// Searches for q from the box, with every result shown, and returns
// what the results list says.
async function searchAll(book, page, q) {
  const { sel, searchBox, resultLinks } = book;
  await page.fill(searchBox, '');
  await page.fill(searchBox, q);
  // Done when the status says something and the index is not still
  // loading: the first search's status says "loading" before its results.
  await page.waitForFunction(() => document.getElementById('search-status').textContent !== ''
    && !document.getElementById('search').hasAttribute('aria-busy'), null, { timeout: kSearchTimeout });
  const more = page.locator(`${sel.searchResults} ${sel.searchMore}`);
  if (await more.count()) await more.click();
  return page.evaluate(([links, results]) => ({
    status: document.getElementById('search-status').textContent,
    hrefs: [...document.querySelectorAll(links)].map((a) => a.href),
    marks: [...document.querySelectorAll(`${results} mark`)].map((m) => m.textContent),
    unmarked: [...document.querySelectorAll(`${results} li`)].filter((li) => li.querySelector('a') && !li.querySelector('mark')).length,
    // Entries alike (one title, one text), which are to be one.
    alike: (() => {
      const seen = new Set(), twice = [];
      for (const li of document.querySelectorAll(`${results} li`)) {
        const title = li.querySelector('a > span:first-child'), text = li.querySelector('a + span');
        if (!title || !text) continue;
        const key = `${title.textContent}|${text.textContent}`;
        if (seen.has(key)) twice.push(key.slice(0, 40)); else seen.add(key);
      }
      return twice;
    })(),
  }), [resultLinks, sel.searchResults]);
}

// Each of kSearches from the front page: every place found, the words
// marked, no entry twice.
async function checkSearches(book) {
  const { desktop } = book;
  const { page, problems } = await open(desktop, 'index.html');
  for (const s of kSearches) {
    const name = `browser: search "${s.q}" finds every place`;
    try {
      const r = await searchAll(book, page, s.q);
      const want = await page.evaluate((has) => {
        const esc = (w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const res = has.map((h) => new RegExp(`(^|[^\\p{L}\\p{N}_])${esc(h)}([^\\p{L}\\p{N}_]|$)`, 'u'));
        return window.BOOK_INDEX.docs.filter((d) => res.some((re) => re.test(`${d.t} ${d.b}`))).map((d) => d.u);
      }, s.has);
      const got = new Set(r.hrefs.map((h) => { const u = new URL(h); return u.pathname.split('/').pop() + u.hash; }));
      const missed = want.filter((u) => !got.has(decodeURI(u)) && !got.has(u));
      const why = [];
      if (s.has.length && want.length === 0) why.push(`the index holds no ${s.has.join(' ')}`);
      if (!s.has.length && r.hrefs.length) why.push(`${r.hrefs.length} results, where the book has no such word (${r.marks.slice(0, 3).join(' ')})`);
      if (missed.length) why.push(`${missed.length} of the ${want.length} places missed (${missed.slice(0, 3).join(', ')}); "${r.status}"`);
      if (r.hrefs.length && !/^\d+ match/.test(r.status)) why.push(`"${r.status}" with every result shown`);
      const bad = r.marks.filter((m) => !/^[\p{L}\p{N}_]+$/u.test(m));
      if (bad.length) why.push(`marked not as words: ${bad.slice(0, 3).map((m) => JSON.stringify(m)).join(' ')}`);
      if (r.unmarked) why.push(`${r.unmarked} results with no match marked`);
      if (r.alike.length) why.push(`results alike, one title and one text, not one entry: ${r.alike.slice(0, 2).join('; ')}`);
      if (problems.length) why.push(problems[0]);
      if (why.length) fail(name, why.join('; '));
      else pass(`${name}: ${r.hrefs.length} results, ${want.length} with ${s.has.join(' ') || 'nothing'} written out, ${new Set(r.marks).size} words marked`);
    } catch (e) {
      fail(name, problems[0] || String(e.message || e).split('\n')[0]);
    }
  }
  await done(page);
}

// Every text the book's search index holds, which the excerpts are cut
// from, for the TeX commands of the book's maths (those on the pages
// checked): maths is shown as text, "w mod 32" where its source says
// "w \bmod 32". A search loads the index.
async function checkIndexMaths(book) {
  const { desktop, surveys } = book;
  const { page } = await open(desktop, 'index.html');
  await searchAll(book, page, 'scan');
  const commands = [...new Set([...surveys.values()].flatMap((v) => v.maths.commands))];
  const tex = await page.evaluate((commands) => {
    const esc = (w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const re = new RegExp(`(${commands.map(esc).join('|')})(?![A-Za-z])`);
    const found = [];
    for (const d of window.BOOK_INDEX.docs) {
      const m = re.exec(`${d.t} ${d.b}`);
      if (m) found.push(`${d.u}: ${`${d.t} ${d.b}`.slice(Math.max(0, m.index - 12), m.index + 20)}`);
    }
    return { found, docs: window.BOOK_INDEX.docs.length };
  }, commands);
  const name = 'browser: search\'s excerpts show maths as text';
  if (!commands.length) fail(name, 'no TeX command in the maths of the pages checked');
  else if (tex.found.length) fail(name, `${tex.found.length} texts of the index with TeX (${commands.length} commands): ${tex.found.slice(0, 3).join('; ')}`);
  else pass(`${name}: none of the ${commands.length} TeX commands of the book's maths (${commands.slice(0, 4).join(' ')} ...) in the ${tex.docs} texts of the index`);
  await done(page);
}

// Without scripts a long chunk is shown whole: the fold is search.js's,
// so a reader who runs none reads all of it, at both widths. The first
// chapter page with a fold, in a window that runs no script.
async function checkFoldsWithoutScript(book) {
  const { sel, pages, surveys, isChapter, browser } = book;
  const name = 'browser: without scripts the long chunks are whole';
  const file = pages.find((f) => isChapter(f) && surveys.get(f).folds.long);
  if (!file) return lacking(name, 'a chapter with a folded chunk');
  const ctx = await browser.newContext({ viewport: kDesktop, colorScheme: 'light', javaScriptEnabled: false });
  const why = [];
  let long = 0;
  try {
    const { page, problems } = await open(ctx, file);
    for (const [size, kind] of [[kDesktop, 'desktop'], [kPhone, 'phone']]) {
      await page.setViewportSize(size);
      const r = await page.evaluate((chunk) => {
        const cut = [];
        let n = 0;
        for (const c of document.querySelectorAll(`div${chunk}`)) {
          const box = c.querySelector(':scope > div.sourceCode');
          const code = box && box.querySelector('pre code');
          if (!code || code.querySelectorAll(':scope > span').length <= 40) continue;
          n++;
          if (box.scrollHeight > box.clientHeight + 1) cut.push(`#${c.id} shows ${box.clientHeight} px of ${box.scrollHeight}`);
        }
        return { n, cut };
      }, sel.chunk);
      long = r.n;
      for (const c of r.cut) why.push(`${kind}: ${c}`);
    }
    for (const q of problems) why.push(q);
    await done(page);
  } catch (e) {
    why.push(String(e.message || e).split('\n')[0]);
  }
  await ctx.close();
  if (why.length) fail(name, `${file}: ${why.slice(0, 3).join('; ')}`);
  else pass(`${name}: ${file}, its ${long} pieces over 40 lines shown whole (desktop and ${kPhone.width} px)`);
}

// A search landing in a long chunk past its fold opens it: a word of
// its next-to-last line that no earlier line of the chunk has, searched
// from the chunk's place (?q=WORD#CHUNK, as a result opens it), is
// marked and in sight.
async function checkSearchInFold(book) {
  const { sel, pages, surveys, isChapter, desktop } = book;
  const name = 'browser: a search landing past a chunk\'s fold opens it';
  const file = pages.find((f) => isChapter(f) && surveys.get(f).folds.long);
  if (!file) return lacking(name, 'a chapter with a folded chunk');
  const { page, problems } = await open(desktop, file);
  const why = [];
  let at = null;
  try {
    at = await page.evaluate(() => {
      for (const c of document.querySelectorAll('div[data-folded]')) {
        const lines = [...c.querySelectorAll(':scope > div.sourceCode pre code > span')].map((l) => l.textContent);
        const words = (t) => t.match(/[A-Za-z][A-Za-z0-9_]{3,}/g) || [];
        const before = new Set(lines.slice(0, -2).flatMap(words));
        const w = words(lines[lines.length - 2]).find((x) => !before.has(x));
        if (w) return { id: c.id, word: w };
      }
      return null;
    });
    if (!at) throw new Error('no folded chunk with a word of its own past the fold');
    await page.goto(`${pathToFileURL(path.join(htmlDir, file)).href}?q=${encodeURIComponent(at.word)}#${at.id}`,
      { waitUntil: 'load', timeout: kLoadTimeout });
    await page.waitForSelector(`main ${sel.searchHit}`, { timeout: kSearchTimeout });
    await page.waitForTimeout(200);
    const r = await page.evaluate(([id, hit]) => {
      const c = document.getElementById(id);
      const m = c.querySelector(hit);
      const box = c.querySelector(':scope > div.sourceCode');
      const rect = m && m.getBoundingClientRect();
      const top = rect && document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      return { folded: c.hasAttribute('data-folded') || box.scrollHeight > box.clientHeight + 1, seen: !!top && m.contains(top) };
    }, [at.id, sel.searchHit]);
    if (r.folded) why.push('the chunk stayed folded');
    if (!r.seen) why.push('the mark is not in sight');
    if (problems.length) why.push(problems[0]);
  } catch (e) {
    why.push(String(e.message || e).split('\n')[0]);
  }
  await done(page);
  if (why.length) fail(name, `${file}${at ? `?q=${at.word}#${at.id}` : ''}: ${why.join('; ')}`);
  else pass(`${name}: ${file}?q=${at.word}#${at.id}, the chunk open and the mark in sight`);
}

// The page a result opens marks the words searched, in both themes at
// full contrast, and the one at the result's place is in view.
async function checkResultOpens(book, ctx, kind) {
  const { sel, resultLinks } = book;
  const name = `browser: a result opens with the words marked (${kind})`;
  const { page, problems } = await open(ctx, 'index.html');
  try {
    if (kind === 'phone') await page.click(`label${sel.navButton}`);
    const r = await searchAll(book, page, 'sm_75');
    const pick = r.hrefs.findIndex((h) => new URL(h).hash);
    if (pick < 0) throw new Error(`none of the ${r.hrefs.length} results leads to a place in a page (the status said "${r.status}")`);
    const href = r.hrefs[pick];
    await Promise.all([page.waitForURL((u) => u.href === href, { timeout: kLoadTimeout }),
      page.locator(resultLinks).nth(pick).click()]);
    await page.waitForSelector(`main ${sel.searchHit}`, { timeout: kSearchTimeout });
    await page.waitForTimeout(200);
    const seen = await page.evaluate(([hit, topBar]) => {
      const marks = [...document.querySelectorAll(`main ${hit}`)];
      const bar = document.querySelector(topBar);
      const barH = bar && getComputedStyle(bar).display !== 'none' ? bar.getBoundingClientRect().height : 0;
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      const at = marks.find((m) => target && (target.contains(m) || (target.compareDocumentPosition(m) & Node.DOCUMENT_POSITION_FOLLOWING)));
      const rect = at && at.getBoundingClientRect();
      return {
        n: marks.length, texts: [...new Set(marks.map((m) => m.textContent))],
        inView: !!rect && rect.top >= barH && rect.bottom <= innerHeight,
        // A code box it is in left at the start of its lines.
        sideways: [...document.querySelectorAll('main pre, main div.sourceCode')].filter((e) => e.scrollLeft > 0).length,
        box: document.getElementById('search-box').value,
      };
    }, [sel.searchHit, sel.topBar]);
    const c = await page.evaluate(contrast, kMinContrast);
    await shot(page, `search-landed-${kind}.png`);
    const why = [];
    if (seen.texts.some((t) => t.toLowerCase() !== 'sm_75')) why.push(`marked: ${seen.texts.join(' ')}`);
    if (!seen.inView) why.push(`the mark at ${new URL(href).hash} is not in view (${seen.n} marks)`);
    if (seen.sideways) why.push(`${seen.sideways} code boxes scrolled sideways, the start of their lines hidden`);
    if (seen.box !== 'sm_75') why.push(`the box holds "${seen.box}"`);
    if (c.low.length) why.push(`contrast: ${c.low.slice(0, 2).join('; ')}`);
    if (problems.length) why.push(problems[0]);
    if (why.length) fail(name, why.join('; '));
    else pass(`${name}: ${seen.n} marks of sm_75, the one at ${new URL(href).hash} in view, the lowest contrast ${c.lowest.toFixed(2)}:1`);
  } catch (e) {
    fail(name, problems[0] || String(e.message || e).split('\n')[0]);
  }
  await done(page);
}

// The keyboard: '/' and 's' go to the box (not while typing in it), the
// down and up arrows through the results, Enter opens one.
async function checkSearchKeys(book, ctx, kind) {
  const { pages, isChapter, searchBox, resultLinks } = book;
  const name = `browser: search by the keyboard (${kind})`;
  const { page, problems } = await open(ctx, pages.find((f) => isChapter(f)));
  const focused = () => page.evaluate(() => {
    const e = document.activeElement;
    return e.id || (e.tagName === 'A' ? e.getAttribute('href') : e.tagName);
  });
  const why = [];
  try {
    for (const key of ['/', 's']) {
      await page.evaluate(() => document.activeElement.blur());
      await page.keyboard.press(key);
      if ((await focused()) !== 'search-box') why.push(`"${key}" left the focus on ${await focused()}`);
      else if (!(await page.isVisible(searchBox))) why.push(`"${key}" focused a box not in view`);
    }
    await page.keyboard.type('scan');
    if ((await page.inputValue(searchBox)) !== 'scan') why.push(`typing "scan" in the box gave "${await page.inputValue(searchBox)}"`);
    await page.waitForSelector(resultLinks, { timeout: kSearchTimeout });
    const hrefs = await page.$$eval(resultLinks, (as) => as.map((a) => a.getAttribute('href')));
    await page.keyboard.press('ArrowDown');
    const first = await focused();
    await page.keyboard.press('ArrowDown');
    const second = await focused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    const back = await focused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    if (first !== hrefs[0] || second !== hrefs[1]) why.push(`the down arrow went to ${first}, then ${second}, not the first two results`);
    if (back !== 'search-box') why.push(`the up arrow went back to ${back}, not the box`);
    const to = new URL(hrefs[1], page.url()).href;
    await Promise.all([page.waitForURL((u) => u.href === to, { timeout: kLoadTimeout }), page.keyboard.press('Enter')]);
  } catch (e) {
    why.push(String(e.message || e).split('\n')[0]);
  }
  if (problems.length) why.push(problems[0]);
  if (why.length) fail(name, why.join('; '));
  else pass(`${name}: "/" and "s" focus the box, the arrows go through the results and back, Enter opens the second`);
  await done(page);
}

// What every page shares (the contents, the page turns, search, the
// chunks' index, folds), the same whatever the chapter: checked once, on
// the toolchain's book (--toolchain).
// Each check is a job of its own: they open pages of their own, and run
// kConcurrency at a time, as the pages do.
async function checkShared(book) {
  const { desktop, phone, dark } = book;
  const widths = [[desktop, 'desktop'], [phone, 'phone']];
  const jobs = [
    () => checkContentsButton(book),
    ...widths.map(([ctx, kind]) => () => checkActions(book, ctx, kind)),
    ...widths.map(([ctx, kind]) => () => checkOutlineMark(book, ctx, kind)),
    ...widths.map(([ctx, kind]) => () => checkLanding(book, ctx, kind)),
    ...widths.map(([ctx, kind]) => () => checkLanding(book, ctx, kind, 'folded')),
    () => checkThemeSwitch(book),
    () => checkPageTurns(book),
    () => checkFirstSearch(book),
    () => checkPhoneNavigation(book),
    () => checkChunksIndex(book),
    () => checkSearches(book),
    () => checkSearchInFold(book),
    () => checkFoldsWithoutScript(book),
    ...[[desktop, 'light'], [dark, 'dark'], [phone, 'phone']].map(([ctx, kind]) => () => checkResultOpens(book, ctx, kind)),
    ...widths.map(([ctx, kind]) => () => checkSearchKeys(book, ctx, kind)),
  ];
  await eachPage(jobs, (job) => job());
}

// What a reader does on a chapter's page, the same on every page
// (search.js and book.css): a quoted number, a number with an entry of its
// own and a claim, reached by the keyboard, lead to where they come from;
// a chunk reference followed shows its chunk (on the whole book's page
// too); on the desktop the copy controls copy, and a long chunk opens and
// folds again. The book's pages are each held to what these rest on
// (reportChapter, checkLinks).
async function checkActions(book, ctx, kind) {
  const found = new Set();
  for (const file of book.pages.filter((f) => book.surveys.get(f).toc)) {
    const s = book.surveys.get(file);
    const { page, problems } = await open(ctx, file);
    // The fold first, while nothing has opened it (a landing does).
    if (!s.whole && kind === 'desktop') {
      if (s.folds.long) {
        await openFold(book, page, file);
        found.add('a long chunk');
      }
      if (await copyCode(book, page, file)) found.add('a code copy control');
      if (await copySnippet(book, page, file)) found.add("a label's copy control");
    }
    if (!s.whole) {
      for (const what of await followQuotes(book, page, file, kind)) found.add(what);
    }
    if (s.refs.length) {
      await followRef(book, page, file, s, kind);
      found.add('a chunk reference');
    }
    if (problems.length) fail(`browser: acting on ${file} (${kind})`, problems.slice(0, 3).join('; '));
    await done(page);
  }
  const wanted = ['a quoted number', 'a number with an entry of its own', 'a claim', 'a chunk reference'];
  if (kind === 'desktop') wanted.push('a code copy control', "a label's copy control", 'a long chunk');
  for (const what of wanted.filter((w) => !found.has(w))) lacking(`browser: acting on ${what} (${kind})`, what);
}

// What the shared checks read of a page (its survey and ids), for the
// toolchain's book, whose pages are not checked themselves.
async function surveyPage(book, file) {
  const { page } = await open(book.desktop, file);
  const s = await page.evaluate(survey, book.sel);
  book.surveys.set(file, s);
  book.idsOf.set(file, new Set(s.ids));
  await done(page);
}

async function main() {
  const sel = readContract(contractFile);
  fs.mkdirSync(shotDir, { recursive: true });
  const book = await openBook(sel);
  if (kToolchain) {
    await eachPage(book.pages, (file) => surveyPage(book, file));
    await checkShared(book);
  } else {
    await eachPage(book.pages, (file) => checkPage(book, file));
    checkChapterNames(book);
    checkLinks(book);
    // The book's drawings, and its maths in the search index, which the
    // whole check sees (make check CHAPTER=x leaves them to it).
    if (book.only.length === 0) await eachPage([() => checkDrawings(book), () => checkIndexMaths(book)], (job) => job());
  }
  await book.browser.close();
  process.exit(failed);
}

main().catch((e) => {
  console.log(`FAIL browser: ${String(e.message || e).split('\n')[0]}`);
  process.exit(1);
});
