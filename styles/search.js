/* The book's script: search across the book, and the page's own small
 * helps (the second function below). The page works without it.
 *
 * Search, in the browser, from the built files.
 *
 * The box in the page's navigation is hidden until this script runs, so a
 * reader without scripts sees no box that does nothing. On first use it
 * loads lunr.min.js and search-index.js (window.BOOK_INDEX, written by
 * search-index) from the page's own folder, which works from file:// and needs
 * no server, and builds the index. Results are made with textContent and
 * never as HTML.
 */
(function () {
  'use strict';

  var kMaxResults = 12;   // a screenful; "Show all" gives the rest
  var kExcerpt = 160;     // characters of text around the first match

  var box = document.getElementById('search-box');
  var list = document.getElementById('search-results');
  var status = document.getElementById('search-status');
  var form = document.getElementById('search');
  if (!box || !list || !form) {
    return;
  }
  form.hidden = false;

  var index = null;
  var docs = null;
  var loading = null;
  var all = false;        // every result shown, not the first kMaxResults

  // Words are runs of letters, digits and '_', so that sm_75, __syncthreads
  // and cudaMemcpyAsync are each one word, and -arch=sm_75 is "arch" and
  // "sm_75"; everything else (blanks, punctuation, operators) parts them.
  var kWord = /[\p{L}\p{N}_]+/gu;

  // The words of text, each as {w: the word, at: where, len: its length}.
  function wordsOf(text) {
    var out = [];
    var m;
    kWord.lastIndex = 0;
    while ((m = kWord.exec(text)) !== null) {
      out.push({ w: m[0], at: m.index, len: m[0].length });
    }
    return out;
  }

  // The forms a word is found by, lowercased: the word; each tail of it
  // that begins a part, after '_' or at a capital after a small letter or
  // digit (cudaMemcpyAsync: memcpyasync, async; __syncthreads:
  // syncthreads; sm_75: 75); and the word without its '_' (sm75). A word
  // typed matches the forms it begins.
  function forms(word) {
    var out = [word.toLowerCase()];
    var add = function (f) {
      f = f.toLowerCase();
      if (f && out.indexOf(f) < 0) {
        out.push(f);
      }
    };
    for (var i = 1; i < word.length; i++) {
      var c = word.charAt(i), prev = word.charAt(i - 1);
      if ((prev === '_' && c !== '_') ||
          (/\p{Lu}/u.test(c) && /[\p{Ll}\p{N}]/u.test(prev))) {
        add(word.slice(i));
      }
    }
    if (/[^_]_+[^_]/.test(word)) {
      add(word.replace(/_/g, ''));
    }
    return out;
  }

  // The book's tokenizer, for lunr: each word's forms, each with the
  // word's place, so that a match marks the whole word and nothing else.
  function tokenize(obj, meta) {
    var lunr = window.lunr;
    var out = [];
    if (obj === null || obj === undefined) {
      return out;
    }
    wordsOf(String(obj)).forEach(function (w) {
      forms(w.w).forEach(function (f) {
        var md = lunr.utils.clone(meta) || {};
        md.position = [w.at, w.len];
        md.index = out.length;
        out.push(new lunr.Token(f, md));
      });
    });
    return out;
  }

  // The words the reader typed, lowercased, less lunr's stop words.
  function queryWords(text) {
    var lunr = window.lunr;
    return wordsOf(text).map(function (w) {
      return lunr.stopWordFilter(new lunr.Token(w.w.toLowerCase(), {}));
    }).filter(Boolean).map(String);
  }

  function load(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error('cannot load ' + src)); };
      document.head.appendChild(s);
    });
  }

  // The index is built once, in the page, at the first use: about a second
  // and a half on a desktop, most of it lunr's indexing. Meanwhile the
  // status says so (the form is aria-busy), painted before the build
  // takes the page's thread.
  var kLoadingText = 'Loading the book\u2019s index\u2026';
  function ready() {
    if (!loading) {
      status.textContent = kLoadingText;
      form.setAttribute('aria-busy', 'true');
      var lunrReady = window.lunr ? Promise.resolve() : load('lunr.min.js');
      loading = lunrReady
        .then(function () {
          return window.BOOK_INDEX ? null : load('search-index.js');
        })
        .then(function () {
          // (A page out of sight gets no frames: the timeout goes on.)
          return new Promise(function (painted) {
            requestAnimationFrame(function () { setTimeout(painted, 0); });
            setTimeout(painted, 100);
          });
        })
        .then(function () {
          docs = window.BOOK_INDEX.docs;
          index = window.lunr(function () {
            // Code is searched by its words as written: no stemming, and
            // the tokenizer gives words that need no trimming.
            this.tokenizer = tokenize;
            this.pipeline.remove(window.lunr.stemmer);
            this.pipeline.remove(window.lunr.trimmer);
            this.searchPipeline.remove(window.lunr.stemmer);
            this.ref('i');
            this.field('t', { boost: 8 });
            this.field('b');
            this.metadataWhitelist = ['position'];
            for (var i = 0; i < docs.length; i++) {
              this.add({ i: String(i), t: docs[i].t, b: docs[i].b });
            }
          });
        })
        .then(function () {
          form.removeAttribute('aria-busy');
          if (status.textContent === kLoadingText) {
            status.textContent = '';
          }
        }, function (err) {
          form.removeAttribute('aria-busy');
          throw err;
        });
    }
    return loading;
  }

  // Every word the reader typed must appear, as a word or the start of a
  // form of one; no lunr query syntax, so nothing typed is an error.
  function search(text) {
    var lunr = window.lunr;
    var words = queryWords(text);
    if (words.length === 0) {
      return [];
    }
    return index.query(function (q) {
      words.forEach(function (w) {
        q.term(w, { presence: lunr.Query.presence.REQUIRED,
                    wildcard: lunr.Query.wildcard.TRAILING,
                    usePipeline: false });
      });
    });
  }

  // The places of the matches in the doc's text, in order, each once.
  function matches(result) {
    var seen = {};
    var out = [];
    var md = result.matchData.metadata;
    for (var term in md) {
      var pos = (md[term].b && md[term].b.position) || [];
      pos.forEach(function (p) {
        if (!seen[p[0]]) {
          seen[p[0]] = true;
          out.push(p);
        }
      });
    }
    return out.sort(function (a, b) { return a[0] - b[0]; });
  }

  // The text around the first match, cut at word boundaries, as parts
  // that alternate: text, a match, text, ...
  function excerpt(doc, result) {
    var body = doc.b;
    var places = matches(result);
    if (places.length === 0) {
      var cut = body.length > kExcerpt ? body.lastIndexOf(' ', kExcerpt) : -1;
      return [body.slice(0, cut > 0 ? cut : kExcerpt) + (cut > 0 ? ' \u2026' : '')];
    }
    var at = places[0][0], len = places[0][1];
    var from = Math.max(0, at - kExcerpt / 3);
    if (from > 0) {
      var space = body.indexOf(' ', from);
      from = space >= 0 && space < at ? space + 1 : at;
    }
    var to = Math.min(body.length, at + len + kExcerpt * 2 / 3);
    if (to < body.length) {
      var end = body.lastIndexOf(' ', to);
      to = end > at + len ? end : to;
    }
    var parts = [(from > 0 ? '\u2026 ' : '')];
    var upto = from;
    places.forEach(function (p) {
      if (p[0] >= upto && p[0] + p[1] <= to) {
        parts[parts.length - 1] += body.slice(upto, p[0]);
        parts.push(body.slice(p[0], p[0] + p[1]), '');
        upto = p[0] + p[1];
      }
    });
    parts[parts.length - 1] += body.slice(upto, to) + (to < body.length ? ' \u2026' : '');
    return parts;
  }

  // A result's link: its place, and the words, so that the page it opens
  // marks them (see "The page a result opens" below).
  function resultHref(doc) {
    var hash = doc.u.indexOf('#');
    var file = hash < 0 ? doc.u : doc.u.slice(0, hash);
    return file + '?q=' + encodeURIComponent(box.value.trim()) +
      (hash < 0 ? '' : doc.u.slice(hash));
  }

  // Results of one title and one excerpt (the same section in several
  // chapters, as each chapter's "On a Tesla T4") are one entry: the first
  // place, then the others by their pages.
  function grouped(results) {
    var groups = [];
    var byKey = {};
    results.forEach(function (r) {
      var doc = docs[Number(r.ref)];
      var parts = excerpt(doc, r);
      var key = doc.k + '\u0000' + doc.t + '\u0000' + parts.join('\u0000');
      if (Object.prototype.hasOwnProperty.call(byKey, key)) {
        byKey[key].also.push(doc);
      } else {
        byKey[key] = { r: r, doc: doc, parts: parts, also: [] };
        groups.push(byKey[key]);
      }
    });
    return groups;
  }

  function show(results) {
    list.textContent = '';
    var groups = grouped(results);
    var shown = groups.slice(0, all ? groups.length : kMaxResults);
    shown.forEach(function (g) {
      var doc = g.doc;
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = resultHref(doc);
      var title = document.createElement('span');
      title.className = 'result-title';
      title.textContent = doc.t;
      a.appendChild(title);
      if (doc.k === 'chunk' || doc.t !== doc.p) {
        var where = document.createElement('span');
        where.className = 'result-page';
        where.textContent = (doc.k === 'chunk' ? 'code in ' : '') + doc.p;
        a.appendChild(where);
      }
      li.appendChild(a);
      var p = document.createElement('span');
      p.className = 'result-text';
      g.parts.forEach(function (part, i) {
        if (i % 2 === 0) {
          p.appendChild(document.createTextNode(part));
        } else {
          var m = document.createElement('mark');
          m.textContent = part;
          p.appendChild(m);
        }
      });
      li.appendChild(p);
      if (g.also.length) {
        var also = document.createElement('span');
        also.className = 'result-also';
        also.appendChild(document.createTextNode('The same in '));
        g.also.forEach(function (d, i) {
          if (i > 0) {
            also.appendChild(document.createTextNode(i === g.also.length - 1 ? ' and ' : ', '));
          }
          var a2 = document.createElement('a');
          a2.href = resultHref(d);
          a2.textContent = d.p;
          also.appendChild(a2);
        });
        also.appendChild(document.createTextNode('.'));
        li.appendChild(also);
      }
      list.appendChild(li);
    });
    var n = results.length;
    var cut = !all && groups.length > kMaxResults;
    var places = shown.reduce(function (sum, g) { return sum + 1 + g.also.length; }, 0);
    status.textContent = box.value.trim() === '' ? '' :
      n === 0 ? 'Nothing found.' :
      cut ? places + ' of ' + n + ' matches' :
      n + (n === 1 ? ' match' : ' matches');
    if (cut) {
      var li = document.createElement('li');
      var more = document.createElement('button');
      more.type = 'button';
      more.className = 'search-more';
      more.textContent = 'Show all ' + n;
      more.addEventListener('click', function () {
        all = true;
        show(results);
        var next = list.children[kMaxResults] && list.children[kMaxResults].querySelector('a');
        if (next) {
          next.focus();
        }
      });
      li.appendChild(more);
      list.appendChild(li);
    }
  }

  function update() {
    all = false;
    return ready().then(function () {
      show(box.value.trim() === '' ? [] : search(box.value));
    }, function (err) {
      status.textContent = 'Search is not available: ' + err.message;
    });
  }

  box.addEventListener('focus', function () { ready(); });
  box.addEventListener('input', update);
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    var first = list.querySelector('a');
    if (first) {
      window.location.href = first.href;
    }
  });
  box.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') {
      box.value = '';
      show([]);
    }
  });

  // The keyboard: '/' or 's' goes to the box from anywhere but a field;
  // the down and up arrows go from the box through the results (and the
  // "Show all" button) and back, Enter opens the one that has the focus,
  // Escape goes back to the box.
  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }
  document.addEventListener('keydown', function (e) {
    if ((e.key !== '/' && e.key !== 's') || e.defaultPrevented ||
        e.altKey || e.ctrlKey || e.metaKey || typing(document.activeElement)) {
      return;
    }
    e.preventDefault();
    // On a narrow screen the box is in the navigation, behind its button.
    var toggle = document.getElementById('nav-toggle');
    if (toggle && box.getClientRects().length === 0) {
      toggle.checked = true;
    }
    box.focus();
    box.select();
  });
  form.addEventListener('keydown', function (e) {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' &&
        !(e.key === 'Escape' && e.target !== box)) {
      return;
    }
    var stops = [box].concat(Array.prototype.slice.call(list.querySelectorAll('a, button')));
    var at = stops.indexOf(e.target);
    if (at < 0) {
      return;
    }
    e.preventDefault();
    var to = e.key === 'Escape' ? 0 :
      Math.max(0, Math.min(stops.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)));
    stops[to].focus();
  });

  // The page a result opens: with ?q=words, the search is in the box, its
  // results in the navigation, and the words are marked on the page, the
  // first at or after the result's place scrolled to. So is a bookmark.
  function markPage(text) {
    var want = queryWords(text);
    var main = document.querySelector('main');
    if (want.length === 0 || !main) {
      return;
    }
    var found = function (word) {
      return forms(word).some(function (f) {
        return want.some(function (w) { return f.lastIndexOf(w, 0) === 0; });
      });
    };
    var nodes = [];
    var walk = document.createTreeWalker(main, NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) {
        return n.parentElement.closest('math, script, style, nav, .permalink') ?
          NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
      }
    });
    for (var n = walk.nextNode(); n; n = walk.nextNode()) {
      nodes.push(n);
    }
    var marks = [];
    nodes.forEach(function (node) {
      var hits = wordsOf(node.data).filter(function (w) { return found(w.w); });
      var here = [];
      for (var i = hits.length - 1; i >= 0; i--) {  // from the end: offsets hold
        var word = node.splitText(hits[i].at);
        word.splitText(hits[i].len);
        var m = document.createElement('mark');
        m.className = 'search-hit';
        word.parentNode.replaceChild(m, word);
        m.appendChild(word);
        here.unshift(m);
      }
      marks = marks.concat(here);
    });
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id && document.getElementById(id);
    var first = marks.filter(function (m) {
      return !target || target === m || target.contains(m) ||
        (target.compareDocumentPosition(m) & Node.DOCUMENT_POSITION_FOLLOWING);
    })[0] || marks[0];
    // Into view up and down only: a code box is not scrolled sideways,
    // which would hide the start of its lines. A mark in a folded chunk
    // opens it first (the page's script below).
    if (first) {
      first.dispatchEvent(new CustomEvent('book:reveal', { bubbles: true }));
      var r = first.getBoundingClientRect();
      window.scrollTo(window.scrollX, window.scrollY + r.top - (window.innerHeight - r.height) / 2);
    }
  }

  var q = new URLSearchParams(window.location.search).get('q');
  if (q) {
    box.value = q;
    ready().then(function () { markPage(q); });
    update();
  }
})();

/* The page: nothing here is needed to read it.
 *
 * - Each transcript gets --cols, its widest line in characters, from which
 *   book.css sizes it to fit its column and the printed page.
 * - The navigation, opened over the text on a narrow screen, closes when
 *   one of its links is followed within the page, and on Escape.
 * - The left and right arrow keys go to the previous and next chapter,
 *   unless the focus is where the arrows already mean something (a text
 *   field, the search and its results, or a box that scrolls sideways) or
 *   a modifier is held.
 * - The page's outline marks the section being read as the reader scrolls.
 * - A chunk landed on is outlined with every other piece of its name.
 * - A long chunk's piece (over kFoldOver lines: a figure's drawing code, a
 *   copied kernel) is folded to its first lines, with a button under it
 *   that opens it; a link to it (a label), to one of its lines or to
 *   another piece of its name, or a search's mark in it, opens it too.
 *   Print shows it whole.
 * - Every code block gets a control that copies its code as shown.
 * - A label's copy control (hidden until now) copies its code for a slide,
 *   exactly the bytes of snippets/LABEL.cu, from the page's <template> of
 *   it: a page opened from disk may not fetch the file.
 */
(function () {
  'use strict';

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var ok = document.execCommand('copy');
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error('copy refused'));
  }
  // A copy control: a click copies text(), and the control says how it
  // went for two seconds.
  function copyOnClick(button, text) {
    button.addEventListener('click', function () {
      copyText(text()).then(function () {
        button.textContent = 'copied';
      }, function () {
        button.textContent = 'not copied';
      }).then(function () {
        setTimeout(function () { button.textContent = 'copy'; }, 2000);
      });
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll('button[data-snippet]'), function (button) {
    var source = document.getElementById(button.getAttribute('data-snippet'));
    if (!source || !source.content) {
      return;
    }
    button.hidden = false;
    copyOnClick(button, function () { return source.content.textContent; });
  });

  // Every code block (a chunk's piece, the compile line, an excerpt) gets
  // a copy control: the code as the block shows it, its text alone (a
  // reference as ⟨name⟩, without its link). A chunk's is in its head,
  // unless the head has a label's control, which copies the whole label;
  // another block's sits in its top corner, over a box that does not
  // scroll with the code.
  Array.prototype.forEach.call(document.querySelectorAll('main div.sourceCode'), function (block) {
    var code = block.querySelector('pre code');
    var chunk = block.parentElement.matches('div.chunk') ? block.parentElement : null;
    var head = chunk && chunk.querySelector('.chunk-head');
    if (!code || (head && head.querySelector('button[data-snippet]'))) {
      return;
    }
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy-code';
    button.textContent = 'copy';
    button.title = 'Copy this code';
    copyOnClick(button, function () { return code.textContent; });
    if (head) {
      head.insertBefore(button, head.querySelector('.chunk-nav'));
    } else {
      var box = document.createElement('div');
      box.className = 'code-box';
      block.parentNode.insertBefore(box, block);
      box.appendChild(block);
      box.appendChild(button);
    }
  });

  Array.prototype.forEach.call(document.querySelectorAll('pre.transcript'), function (pre) {
    var cols = 0;
    pre.textContent.split('\n').forEach(function (line) {
      cols = Math.max(cols, Array.from(line).length);
    });
    pre.style.setProperty('--cols', String(cols));
  });

  // A chunk landed on is outlined (:target), and so are the other pieces
  // of its name (data-landed), a label's whole code.
  function markPieces() {
    Array.prototype.forEach.call(document.querySelectorAll('.chunk[data-landed]'), function (c) {
      c.removeAttribute('data-landed');
    });
    var target = document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    if (!target || !target.matches('div.chunk')) {
      return;
    }
    // The pieces, by the links of their heads to the previous and next.
    ['.chunk-prev', '.chunk-next'].forEach(function (way) {
      var c = target;
      for (var seen = 0; c && seen < 1000; ++seen) {
        var a = c.querySelector('.chunk-head ' + way);
        c = a && document.getElementById(decodeURIComponent(a.hash.slice(1)));
        if (!c || !c.matches('div.chunk')) {
          break;
        }
        c.setAttribute('data-landed', '');
      }
    });
  }
  window.addEventListener('hashchange', markPieces);
  markPieces();

  // Long chunks folded (book.css cuts a piece with data-folded to its
  // first lines); each fold's setter by its chunk.
  var kFoldOver = 40;
  var folds = new Map();
  Array.prototype.forEach.call(document.querySelectorAll('main div.chunk'), function (chunk) {
    var block = chunk.querySelector(':scope > div.sourceCode');
    var code = block && block.querySelector('pre code');
    var lines = code ? code.querySelectorAll(':scope > span').length : 0;  // a span a line
    if (lines <= kFoldOver) {
      return;
    }
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'chunk-fold';
    var set = function (folded) {
      if (folded) {
        chunk.setAttribute('data-folded', '');
      } else {
        chunk.removeAttribute('data-folded');
      }
      button.textContent = folded ? 'Show all ' + lines + ' lines' : 'Show the first lines only';
      button.setAttribute('aria-expanded', String(!folded));
    };
    button.addEventListener('click', function () { set(!chunk.hasAttribute('data-folded')); });
    block.parentNode.insertBefore(button, block.nextSibling);
    folds.set(chunk, set);
    set(true);
  });
  // Opens the folded chunk that holds el, if one does.
  function reveal(el) {
    var chunk = el && el.closest && el.closest('div.chunk[data-folded]');
    if (chunk && chunk !== el && folds.has(chunk)) {
      folds.get(chunk)(false);
    }
  }
  document.addEventListener('book:reveal', function (e) { reveal(e.target); });
  // A link to a folded chunk (a label, a lesson's link to its code), to
  // another piece of its name or to one of its lines opens it, and the
  // place is brought into view again, up and down only; so is any place
  // linked at load, which the folds above it have moved.
  function landInside() {
    var target = document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    if (!target) {
      return;
    }
    reveal(target);
    folds.forEach(function (set, chunk) {
      if (chunk === target || chunk.hasAttribute('data-landed')) {
        set(false);
      }
    });
    var r = target.getBoundingClientRect();
    var margin = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
    window.scrollTo(window.scrollX, window.scrollY + r.top - margin);
  }
  window.addEventListener('hashchange', landInside);
  if (folds.size) {
    landInside();
  }

  // The outline marks the section being read (aria-current="location"):
  // the last of its headings that has come up to the top quarter of the
  // window, or none above the first.
  var outline = Array.prototype.map.call(
    document.querySelectorAll('.page-toc a[href^="#"]'), function (a) {
      return { link: a, heading: document.getElementById(decodeURIComponent(a.hash.slice(1))) };
    }).filter(function (e) { return e.heading; });
  var marked = null;
  var markPending = false;
  function markSection() {
    markPending = false;
    var line = window.innerHeight / 4;
    var now = null;
    outline.forEach(function (e) {
      if (e.heading.getBoundingClientRect().top <= line) {
        now = e.link;
      }
    });
    if (now !== marked) {
      if (marked) {
        marked.removeAttribute('aria-current');
      }
      if (now) {
        now.setAttribute('aria-current', 'location');
      }
      marked = now;
    }
  }
  if (outline.length) {
    window.addEventListener('scroll', function () {
      if (!markPending) {
        markPending = true;
        window.requestAnimationFrame(markSection);
      }
    }, { passive: true });
    window.addEventListener('resize', markSection);
    markSection();
  }

  var toggle = document.getElementById('nav-toggle');
  var nav = document.querySelector('nav.book-nav');
  if (toggle && nav) {
    nav.addEventListener('click', function (e) {
      var a = e.target.closest && e.target.closest('a[href]');
      if (a && toggle.checked && a.pathname === window.location.pathname) {
        toggle.checked = false;
      }
    });
    document.addEventListener('keydown', function (e) {
      if (e.key === 'Escape' && toggle.checked) {
        toggle.checked = false;
      }
    });
  }

  function arrowsTaken(el) {
    for (; el && el !== document.body; el = el.parentElement) {
      if (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) ||
          el.getAttribute('role') === 'search') {
        return true;
      }
      if (el.scrollWidth > el.clientWidth &&
          /auto|scroll/.test(getComputedStyle(el).overflowX)) {
        return true;
      }
    }
    return false;
  }
  document.addEventListener('keydown', function (e) {
    if ((e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') || e.defaultPrevented ||
        e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || arrowsTaken(document.activeElement)) {
      return;
    }
    var link = document.querySelector(e.key === 'ArrowLeft' ? 'a[rel~="prev"]' : 'a[rel~="next"]');
    if (link) {
      e.preventDefault();
      window.location.href = link.href;
    }
  });
})();
